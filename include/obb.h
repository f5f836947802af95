/*
** obb.h: the geometry core of obb, oriented bounding boxes in 2D and 3D.
**
** Pure C99, no Lua. An engine can link the core alone (every file under
** src/core/, or libobbcore.a from `make lib`) and never run a script;
** obb_world.h adds many boxes behind a broad phase.
**
** The model
**   A 2D box (obb2) is a rotated rectangle: a center c, a unit axis u (its
**   local +x), and half extents e. Its second axis is perp(u) = (-u.y, u.x),
**   u rotated a quarter turn counter-clockwise (in a y-up frame), so the
**   frame is always right-handed. The box is the set of points
**   c + s*e[0]*u + t*e[1]*perp(u) with s, t in [-1, 1].
**
**   A 3D box (obb3) is a center c, three orthonormal axes u[0], u[1], u[2]
**   (rows; the box's local x, y, z) with u[2] = u[0] x u[1] (right-handed),
**   and half extents e.
**
** Conventions
**   - Boxes are closed: touching counts as intersecting, a point on the
**     boundary is contained, all by one rule with a band (OBB_TOUCH_*). Half extents may be zero (a segment, a flat
**     rectangle, a point).
**   - Angles are radians, counter-clockwise positive in a y-up frame.
**   - Quaternions are (x, y, z, w) with w the scalar part.
**   - The 2D affine matrix m[6] = (a, b, c, d, e, f) maps
**     x' = a*x + c*y + e, y' = b*x + d*y + f (SVG, Cairo, LOVE).
**   - The 3D affine matrix m[12] is row-major 3x4:
**     x' = m[0]*x + m[1]*y + m[2]*z + m[3], and so on for y' (m[4..7])
**     and z' (m[8..11]).
**   - Corner k of a box has local coordinates (+-e[0], +-e[1], +-e[2]) with
**     bit 0 of k selecting + on axis 0, bit 1 on axis 1, bit 2 on axis 2.
**     In 2D the order is instead counter-clockwise: (-,-), (+,-), (+,+), (-,+).
**
** Preconditions
**   Functions taking a box assume a valid one (finite numbers, unit axes,
**   non-negative extents): build boxes with the obbN_init / obbN_from_*
**   functions, which check, or test with obbN_is_valid. Functions that can
**   fail return an obb_status and leave their output untouched on failure.
**
** Outputs
**   Every other output (through a pointer) is written on every call, a
**   miss or "apart" included, with the values documented below (a zero
**   normal, t = +inf). The answers are those documented while the sizes
**   involved stay below about 1e300 (docs/reference.md, "Precision"); for larger
**   finite inputs, up to DBL_MAX, they are unspecified, but every output
**   is still a number computed from the inputs (maybe infinite or NaN),
**   never left unwritten. fuzz/fuzz_core.c checks both.
*/
#ifndef OBB_H
#define OBB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OBB_VERSION "1.0.0"

/* What the shared objects export: the public API only. Everything else is
** built with hidden visibility (the Makefile's -fvisibility=hidden), so a
** host or another module cannot bind to the core's internals by accident.
** On Windows a DLL exports what is marked dllexport: building obb.dll
** defines OBB_BUILD_DLL (mk/windows.mk), and with one symbol marked,
** MinGW's linker no longer exports every function. A program linking
** obb's objects or obb.dll sees plain declarations. */
#ifndef OBB_API
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(OBB_BUILD_DLL)
#define OBB_API __declspec(dllexport)
#else
#define OBB_API
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define OBB_API __attribute__((visibility("default")))
#else
#define OBB_API
#endif
#endif

typedef enum obb_status {
  OBB_OK = 0,
  OBB_ENOTFINITE,    /* an input or the result is NaN or infinite */
  OBB_ENEGATIVE,     /* a negative half extent or min > max */
  OBB_EZERO,         /* a zero (or vanishing) axis or quaternion */
  OBB_ENOTORTHO,     /* axes are not orthonormal within OBB_AXIS_TOLERANCE */
  OBB_ENOTAFFINE,    /* a 4x4 matrix whose last row is not 0 0 0 1 */
  OBB_EEMPTY         /* no points */
} obb_status;

