/*
** obb_ray.c: ray, segment and line casts against boxes.
**
** Ericson's slab test (Real-Time Collision Detection, 5.3.3) in the box's
** local frame: the ray is clipped to each pair of parallel faces in turn;
** it hits when the entry into the last slab comes before the exit from the
** first. A direction component that is exactly zero (or -0.0) is treated as
** parallel to that slab, so no division by zero and no NaN: the ray is in
** the slab for all t or for none.
**
** Touching is decided by the band of obb_touch.h, sized by the box and the
** ray's origin: an origin within the band is inside, and a ray that passes
** within it of the box (grazing a face, an edge or a corner) hits, since it
** hits the box grown by the band. The time reported is the entry into the
** box itself, exact as before, when the ray reaches it; only a ray that
** passes within the band without reaching it reports its entry into the
** grown box. A segment takes the larger band of its two ends.
**
** Two guards keep the answer right for every finite input. The ray must
** first meet the box's bounds (obb_bounds.h), the test a world makes before
** the exact one, so a box and a world holding it agree on every ray. And a
** direction too large to take dot products of (components near DBL_MAX) is
** scaled by a power of two first, the parameter t scaled back after: exact.
*/
#include "obb.h"
#include "obb_bounds.h"
#include "obb_query.h"
#include "obb_touch.h"

/* The slab test on local origin lo, outside the box, and local direction
** ld (n axes) against half extents e. Returns OBB_RAY_MISS or OBB_RAY_HIT
** with the entry time and the entered face: axis *axis, side *sign (+1
** the positive face). */
static int slab_entry(int n, const double *lo, const double *ld,
                      const double *e, double max_t, double *t, int *axis,
                      double *sign) {
  double tin = -HUGE_VAL, tout = HUGE_VAL;
  int i, k = -1;
  for (i = 0; i < n; i++) {
    if (ld[i] == 0.0) {
      if (fabs(lo[i]) > e[i]) return OBB_RAY_MISS;
    } else {
      /* entering through the face the direction points against */
      double near_face = ld[i] > 0.0 ? -e[i] : e[i];
      double t1 = (near_face - lo[i]) / ld[i];
      double t2 = (-near_face - lo[i]) / ld[i];
      if (t1 > tin) { tin = t1; k = i; }
      if (t2 < tout) tout = t2;
    }
  }
  /* The origin is outside, so some slab excludes it: either its whole
  ** interval lies behind the origin (tout < 0) or the entry is ahead. */
  /* The origin is outside the box grown by the band, so the entry is ahead
  ** of it: a quotient that underflowed to 0 is the least time after it (a
  ** zero-length cast from a point contains rejects must miss). */
  if (!(tin > 0.0)) tin = 0x1p-1074;
  if (k < 0 || tin > tout || tout < 0.0 || !(tin <= max_t) ||
      !obb_finite(tin))
    return OBB_RAY_MISS;
  *t = tin;
  *axis = k;
  *sign = ld[k] > 0.0 ? -1.0 : 1.0;
  return OBB_RAY_HIT;
}

/* The cast against half extents e, grown by band to g: inside when the
** origin is in the grown box (the one point-in-box test, so exactly when
** contains accepts it), else the entry into the box, else the entry into
** the grown box (a grazing hit). */
static int slab_cast(int n, const double *lo, const double *ld,
                     const double *e, const double *g, double max_t,
                     double *t, int *axis, double *sign) {
  int r;
  if (obb_inside(n, lo, g, 0.0)) return OBB_RAY_INSIDE;
  r = slab_entry(n, lo, ld, e, max_t, t, axis, sign);
  if (r == OBB_RAY_MISS) r = slab_entry(n, lo, ld, g, max_t, t, axis, sign);
  return r;
}

/* The power of two to scale a direction by so that its dot products
** cannot overflow (0 for every direction below 2^1000). */
static int direction_scale(const double *d, int n) {
  double m = 0;
  int i, ex = 0;
  for (i = 0; i < n; i++)
    if (fabs(d[i]) > m) m = fabs(d[i]);
  if (m < 0x1p1000) return 0;
  frexp(m, &ex);
  return ex;
}

