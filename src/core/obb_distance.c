/*
** obb_distance.c: closest points and distances, point to box and box to
** box.
**
** Point queries clamp the point's local coordinates to the extents
** (Ericson, ClosestPtPointOBB, 5.1.4) and measure the excess in the local
** frame, so the distance carries no rounding from the world offset. A
** point that contains accepts (within the touching band, obb_touch.h) is
** at distance 0 and is its own closest point, so the two always agree.
**
** Box to box: two disjoint convex polytopes are closest at a vertex of one
** and a point of the other, or (3D only) at a point of an edge of each.
** So the distance is the minimum of vertex-to-box distances both ways and,
** in 3D, edge-to-edge distances. Every candidate is the distance between a
** real point of each box, never an under-estimate, and the true pair is
** among them, so the minimum is exact up to rounding. Everything is done in
** a's frame (b's center relative to a's), which keeps far-from-origin boxes
** as accurate as boxes near it.
*/
#include "obb.h"
#include "obb_query.h"
#include "obb_touch.h"

/* ---- points, 2D ------------------------------------------------------ */

static void to_world2(const obb2 *b, const double l[2], double out[2]) {
  out[0] = b->c[0] + l[0] * b->u[0] - l[1] * b->u[1];
  out[1] = b->c[1] + l[0] * b->u[1] + l[1] * b->u[0];
}

void obb2_closest_point(const obb2 *b, const double p[2], double out[2]) {
  double l[2];
  obb2_local(b->c, b->u, p[0], p[1], l);
  if (obb_inside(2, l, b->e, obb2_point_band(b, p, 0.0))) {
    out[0] = p[0]; out[1] = p[1];
    return;
  }
  l[0] = obb_clamp(l[0], b->e[0]);
  l[1] = obb_clamp(l[1], b->e[1]);
  to_world2(b, l, out);
}

double obb2_distance_point(const obb2 *b, const double p[2]) {
  double l[2];
  obb2_local(b->c, b->u, p[0], p[1], l);
  if (obb_inside(2, l, b->e, obb2_point_band(b, p, 0.0))) return 0.0;
  return obb_len3(obb_excess(l[0], b->e[0]), obb_excess(l[1], b->e[1]), 0);
}

/* Inside, minus the depth below the nearest face; 0 within the band of
** the boundary on both sides: outside it (where obb_inside accepts) and
** inside it (a depth of at most the band). */
static double signed_inside(double depth, double band) {
  return depth > band ? -depth : 0.0;
}

double obb2_signed_distance(const obb2 *b, const double p[2]) {
  double l[2], band;
  obb2_local(b->c, b->u, p[0], p[1], l);
  band = obb2_point_band(b, p, 0.0);
  if (obb_inside(2, l, b->e, band))
    return signed_inside(obb_fmin(b->e[0] - fabs(l[0]), b->e[1] - fabs(l[1])),
                         band);
  return obb_len3(obb_excess(l[0], b->e[0]), obb_excess(l[1], b->e[1]), 0);
}

/* ---- points, 3D ------------------------------------------------------ */

static void to_world3(const obb3 *b, const double l[3], double out[3]) {
  int i;
  for (i = 0; i < 3; i++)
    out[i] = b->c[i] + l[0] * b->u[0][i] + l[1] * b->u[1][i] +
             l[2] * b->u[2][i];
}

void obb3_closest_point(const obb3 *b, const double p[3], double out[3]) {
  double l[3];
  int i;
  obb3_local(b->c, b->u, p, l);
  if (obb_inside(3, l, b->e, obb3_point_band(b, p, 0.0))) {
    for (i = 0; i < 3; i++) out[i] = p[i];
    return;
  }
  for (i = 0; i < 3; i++) l[i] = obb_clamp(l[i], b->e[i]);
  to_world3(b, l, out);
}

double obb3_distance_point(const obb3 *b, const double p[3]) {
  double l[3];
  obb3_local(b->c, b->u, p, l);
  if (obb_inside(3, l, b->e, obb3_point_band(b, p, 0.0))) return 0.0;
  return obb_len3(obb_excess(l[0], b->e[0]), obb_excess(l[1], b->e[1]),
                  obb_excess(l[2], b->e[2]));
}