/* Returns a short English description of a status ("ok" for OBB_OK). */
OBB_API const char *obb_status_string(obb_status s);

/* How far explicit axes may be from unit length and mutually orthogonal
** (absolute, on lengths and on dot products of the normalised axes) before
** obbN_from_axes refuses them; within it they are re-orthonormalised. */
#define OBB_AXIS_TOLERANCE 1e-6

/* The touching rule (docs/reference.md, "Precision"). Boxes are closed, and every
** query (pairs, points, rays, segments, circles, spheres, planes, sweeps,
** worlds) counts two shapes as touching, and so as meeting, when nothing
** separates them by more than the band
**   B = OBB_TOUCH_REL * S + OBB_TOUCH_COORD * M + OBB_TOUCH_FLOOR
** where S is the size of the question (|dx| + |dy| [+ |dz|] between the two
** centers, or the center and the point or origin, plus every half extent
** and radius) and M the largest |coordinate| of those centers and points.
** "Separates" is measured as the separating-axis test measures it: the gap
** between the two projections on a candidate axis (for points, rays,
** circles and spheres: the box grown by B on each of its axes). */
#define OBB_TOUCH_REL 0x1p-40   /* about 9.1e-13 of the size */
#define OBB_TOUCH_COORD 0x1p-50 /* 4 ulps of the largest coordinate */
#define OBB_TOUCH_FLOOR 0x1p-1066 /* 256 of the smallest subnormal */

typedef struct obb2 {
  double c[2]; /* center */
  double u[2]; /* unit axis 0; axis 1 is (-u[1], u[0]) */
  double e[2]; /* half extents, >= 0 */
} obb2;

typedef struct obb3 {
  double c[3];    /* center */
  double u[3][3]; /* orthonormal right-handed axes, one per row */
  double e[3];    /* half extents, >= 0 */
} obb3;

/* ---- 2D ------------------------------------------------------------- */

/* c: center, e: half extents (>= 0), angle in radians. */
OBB_API obb_status obb2_init(obb2 *b, const double c[2], const double e[2],
                             double angle);
OBB_API obb_status obb2_from_aabb(obb2 *b, const double min[2],
                                  const double max[2]);
/* axis (box axis 0) need only be near unit length (OBB_AXIS_TOLERANCE). */
OBB_API obb_status obb2_from_axis(obb2 *b, const double c[2],
                                  const double e[2], const double axis[2]);
/* Covariance (principal axes) fit of n points xy[2*i], xy[2*i+1]. Encloses
** every point: obb2_contains_point is true for each. */
OBB_API obb_status obb2_fit_points(obb2 *b, const double *xy, size_t n);
OBB_API int obb2_is_valid(const obb2 *b);

OBB_API obb_status obb2_set_angle(obb2 *b, double angle);
OBB_API double obb2_angle(const obb2 *b); /* in (-pi, pi] */
/* Moves the center by d; OBB_ENOTFINITE (b unchanged) when the result
** overflows. */
OBB_API obb_status obb2_translate(obb2 *b, const double d[2]);
/* Turns the box about its center by angle, counter-clockwise. */
OBB_API obb_status obb2_rotate(obb2 *b, double angle);

OBB_API int obb2_intersects(const obb2 *a, const obb2 *b);
OBB_API int obb2_contains_point(const obb2 *b, const double p[2]);
OBB_API int obb2_contains_box(const obb2 *outer, const obb2 *inner);

/* Applies the affine matrix in place. Exact when the image is a rectangle;
** otherwise the result is the smallest-area rectangle enclosing the image
** parallelogram (aligned with its longer edge). Fails with OBB_ENOTFINITE,
** leaving b unchanged, when m or the result is not finite. */
OBB_API obb_status obb2_transform(obb2 *b, const double m[6]);

