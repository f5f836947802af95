/*
** obb_prims.c: boxes against the other shapes game scripts pair them with
** (circles, spheres, planes), and containment classification of two boxes.
** All closed: touching, within the band of obb_touch.h, counts.
*/
#include "obb.h"
#include "obb_query.h"
#include "obb_touch.h"

int obb2_classify(const obb2 *a, const obb2 *b) {
  if (obb2_contains_box(a, b)) return OBB_CONTAINS;
  return obb2_intersects(a, b) ? OBB_INTERSECTS : OBB_DISJOINT;
}

int obb3_classify(const obb3 *a, const obb3 *b) {
  if (obb3_contains_box(a, b)) return OBB_CONTAINS;
  return obb3_intersects(a, b) ? OBB_INTERSECTS : OBB_DISJOINT;
}

/* Whether the excess (x, y, z) is within r. Squared lengths, no square
** root, while both squares are safely inside the range of doubles: a
** circle exactly touching a face compares equal. Beyond, a square could
** underflow to 0 (an excess of 1e-310 and r = 0 compared equal, a circle
** of radius 0 outside the box meeting it) or overflow: then the lengths,
** scaled (obb_len3). */
static int within(double x, double y, double z, double r) {
  double s = x * x + y * y + z * z, rr = r * r;
  if (!(r > 0.0)) return 0; /* a point outside: exactly contains */
  if (s > 1e-290 && s < 1e290 && rr > 1e-290 && rr < 1e290) return s <= rr;
  return obb_len3(x, y, z) <= r;
}

/* The disc meets the box iff the closest point to its center of the box
** grown by the band is within r: with r = 0, exactly contains(point). */
int obb2_intersects_circle(const obb2 *b, const double c[2], double r) {
  double l[2], g[2];
  obb2_local(b->c, b->u, c[0], c[1], l);
  obb_grow(2, b->e, obb2_point_band(b, c, r), g);
  if (obb_inside(2, l, g, 0.0)) return 1;
  return within(obb_excess(l[0], g[0]), obb_excess(l[1], g[1]), 0.0, r);
}

int obb3_intersects_sphere(const obb3 *b, const double c[3], double r) {
  double l[3], g[3];
  obb3_local(b->c, b->u, c, l);
  obb_grow(3, b->e, obb3_point_band(b, c, r), g);
  if (obb_inside(3, l, g, 0.0)) return 1;
  return within(obb_excess(l[0], g[0]), obb_excess(l[1], g[1]),
                obb_excess(l[2], g[2]), r);
}

/* The box spans n.c +- rad along n, rad = sum e_i |n.u_i| (its projection
** radius); compared with d, both scaled by |n|, so n need not be unit.
** The band's size is |s| + rad, its coordinates the terms of n.c and d
** (all scaled by |n| too). */
int obb3_plane_side(const obb3 *b, const double n[3], double d) {
  double s = obb_dot3(n, b->c) - d;
  double rad = b->e[0] * fabs(obb_dot3(n, b->u[0])) +
               b->e[1] * fabs(obb_dot3(n, b->u[1])) +
               b->e[2] * fabs(obb_dot3(n, b->u[2]));
  double m = obb_max3(fabs(n[0] * b->c[0]), fabs(n[1] * b->c[1]),
                      fabs(n[2] * b->c[2]));
  double band = obb_band(fabs(s) + rad, m > fabs(d) ? m : fabs(d));
  if (s > rad + band) return 1;
  if (s < -(rad + band)) return -1;
  return 0;
}