double obb3_signed_distance(const obb3 *b, const double p[3]) {
  double l[3], band;
  obb3_local(b->c, b->u, p, l);
  band = obb3_point_band(b, p, 0.0);
  if (obb_inside(3, l, b->e, band))
    return signed_inside(obb_fmin(b->e[0] - fabs(l[0]),
                              obb_fmin(b->e[1] - fabs(l[1]), b->e[2] - fabs(l[2]))),
                         band);
  return obb_len3(obb_excess(l[0], b->e[0]), obb_excess(l[1], b->e[1]),
                  obb_excess(l[2], b->e[2]));
}

/* ---- box to box, shared ---------------------------------------------- */

/* Sign of corner k on axis i: bit i of k set means +. */
static double corner_sign(int k, int i) { return (k >> i) & 1 ? 1.0 : -1.0; }

/* ---- box to box, 2D -------------------------------------------------- */

/* Other box in own's frame: its center t, its axes as rows of r. */
static void relative2(const obb2 *own, const obb2 *other, double t[2],
                      double r[2][2]) {
  double c = own->u[0] * other->u[0] + own->u[1] * other->u[1];
  double s = own->u[0] * other->u[1] - own->u[1] * other->u[0];
  obb2_local(own->c, own->u, other->c[0], other->c[1], t);
  r[0][0] = c; r[0][1] = s;
  r[1][0] = -s; r[1][1] = c;
}

/* Corner k of a box with extents e, center t and axes r, in the frame
** where t and r are given. 2D corners go counter-clockwise (obb.h). */
static void corner2(int k, const double t[2], double r[2][2],
                    const double e[2], double out[2]) {
  static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
  out[0] = t[0] + sx[k] * e[0] * r[0][0] + sy[k] * e[1] * r[1][0];
  out[1] = t[1] + sx[k] * e[0] * r[0][1] + sy[k] * e[1] * r[1][1];
}

/* From b's frame (given as t, r in a's frame) to a's frame. */
static void back2(const double t[2], double r[2][2], const double p[2],
                  double out[2]) {
  out[0] = t[0] + p[0] * r[0][0] + p[1] * r[1][0];
  out[1] = t[1] + p[0] * r[0][1] + p[1] * r[1][1];
}

/* A point in both boxes (they are known to intersect), in world
** coordinates: see obb.h for which. Returns 0 when rounding hides every
** crossing. */
static int common_point2(const obb2 *a, const obb2 *b, const double tb[2],
                         double rb[2][2], const double ta[2],
                         double ra[2][2], double out[2]) {
  double v[4][2], d[2], lo, hi, p[2];
  int k, pass;
  if (obb2_contains_point(a, b->c)) {
    out[0] = b->c[0]; out[1] = b->c[1];
    return 1;
  }
  if (obb2_contains_point(b, a->c)) {
    out[0] = a->c[0]; out[1] = a->c[1];
    return 1;
  }
  for (pass = 0; pass < 2; pass++) {
    /* pass 0: a's edges in b's frame against b; pass 1 the reverse */
    const double *e_own = pass == 0 ? b->e : a->e;
    const double *e_oth = pass == 0 ? a->e : b->e;
    const double *t = pass == 0 ? ta : tb;
    double(*r)[2] = pass == 0 ? ra : rb;
    for (k = 0; k < 4; k++) corner2(k, t, r, e_oth, v[k]);
    for (k = 0; k < 4; k++) {
      const double *p0 = v[k], *p1 = v[(k + 1) & 3];
      d[0] = p1[0] - p0[0]; d[1] = p1[1] - p0[1];
      lo = 0.0; hi = 1.0;
      if (obb_clip_slabs(2, p0, d, e_own, &lo, &hi)) {
        double s = 0.5 * (lo + hi);
        p[0] = p0[0] + s * d[0]; p[1] = p0[1] + s * d[1];
        to_world2(pass == 0 ? b : a, p, out);
        return 1;
      }
    }
  }
  return 0;
}