OBB_API void obb2_corners(const obb2 *b, double out[8]);
OBB_API void obb2_aabb(const obb2 *b, double out[4]); /* minx, miny, maxx, maxy */

/* ---- 3D ------------------------------------------------------------- */

/* q = (x, y, z, w); any finite non-zero quaternion, normalised here. */
OBB_API obb_status obb3_init(obb3 *b, const double c[3], const double e[3],
                     const double q[4]);
OBB_API obb_status obb3_from_aabb(obb3 *b, const double min[3], const double max[3]);
/* Three axes (rows of axes) orthonormal within OBB_AXIS_TOLERANCE; they are
** re-orthonormalised, and a left-handed set has its third axis negated (the
** box is the same set of points). */
OBB_API obb_status obb3_from_axes(obb3 *b, const double c[3], const double e[3],
                          const double axes[3][3]);
OBB_API obb_status obb3_fit_points(obb3 *b, const double *xyz, size_t n);
OBB_API int obb3_is_valid(const obb3 *b);

OBB_API obb_status obb3_set_rotation(obb3 *b, const double q[4]);
OBB_API void obb3_rotation(const obb3 *b, double q[4]); /* unit, w >= 0 */
OBB_API obb_status obb3_translate(obb3 *b, const double d[3]);
/* Turns the box about its center by q (any finite non-zero quaternion),
** given in world space: applied after the box's own rotation. */
OBB_API obb_status obb3_rotate(obb3 *b, const double q[4]);

OBB_API int obb3_intersects(const obb3 *a, const obb3 *b);
OBB_API int obb3_contains_point(const obb3 *b, const double p[3]);
OBB_API int obb3_contains_box(const obb3 *outer, const obb3 *inner);

/* Exact when the image is a box; otherwise a box enclosing the image
** parallelepiped, aligned with its longest edge, then the next. */
OBB_API obb_status obb3_transform(obb3 *b, const double m[12]);

OBB_API void obb3_corners(const obb3 *b, double out[24]);
OBB_API void obb3_aabb(const obb3 *b, double out[6]); /* min xyz, max xyz */

/* ---- queries: rays, closest points, distances, primitives, merging --- */
/* (src/core/: obb_ray.c, obb_distance.c, obb_prims.c, obb_merge.c)
** Points are arrays of 2 or 3 doubles. Nothing here allocates. */

/* Ray cast results. */
#define OBB_RAY_MISS 0
#define OBB_RAY_HIT 1    /* *t >= 0 is the entry, n the unit outward normal */
#define OBB_RAY_INSIDE 2 /* the origin is in the box: *t = 0, n = 0 */

/* Casts the ray o + t*d, t in [0, max_t] (max_t may be +inf), against the
** closed box. t is in units of d (d need not be unit; max_t = 1 casts the
** segment o..o+d). d must not be zero (a zero d is a miss unless o is in
** the box). On a hit n is the outward normal of the face entered first;
** at an edge or corner the face of the axis with the largest entry time,
** lower axis index on ties. An origin within its band is inside (exactly
** obbN_contains_point). A ray that passes near the box without entering it
** hits when one of its points is within that point's own band (the band
** of the ray where it passes the box, not of a far origin: see
** docs/precision.md), its t the entry into the box grown by that band; a
** point box swept along the ray (obbN_sweep) agrees. A miss writes
** t = +inf and a zero n. */
OBB_API int obb2_raycast(const obb2 *b, const double o[2], const double d[2],
                 double max_t, double *t, double n[2]);
OBB_API int obb3_raycast(const obb3 *b, const double o[3], const double d[3],
                 double max_t, double *t, double n[3]);

