/*
** obb.h: the geometry core of obb, oriented bounding boxes in 2D and 3D.
**
** Pure C99, no Lua. An engine can link the core alone (src/obb2.c,
** src/obb3.c, src/obb_fit.c and friends) and never run a script.
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
**     boundary is contained. Half extents may be zero (a segment, a flat
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
*/
#ifndef OBB_H
#define OBB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OBB_VERSION "0.1.0"

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
const char *obb_status_string(obb_status s);

/* How far explicit axes may be from unit length and mutually orthogonal
** (absolute, on lengths and on dot products of the normalised axes) before
** obbN_from_axes refuses them; within it they are re-orthonormalised. */
#define OBB_AXIS_TOLERANCE 1e-6

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

obb_status obb2_init(obb2 *b, double cx, double cy, double hx, double hy,
                     double angle);
obb_status obb2_from_aabb(obb2 *b, double minx, double miny, double maxx,
                          double maxy);
/* Axis (ux, uy) need only be near unit length (OBB_AXIS_TOLERANCE). */
obb_status obb2_from_axis(obb2 *b, double cx, double cy, double hx, double hy,
                          double ux, double uy);
/* Covariance (principal axes) fit of n points xy[2*i], xy[2*i+1]. Encloses
** every point: obb2_contains_point is true for each. */
obb_status obb2_fit_points(obb2 *b, const double *xy, size_t n);
int obb2_is_valid(const obb2 *b);

obb_status obb2_set_angle(obb2 *b, double angle);
double obb2_angle(const obb2 *b); /* in (-pi, pi] */

int obb2_intersects(const obb2 *a, const obb2 *b);
int obb2_contains_point(const obb2 *b, double x, double y);
int obb2_contains_box(const obb2 *outer, const obb2 *inner);

/* Applies the affine matrix in place. Exact when the image is a rectangle;
** otherwise the result is the smallest-area rectangle enclosing the image
** parallelogram (aligned with its longer edge). Fails with OBB_ENOTFINITE,
** leaving b unchanged, when m or the result is not finite. */
obb_status obb2_transform(obb2 *b, const double m[6]);

void obb2_corners(const obb2 *b, double out[8]);
void obb2_aabb(const obb2 *b, double out[4]); /* minx, miny, maxx, maxy */

/* ---- 3D ------------------------------------------------------------- */

/* q = (x, y, z, w); any finite non-zero quaternion, normalised here. */
obb_status obb3_init(obb3 *b, const double c[3], const double e[3],
                     const double q[4]);
obb_status obb3_from_aabb(obb3 *b, const double min[3], const double max[3]);
/* Three axes (rows of axes) orthonormal within OBB_AXIS_TOLERANCE; they are
** re-orthonormalised, and a left-handed set has its third axis negated (the
** box is the same set of points). */
obb_status obb3_from_axes(obb3 *b, const double c[3], const double e[3],
                          const double axes[3][3]);
obb_status obb3_fit_points(obb3 *b, const double *xyz, size_t n);
int obb3_is_valid(const obb3 *b);

obb_status obb3_set_rotation(obb3 *b, const double q[4]);
void obb3_rotation(const obb3 *b, double q[4]); /* unit, w >= 0 */

int obb3_intersects(const obb3 *a, const obb3 *b);
int obb3_contains_point(const obb3 *b, const double p[3]);
int obb3_contains_box(const obb3 *outer, const obb3 *inner);

/* Exact when the image is a box; otherwise a box enclosing the image
** parallelepiped, aligned with its longest edge, then the next. */
obb_status obb3_transform(obb3 *b, const double m[12]);

void obb3_corners(const obb3 *b, double out[24]);
void obb3_aabb(const obb3 *b, double out[6]); /* min xyz, max xyz */

#ifdef __cplusplus
}
#endif

#endif