/* Vertex-to-box candidates: corners of the box (t, r, eo) against the
** axis-aligned box e around the origin; points in that frame. The first
** corner is always taken (*bestd starts at +inf, and a distance that
** overflows is +inf too): own and oth are then points of the two boxes
** whatever the numbers, never left unwritten. */
static void vertices_vs_box2(const double t[2], double r[2][2],
                             const double eo[2], const double e[2],
                             double *bestd, double own[2], double oth[2]) {
  int k;
  for (k = 0; k < 4; k++) {
    double v[2], d;
    corner2(k, t, r, eo, v);
    d = obb_len3(obb_excess(v[0], e[0]), obb_excess(v[1], e[1]), 0);
    if (k == 0 || d < *bestd) {
      *bestd = d;
      own[0] = obb_clamp(v[0], e[0]); own[1] = obb_clamp(v[1], e[1]);
      oth[0] = v[0]; oth[1] = v[1];
    }
  }
}

/* Boxes that touch within the band but share no point exactly: both
** closest points become the midpoint of the two, which is within the band
** of both boxes, so the distance is 0 and the points coincide. */
static void meet2(double la[2], double lb[2]) {
  int k;
  for (k = 0; k < 2; k++) la[k] = lb[k] = 0.5 * la[k] + 0.5 * lb[k];
}

double obb2_distance(const obb2 *a, const obb2 *b, double pa[2],
                     double pb[2]) {
  double tb[2], rb[2][2], ta[2], ra[2][2], la[2], lb[2], qa[2], qb[2];
  double d = HUGE_VAL, db = HUGE_VAL;
  int hit = obb2_intersects(a, b);
  relative2(a, b, tb, rb);
  relative2(b, a, ta, ra);
  if (hit && common_point2(a, b, tb, rb, ta, ra, pa)) {
    pb[0] = pa[0]; pb[1] = pa[1];
    return 0.0;
  }
  /* b's corners against a (a's frame), then a's corners against b */
  vertices_vs_box2(tb, rb, b->e, a->e, &d, la, lb);
  vertices_vs_box2(ta, ra, a->e, b->e, &db, qb, qa);
  if (db < d) {
    d = db;
    back2(tb, rb, qa, la);
    back2(tb, rb, qb, lb);
  }
  if (hit) meet2(la, lb);
  to_world2(a, la, pa);
  to_world2(a, lb, pb);
  return hit ? 0.0 : d;
}

/* ---- box to box, 3D -------------------------------------------------- */

static void relative3(const obb3 *own, const obb3 *other, double t[3],
                      double r[3][3]) {
  int i, j;
  obb3_local(own->c, own->u, other->c, t);
  for (j = 0; j < 3; j++)
    for (i = 0; i < 3; i++) r[j][i] = obb_dot3(other->u[j], own->u[i]);
}

static void corner3(int k, const double t[3], double r[3][3],
                    const double e[3], double out[3]) {
  int i;
  for (i = 0; i < 3; i++)
    out[i] = t[i] + corner_sign(k, 0) * e[0] * r[0][i] +
             corner_sign(k, 1) * e[1] * r[1][i] +
             corner_sign(k, 2) * e[2] * r[2][i];
}

static void back3(const double t[3], double r[3][3], const double p[3],
                  double out[3]) {
  int i;
  for (i = 0; i < 3; i++)
    out[i] = t[i] + p[0] * r[0][i] + p[1] * r[1][i] + p[2] * r[2][i];
}

/* Edge m (0..11) of a box: the corners it joins. Edges 4*i..4*i+3 run
** along axis i. */
static void edge3(int m, int *k0, int *k1) {
  int axis = m >> 2, rest = m & 3, k = 0, bit = 0, i;
  for (i = 0; i < 3; i++) {
    if (i == axis) continue;
    if ((rest >> bit) & 1) k |= 1 << i;
    bit++;
  }
  *k0 = k;
  *k1 = k | (1 << axis);
}