int obb2_raycast(const obb2 *b, const double o[2], const double d[2],
                 double max_t, double *t, double n[2]) {
  double lo[2], ld[2], ds[2], bounds[6], sign = 0.0, tt = 0.0, g[2];
  double o3[3], d3[3];
  int axis = 0, r, k;
  obb2_bounds(b, bounds);
  o3[0] = o[0]; o3[1] = o[1]; o3[2] = 0;
  d3[0] = d[0]; d3[1] = d[1]; d3[2] = 0;
  if (!obb_box_ray(bounds, o3, d3, max_t)) return OBB_RAY_MISS;
  k = direction_scale(d, 2);
  ds[0] = ldexp(d[0], -k); ds[1] = ldexp(d[1], -k);
  obb2_local(b->c, b->u, o[0], o[1], lo);
  ld[0] = ds[0] * b->u[0] + ds[1] * b->u[1];
  ld[1] = ds[1] * b->u[0] - ds[0] * b->u[1];
  obb_grow(2, b->e, obb2_point_band(b, o, 0.0), g);
  r = slab_cast(2, lo, ld, b->e, g, ldexp(max_t, k), &tt, &axis, &sign);
  if (r == OBB_RAY_HIT) {
    *t = ldexp(tt, -k);
    if (axis == 0) {
      n[0] = sign * b->u[0]; n[1] = sign * b->u[1];
    } else {
      n[0] = -sign * b->u[1]; n[1] = sign * b->u[0];
    }
    n[0] += 0.0; n[1] += 0.0; /* no -0.0 in results */
  } else if (r == OBB_RAY_INSIDE) {
    *t = 0.0; n[0] = n[1] = 0.0;
  }
  return r;
}

int obb3_raycast(const obb3 *b, const double o[3], const double d[3],
                 double max_t, double *t, double n[3]) {
  double lo[3], ld[3], ds[3], bounds[6], sign = 0.0, tt = 0.0, g[3];
  int axis = 0, r, i, k;
  obb3_bounds(b, bounds);
  if (!obb_box_ray(bounds, o, d, max_t)) return OBB_RAY_MISS;
  k = direction_scale(d, 3);
  for (i = 0; i < 3; i++) ds[i] = ldexp(d[i], -k);
  obb3_local(b->c, b->u, o, lo);
  for (i = 0; i < 3; i++) ld[i] = obb_dot3(ds, b->u[i]);
  obb_grow(3, b->e, obb3_point_band(b, o, 0.0), g);
  r = slab_cast(3, lo, ld, b->e, g, ldexp(max_t, k), &tt, &axis, &sign);
  if (r == OBB_RAY_HIT) {
    *t = ldexp(tt, -k);
    for (i = 0; i < 3; i++) n[i] = sign * b->u[axis][i] + 0.0;
  } else if (r == OBB_RAY_INSIDE) {
    *t = 0.0; n[0] = n[1] = n[2] = 0.0;
  }
  return r;
}

int obb2_intersects_segment(const obb2 *b, const double p[2],
                            const double q[2]) {
  double lp[2], lq[2], ld[2], g[2], lo = 0.0, hi = 1.0;
  obb2_local(b->c, b->u, p[0], p[1], lp);
  obb2_local(b->c, b->u, q[0], q[1], lq);
  obb_grow(2, b->e,
           fmax(obb2_point_band(b, p, 0.0), obb2_point_band(b, q, 0.0)), g);
  /* An endpoint inside is a hit whatever the clip rounds to (p == q is
  ** then exactly contains). */
  if (obb_inside(2, lp, g, 0.0) || obb_inside(2, lq, g, 0.0)) return 1;
  ld[0] = lq[0] - lp[0]; ld[1] = lq[1] - lp[1];
  return obb_clip_slabs(2, lp, ld, g, &lo, &hi);
}

int obb3_intersects_segment(const obb3 *b, const double p[3],
                            const double q[3]) {
  double lp[3], lq[3], ld[3], g[3], lo = 0.0, hi = 1.0;
  int i;
  obb3_local(b->c, b->u, p, lp);
  obb3_local(b->c, b->u, q, lq);
  obb_grow(3, b->e,
           fmax(obb3_point_band(b, p, 0.0), obb3_point_band(b, q, 0.0)), g);
  if (obb_inside(3, lp, g, 0.0) || obb_inside(3, lq, g, 0.0)) return 1;
  for (i = 0; i < 3; i++) ld[i] = lq[i] - lp[i];
  return obb_clip_slabs(3, lp, ld, g, &lo, &hi);
}
