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
** Touching is decided by the band of obb_touch.h: an origin within its
** band (sized by the box and the origin) is inside, exactly when contains
** accepts it. A cast that passes near the box without entering it hits
** when one of its points is within that point's own band of the box: the
** band of the part of the cast near the box, found by refine_band, not
** the band of a far origin (which from 1e17 away is 91,000 units). So a
** segment and a point box swept along it agree. The time reported is the
** entry into the box itself, exact as before, when the ray reaches it;
** only a ray that passes within the band without reaching it reports its
** entry into the box grown by that band.
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

/* How many times a grazing cast's band is narrowed (refine_band). Each
** pass divides it by about the ratio of the cast's reach to the box's
** size; two passes bring a band sized by an origin 1e17 away down to the
** box's own, the rest are spare. */
#define BAND_PASSES 6

/* A cast (ray or segment) in a box's local frame, for refine_band: the
** local start lo and direction ld, parameters s in [0, max_s]; and the same
** cast in world coordinates (p + s * w, or for a segment (1 - s) p + s q),
** where the bands are measured. */
typedef struct cast {
  int n, segment;
  const double *lo, *ld, *e; /* local start, direction, box half extents */
  const double *c;           /* box center (world) */
  const double *p, *w;       /* world start, direction (ray) or end (segment) */
  double max_s;
} cast;

/* Does the cast meet the box grown by band? The parameters where it is in
** that box, clipped to [0, max_s], in *s0, *s1. */
static int cast_clip(const cast *k, double band, double *s0, double *s1) {
  double g[3], lo = 0.0, hi = k->max_s;
  obb_grow(k->n, k->e, band, g);
  if (!obb_clip_slabs(k->n, k->lo, k->ld, g, &lo, &hi)) return 0;
  *s0 = lo;
  *s1 = hi;
  return 1;
}

/* The band of the cast's world point at parameter s. */
static double cast_band_at(const cast *k, double s) {
  double q[3];
  int i;
  for (i = 0; i < k->n; i++)
    q[i] = k->segment ? (1.0 - s) * k->p[i] + s * k->w[i]
                      : k->p[i] + s * k->w[i];
  return obb_point_band(k->n, k->c, k->e, q, 0.0);
}

/* The band of a cast that passes near the box without entering it.
** Sized by the cast's ends, the band grows with their distance from the
** box: from 1e17 away it is 91,000 units, far more than any point of the
** cast near the box is uncertain by. A cast touches the box when one of
** its points p(s) is within that point's own band (the band contains and
** a swept point box use). The band is convex along the cast, so every
** such point lies where the cast crosses the box grown by the larger band
** of that crossing's ends. So: cross the box grown by the current band
** (s in [s0, s1]), take the larger band of p(s0) and p(s1), which is never
** more, and repeat while it shrinks. A cast within its own band at its
** nearest approach is never lost (its band there is at most the current
** one, by convexity); one that passes further off is no longer caught by
** the band of a far end. Returns the band, or -1 when the cast misses the
** box grown by it. */
static double refine_band(const cast *k, double band) {
  int pass;
  double s0, s1;
  for (pass = 0; pass < BAND_PASSES; pass++) {
    double nb;
    if (!cast_clip(k, band, &s0, &s1)) return -1.0;
    nb = obb_fmax(cast_band_at(k, s0), cast_band_at(k, s1));
    if (!(nb < band)) return band; /* no narrower (or NaN): this one */
    band = nb;
  }
  return cast_clip(k, band, &s0, &s1) ? band : -1.0;
}