static int common_point3(const obb3 *a, const obb3 *b, const double tb[3],
                         double rb[3][3], const double ta[3],
                         double ra[3][3], double out[3]) {
  double v[8][3], d[3], p[3], lo, hi;
  int k, m, i, pass;
  if (obb3_contains_point(a, b->c)) {
    for (i = 0; i < 3; i++) out[i] = b->c[i];
    return 1;
  }
  if (obb3_contains_point(b, a->c)) {
    for (i = 0; i < 3; i++) out[i] = a->c[i];
    return 1;
  }
  for (pass = 0; pass < 2; pass++) {
    const double *e_own = pass == 0 ? b->e : a->e;
    const double *e_oth = pass == 0 ? a->e : b->e;
    const double *t = pass == 0 ? ta : tb;
    double(*r)[3] = pass == 0 ? ra : rb;
    for (k = 0; k < 8; k++) corner3(k, t, r, e_oth, v[k]);
    for (m = 0; m < 12; m++) {
      int k0, k1;
      edge3(m, &k0, &k1);
      for (i = 0; i < 3; i++) d[i] = v[k1][i] - v[k0][i];
      lo = 0.0; hi = 1.0;
      if (obb_clip_slabs(3, v[k0], d, e_own, &lo, &hi)) {
        double s = 0.5 * (lo + hi);
        for (i = 0; i < 3; i++) p[i] = v[k0][i] + s * d[i];
        to_world3(pass == 0 ? b : a, p, out);
        return 1;
      }
    }
  }
  return 0;
}

static void vertices_vs_box3(const double t[3], double r[3][3],
                             const double eo[3], const double e[3],
                             double *bestd, double own[3], double oth[3]) {
  int k, i;
  for (k = 0; k < 8; k++) {
    double v[3], d;
    corner3(k, t, r, eo, v);
    d = obb_len3(obb_excess(v[0], e[0]), obb_excess(v[1], e[1]),
                 obb_excess(v[2], e[2]));
    if (k == 0 || d < *bestd) { /* the first always: see vertices_vs_box2 */
      *bestd = d;
      for (i = 0; i < 3; i++) {
        own[i] = obb_clamp(v[i], e[i]);
        oth[i] = v[i];
      }
    }
  }
}

static double clamp01(double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* Closest points of segments p1 + s*d1 and p2 + t*d2, s, t in [0, 1]
** (Ericson, ClosestPtSegmentSegment, 5.1.9). Zero-length segments are
** exact zeros here (edges of zero-extent boxes), so they are tested with
** == 0. The parallel test uses |d1 x d2|^2, which is a*e - b*b without its
** cancellation. Whatever s and t rounding gives, c1 and c2 are points of
** the segments, so the distance never under-estimates. */
static double segment_segment(const double p1[3], const double d1[3],
                              const double p2[3], const double d2[3],
                              double c1[3], double c2[3]) {
  double r[3], a = obb_dot3(d1, d1), e = obb_dot3(d2, d2), f, s, t;
  int i;
  for (i = 0; i < 3; i++) r[i] = p1[i] - p2[i];
  f = obb_dot3(d2, r);
  if (a == 0.0 && e == 0.0) {
    s = t = 0.0;
  } else if (a == 0.0) {
    s = 0.0; t = clamp01(f / e);
  } else {
    double c = obb_dot3(d1, r);
    if (e == 0.0) {
      t = 0.0; s = clamp01(-c / a);
    } else {
      double b = obb_dot3(d1, d2), x[3], denom;
      obb_cross3(d1, d2, x);
      denom = obb_dot3(x, x);
      s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0; s = clamp01(-c / a);
      } else if (t > 1.0) {
        t = 1.0; s = clamp01((b - c) / a);
      }
    }
  }
  for (i = 0; i < 3; i++) {
    c1[i] = p1[i] + s * d1[i];
    c2[i] = p2[i] + t * d2[i];
  }
  return obb_len3(c1[0] - c2[0], c1[1] - c2[1], c1[2] - c2[2]);
}