/* Closed segment p..q against the closed box (a point when p == q: then
** exactly obbN_contains_point): an end that obbN_contains_point accepts
** hits, and so does a segment with a point within that point's own band,
** as for rays. */
OBB_API int obb2_intersects_segment(const obb2 *b, const double p[2],
                            const double q[2]);
OBB_API int obb3_intersects_segment(const obb3 *b, const double p[3],
                            const double q[3]);

/* The point of the box nearest p (p itself when inside); the distance to
** it (0 inside); the signed distance (the distance outside, minus the
** distance to the nearest face inside, and 0 within the band B of the
** boundary on both sides: outside by at most B, where contains accepts,
** and inside by at most B). "Inside" is exactly what obbN_contains_point
** accepts. */
OBB_API void obb2_closest_point(const obb2 *b, const double p[2], double out[2]);
OBB_API double obb2_distance_point(const obb2 *b, const double p[2]);
OBB_API double obb2_signed_distance(const obb2 *b, const double p[2]);
OBB_API void obb3_closest_point(const obb3 *b, const double p[3], double out[3]);
OBB_API double obb3_distance_point(const obb3 *b, const double p[3]);
OBB_API double obb3_signed_distance(const obb3 *b, const double p[3]);

/* Distance between two boxes with a closest point on each (pa on a, pb on
** b). Exact: the minimum over vertex-box pairs both ways (and, in 3D,
** edge-edge pairs). When the boxes touch or overlap the result is 0 and
** pa = pb is a point of both: b's center if a contains it, else a's center
** if b contains it, else the middle of the first edge (a's edges, then
** b's) that crosses the other box, else (boxes that touch only within the
** band) the midpoint of the closest points. pa and pb are always written
** (past the range of "Outputs": unspecified numbers, the distance maybe
** +inf, the points maybe infinite or NaN). */
OBB_API double obb2_distance(const obb2 *a, const obb2 *b, double pa[2],
                     double pb[2]);
OBB_API double obb3_distance(const obb3 *a, const obb3 *b, double pa[3],
                     double pb[3]);

/* Containment classification of b against a. */
#define OBB_DISJOINT 0
#define OBB_INTERSECTS 1 /* they touch or overlap, a does not contain b */
/* (the verdicts of obbN_contains_box and obbN_intersects) */
#define OBB_CONTAINS 2   /* every point of b is in a */
OBB_API int obb2_classify(const obb2 *a, const obb2 *b);
OBB_API int obb3_classify(const obb3 *a, const obb3 *b);

/* Closed disc / ball of radius r >= 0 against the closed box, grown by the
** band (S counts r): with r = 0, exactly obbN_contains_point. */
OBB_API int obb2_intersects_circle(const obb2 *b, const double c[2], double r);
OBB_API int obb3_intersects_sphere(const obb3 *b, const double c[3], double r);

/* Side of the plane n.x = d (n non-zero, any length): 1 when the whole box
** is strictly on the side n points to, -1 strictly behind, 0 when the
** plane crosses or touches the box. */
OBB_API int obb3_plane_side(const obb3 *b, const double n[3], double d);

/* A box enclosing both a and b (out may alias either). Candidate frames:
** a's, b's, their average (Eberly: b's frame first re-labelled to the
** equivalent one nearest a's, then the rotations averaged), and one along
** the line of centers; for each the extents come from the projected
** corners of both boxes, and the smallest area (volume) wins, earlier
** candidates on ties. Rounding is absorbed by growing the extents until
** obbN_contains_box holds for both. Fails with OBB_ENOTFINITE, leaving out
** unchanged, when no candidate's numbers are finite (boxes reaching past
** +-DBL_MAX together); a candidate that overflows is skipped. */
OBB_API obb_status obb2_merge(const obb2 *a, const obb2 *b, obb2 *out);
OBB_API obb_status obb3_merge(const obb3 *a, const obb3 *b, obb3 *out);

/* ---- tight fits (src/core/obb_tightfit2.c, obb_tightfit3.c) ---------- */