/* The cast of a ray (local lo, ld; world o, scaled direction ds; scaled
** max_t ms) against half extents e: inside when the origin is in the box
** grown by the origin's band (the one point-in-box test, so exactly when
** contains accepts it), else the entry into the box, else the entry into
** the box grown by the band refine_band settles on (a grazing hit), which
** starts from the larger band of the ray's ends (its origin's alone when
** max_t is infinite). */
static int ray_cast(int n, const double *c, const double *e,
                    const double *lo, const double *ld, const double *o,
                    const double *ds, double ms, double *t, int *axis,
                    double *sign) {
  double g[3], band = obb_point_band(n, c, e, o, 0.0), far[3];
  int r, i;
  cast k;
  obb_grow(n, e, band, g);
  if (obb_inside(n, lo, g, 0.0)) return OBB_RAY_INSIDE;
  r = slab_entry(n, lo, ld, e, ms, t, axis, sign);
  if (r != OBB_RAY_MISS) return r;
  if (ms < HUGE_VAL) {
    for (i = 0; i < n; i++) far[i] = o[i] + ms * ds[i];
    band = obb_fmax(band, obb_point_band(n, c, e, far, 0.0));
  }
  k.n = n; k.segment = 0;
  k.lo = lo; k.ld = ld; k.e = e; k.c = c; k.p = o; k.w = ds;
  k.max_s = ms;
  band = refine_band(&k, band);
  if (!(band >= 0.0)) return OBB_RAY_MISS;
  obb_grow(n, e, band, g);
  return slab_entry(n, lo, ld, g, ms, t, axis, sign);
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

/* Every output is written on every path: a hit gives the entry and the
** face's normal, inside gives t = 0 and a zero normal, a miss t = +inf and
** a zero normal. */
int obb2_raycast(const obb2 *b, const double o[2], const double d[2],
                 double max_t, double *t, double n[2]) {
  double lo[2], ld[2], ds[2], bounds[6], sign = 0.0, tt = 0.0;
  double o3[3], d3[3];
  int axis = 0, r = OBB_RAY_MISS, k;
  obb2_bounds(b, bounds);
  o3[0] = o[0]; o3[1] = o[1]; o3[2] = 0;
  d3[0] = d[0]; d3[1] = d[1]; d3[2] = 0;
  if (obb_box_ray(bounds, o3, d3, max_t)) {
    k = direction_scale(d, 2);
    ds[0] = ldexp(d[0], -k); ds[1] = ldexp(d[1], -k);
    obb2_local(b->c, b->u, o[0], o[1], lo);
    ld[0] = ds[0] * b->u[0] + ds[1] * b->u[1];
    ld[1] = ds[1] * b->u[0] - ds[0] * b->u[1];
    r = ray_cast(2, b->c, b->e, lo, ld, o, ds, ldexp(max_t, k), &tt, &axis,
                 &sign);
    if (r == OBB_RAY_HIT) tt = ldexp(tt, -k);
  }
  if (r == OBB_RAY_HIT) {
    *t = tt;
    if (axis == 0) {
      n[0] = sign * b->u[0]; n[1] = sign * b->u[1];
    } else {
      n[0] = -sign * b->u[1]; n[1] = sign * b->u[0];
    }
    n[0] += 0.0; n[1] += 0.0; /* no -0.0 in results */
  } else {
    *t = r == OBB_RAY_INSIDE ? 0.0 : HUGE_VAL;
    n[0] = n[1] = 0.0;
  }
  return r;
}

int obb3_raycast(const obb3 *b, const double o[3], const double d[3],
                 double max_t, double *t, double n[3]) {
  double lo[3], ld[3], ds[3], bounds[6], sign = 0.0, tt = 0.0;
  int axis = 0, r = OBB_RAY_MISS, i, k;
  obb3_bounds(b, bounds);
  if (obb_box_ray(bounds, o, d, max_t)) {
    k = direction_scale(d, 3);
    for (i = 0; i < 3; i++) ds[i] = ldexp(d[i], -k);
    obb3_local(b->c, b->u, o, lo);
    for (i = 0; i < 3; i++) ld[i] = obb_dot3(ds, b->u[i]);
    r = ray_cast(3, b->c, b->e, lo, ld, o, ds, ldexp(max_t, k), &tt, &axis,
                 &sign);
    if (r == OBB_RAY_HIT) tt = ldexp(tt, -k);
  }
  if (r == OBB_RAY_HIT) {
    *t = tt;
    for (i = 0; i < 3; i++) n[i] = sign * b->u[axis][i] + 0.0;
  } else {
    *t = r == OBB_RAY_INSIDE ? 0.0 : HUGE_VAL;
    n[0] = n[1] = n[2] = 0.0;
  }
  return r;
}

/* A segment meets the box when an end is in it (by that end's own band:
** exactly contains, so p == q is exactly contains(p)), or when it crosses
** the box grown by the band refine_band settles on, starting from the
** larger band of its two ends. It is cast from the end with the smaller
** band, the nearer one: the local direction lq - lp is rounded to the
** spacing of doubles at the farther end (16 units for an end 1e17 away),
** an error that then shrinks towards the near end instead of landing on
** it. */
static int segment_cast(int n, const double *c, const double *e,
                        const double *lp, const double *lq, const double *p,
                        const double *q) {
  double ld[3], bp = obb_point_band(n, c, e, p, 0.0);
  double bq = obb_point_band(n, c, e, q, 0.0);
  int i;
  cast k;
  if (obb_inside(n, lp, e, bp) || obb_inside(n, lq, e, bq)) return 1;
  if (bq < bp) { /* from q */
    const double *t = lp; lp = lq; lq = t;
    t = p; p = q; q = t;
  }
  for (i = 0; i < n; i++) ld[i] = lq[i] - lp[i];
  k.n = n; k.segment = 1;
  k.lo = lp; k.ld = ld; k.e = e; k.c = c; k.p = p; k.w = q;
  k.max_s = 1.0;
  return refine_band(&k, obb_fmax(bp, bq)) >= 0.0;
}

int obb2_intersects_segment(const obb2 *b, const double p[2],
                            const double q[2]) {
  double lp[2], lq[2];
  obb2_local(b->c, b->u, p[0], p[1], lp);
  obb2_local(b->c, b->u, q[0], q[1], lq);
  return segment_cast(2, b->c, b->e, lp, lq, p, q);
}

int obb3_intersects_segment(const obb3 *b, const double p[3],
                            const double q[3]) {
  double lp[3], lq[3];
  obb3_local(b->c, b->u, p, lp);
  obb3_local(b->c, b->u, q, lq);
  return segment_cast(3, b->c, b->e, lp, lq, p, q);
}