/* Which of a box's 12 edges (in its own frame, half extents e) can hold
** the closest point to the other box, given that box's bounds lo..hi in
** this frame: a point inside edge m (along axis k, on the sides s_i of the
** two other axes) is the nearest point of the box only to points with
** s_i * x_i >= e_i on both other axes, its Voronoi region, so the other box
** must reach that far. Edge ends are corners, which the corner candidates
** cover. Returns a bit mask; typically one to four edges remain. */
static int facing_edges3(const double e[3], const double lo[3],
                         const double hi[3]) {
  int m, i, mask = 0;
  for (m = 0; m < 12; m++) {
    int k0, k1, ok = 1;
    edge3(m, &k0, &k1);
    for (i = 0; i < 3 && ok; i++) {
      if (i == m >> 2) continue;
      ok = (k0 >> i) & 1 ? hi[i] >= e[i] : lo[i] <= -e[i];
    }
    if (ok) mask |= 1 << m;
  }
  return mask;
}

/* Bounds of a box (center t, axes r, half extents e) in another's frame. */
static void bounds3(const double t[3], double r[3][3], const double e[3],
                    double lo[3], double hi[3]) {
  int i;
  for (i = 0; i < 3; i++) {
    double rad = e[0] * fabs(r[0][i]) + e[1] * fabs(r[1][i]) +
                 e[2] * fabs(r[2][i]);
    lo[i] = t[i] - rad;
    hi[i] = t[i] + rad;
  }
}

/* The facing edges of a (axis-aligned in its own frame) against the
** facing edges of b (corners vb, in a's frame). */
static void edges_vs_edges3(const double ea[3], int mask_a, double vb[8][3],
                            int mask_b, double *bestd, double la[3],
                            double lb[3]) {
  int ma, mb, i;
  for (ma = 0; ma < 12; ma++) {
    double p1[3], d1[3];
    int k0, k1;
    if (!((mask_a >> ma) & 1)) continue;
    edge3(ma, &k0, &k1);
    for (i = 0; i < 3; i++) {
      p1[i] = corner_sign(k0, i) * ea[i];
      d1[i] = corner_sign(k1, i) * ea[i] - p1[i];
    }
    for (mb = 0; mb < 12; mb++) {
      double d2[3], c1[3], c2[3], d;
      if (!((mask_b >> mb) & 1)) continue;
      edge3(mb, &k0, &k1);
      for (i = 0; i < 3; i++) d2[i] = vb[k1][i] - vb[k0][i];
      d = segment_segment(p1, d1, vb[k0], d2, c1, c2);
      if (d < *bestd) {
        *bestd = d;
        for (i = 0; i < 3; i++) { la[i] = c1[i]; lb[i] = c2[i]; }
      }
    }
  }
}

static void meet3(double la[3], double lb[3]) {
  int k;
  for (k = 0; k < 3; k++) la[k] = lb[k] = 0.5 * la[k] + 0.5 * lb[k];
}

double obb3_distance(const obb3 *a, const obb3 *b, double pa[3],
                     double pb[3]) {
  double tb[3], rb[3][3], ta[3], ra[3][3], la[3], lb[3], qa[3], qb[3];
  double vb[8][3], d = HUGE_VAL, db = HUGE_VAL;
  int k, hit = obb3_intersects(a, b);
  relative3(a, b, tb, rb);
  relative3(b, a, ta, ra);
  if (hit && common_point3(a, b, tb, rb, ta, ra, pa)) {
    for (k = 0; k < 3; k++) pb[k] = pa[k];
    return 0.0;
  }
  vertices_vs_box3(tb, rb, b->e, a->e, &d, la, lb);
  vertices_vs_box3(ta, ra, a->e, b->e, &db, qb, qa);
  if (db < d) {
    d = db;
    back3(tb, rb, qa, la);
    back3(tb, rb, qb, lb);
  }
  {
    double lo[3], hi[3];
    int mask_a, mask_b;
    bounds3(tb, rb, b->e, lo, hi);
    mask_a = facing_edges3(a->e, lo, hi);
    bounds3(ta, ra, a->e, lo, hi);
    mask_b = facing_edges3(b->e, lo, hi);
    if (mask_a && mask_b) {
      for (k = 0; k < 8; k++) corner3(k, tb, rb, b->e, vb[k]);
      edges_vs_edges3(a->e, mask_a, vb, mask_b, &d, la, lb);
    }
  }
  if (hit) meet3(la, lb);
  to_world3(a, la, pa);
  to_world3(a, lb, pb);
  return hit ? 0.0 : d;
}