/* How many doubles of scratch the tight fits need for n points. The core
** never allocates: the caller passes the buffer (the Lua binding uses a
** userdata, so an error cannot leak it). */
#define OBB2_TIGHT_SCRATCH(n) (6 * (size_t)(n) + 4)
#define OBB3_TIGHT_SCRATCH(n) (8 * (size_t)(n) + 4)

/* The minimum-area rectangle enclosing n points xy[2*i], xy[2*i+1]: exact
** up to rounding (convex hull with exact orientation tests, then rotating
** calipers), O(n log n). Axis 0 runs along the longer side and points to
** +x (+y when vertical). Encloses every point exactly, like
** obb2_fit_points. Fails with OBB_EEMPTY or OBB_ENOTFINITE. */
OBB_API obb_status obb2_fit_points_tight(obb2 *b, const double *xy, size_t n,
                                 double *scratch);
/* A box enclosing n points xyz[3*i..3*i+2], never larger in volume than
** obb3_fit_points' and usually much smaller: the best of many candidate
** axes (covariance axes, DiTO-26 directions and triangles), each with the
** exact minimum-area rectangle of the points projected across it, refined
** by coordinate descent. Not the optimal box in general. Axes are ordered
** by decreasing extent. Encloses every point exactly. */
OBB_API obb_status obb3_fit_points_tight(obb3 *b, const double *xyz, size_t n,
                                 double *scratch);

/* ---- penetration, contacts, sweeps (src/core/obb_penetrate.c, obb_contact.c,
** obb_sweep.c) ------------------------------------------------------- */
/*
** The normal n returned below always points the way a must move to leave
** b (away from b); b leaves along -n. Candidate axes, which are also the
** tie-breaking order (the first of equal ones wins): a's axes 0, 1(, 2),
** then b's axes, then in 3D the edge axes a_i x b_j, i major; exactly
** parallel edges give no edge axis. Every function reports nothing
** exactly when obbN_intersects is false (at the start, for sweeps).
*/

/* Whether a and b overlap by more than the touching band B (obb_touch.h):
** on every candidate axis their projections overlap by more than B, so no
** move shorter than B separates them. Pairs that only touch (within the
** band) do not overlap; pairs that overlap intersect. The movers' rule for
** an other the item is already inside (obb_world.h). */
OBB_API int obb2_overlaps(const obb2 *a, const obb2 *b);
OBB_API int obb3_overlaps(const obb3 *a, const obb3 *b);

/* Minimum translation: when a and b intersect, returns 1, the unit normal
** n and depth >= 0 such that moving a by n * depth leaves the boxes
** touching and any shorter move leaves them overlapping (touching boxes:
** depth 0). Exact: the least overlap over all candidate axes. Returns 0,
** with a zero n and depth 0, when they are apart. */
OBB_API int obb2_penetration(const obb2 *a, const obb2 *b, double n[2],
                     double *depth);
OBB_API int obb3_penetration(const obb3 *a, const obb3 *b, double n[3],
                     double *depth);

/* Contact manifold of intersecting boxes: returns the number of points
** (2D: 1 or 2; 3D: 1 to 4), 0 (with a zero n) when apart. n and the
** deepest depth are those of obbN_penetration. pts holds x, y, depth (2D)
** or x, y, z, depth (3D) per point, and zeros after the last point, so all
** 6 (16) numbers are written. A face axis clips the incident box's face most opposed
** to the reference face to that face's sides and keeps the vertices on
** or below it (more than 4 in 3D are reduced to the deepest and the 3 that
** span the most area); an edge axis gives one point. Points lie midway
** between the two surfaces (for an edge pair, between the edges' closest
** points), so swapping a and b gives the same points. */
#define OBB2_MAX_CONTACTS 2
#define OBB3_MAX_CONTACTS 4
OBB_API int obb2_contacts(const obb2 *a, const obb2 *b, double n[2], double pts[6]);
OBB_API int obb3_contacts(const obb3 *a, const obb3 *b, double n[3],
                  double pts[16]);

/* Boxes a and b move by va and vb (without turning) over a step t in
** [0, 1]. Returns 1 with the time t of first contact and the unit normal
** n there (a's way out, as above), or 0 (t = +inf, a zero n) when they do
** not touch during the step. Boxes touching or overlapping at the start give t = 0 and the
** penetration normal. t is the time the boxes meet exactly, or, for boxes
** that only pass within the band, the first time they are within it. */
OBB_API int obb2_sweep(const obb2 *a, const obb2 *b, const double va[2],
               const double vb[2], double *t, double n[2]);
OBB_API int obb3_sweep(const obb3 *a, const obb3 *b, const double va[3],
               const double vb[3], double *t, double n[3]);

/* Sweeps that turn (src/core/obb_sweep_turning.c, docs/turning-sweeps.md).
**
** The motion: over the step s in [0, 1] each box's center moves in a
** straight line by its displacement (va, vb) and the box turns about its
** own center at a constant angular velocity. 2D: its angle grows linearly
** by wa (wb) radians over the step, counter-clockwise positive. 3D: ra (rb)
** is a rotation vector in the world frame (axis times angle, radians), and
** the box's orientation at time s is R(s) = rot(s * ra) * R(0), the turn
** applied after the box's own rotation (as obb3_rotate applies it). Any
** turn is accepted, several full turns included. With no turn at all
** (every turn component == 0) these are exactly obbN_sweep, bit for bit.
**
** Results:
**   OBB_SWEEP_HIT: the boxes touch during the step; *t is a time of
**     contact and n the unit normal there, pointing the way a must move to
**     get away from b (b's way is -n): the penetration normal of the boxes
**     posed at *t. Certified: the boxes do not meet (their exact distance
**     is not 0) at any time before *t, so *t is never later than the first
**     contact; at *t they are within the touching band, apart by at most
**     5/8 of it on some candidate axis, so obbN_intersects holds for them
**     posed at *t, even with a caller's own rounding of the pose. *t is
**     thus between the first time the boxes come within the band and the
**     first time they meet exactly: early by at most the time they take
**     to close a gap of the band's size. Boxes that touch at the start
**     (obbN_intersects) give *t = 0 and the penetration normal.
**   OBB_SWEEP_NONE: the boxes do not meet at any time in [0, 1] (a pass
**     within the band that never meets may be reported either way).
**   OBB_SWEEP_LIMIT: undecided within OBB_SWEEP_TURNING_BUDGET poses
**     (boxes passing very close without meeting, or enormous turns): the
**     boxes do not meet before *t (a safe time to advance to, possibly 0),
**     n is a's way out along the last separating axis; nothing is known
**     after *t.
** Precision: exact up to the rounding of the motion itself (the centers
** at time s are computed as c + s * v, the axes turned by the angle
** s * w): the certificate holds for the boxes as posed, with every
** rounding of its own arithmetic accounted for. va, vb, wa, wb, ra, rb
** must be finite; bounds that overflow (displacements or turns near
** 1e308) give OBB_SWEEP_LIMIT at *t = 0 unless the boxes touch at 0. */
#define OBB_SWEEP_NONE 0
#define OBB_SWEEP_HIT 1
#define OBB_SWEEP_LIMIT 2
/* Poses a turning sweep may examine before it answers OBB_SWEEP_LIMIT. */
#define OBB_SWEEP_TURNING_BUDGET 1000
OBB_API int obb2_sweep_turning(const obb2 *a, const obb2 *b,
                               const double va[2], const double vb[2],
                               double wa, double wb, double *t, double n[2]);
OBB_API int obb3_sweep_turning(const obb3 *a, const obb3 *b,
                               const double va[3], const double vb[3],
                               const double ra[3], const double rb[3],
                               double *t, double n[3]);

#ifdef __cplusplus
}
#endif

#endif
