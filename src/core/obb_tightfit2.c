/*
** obb_tightfit2.c: the minimum-area rectangle enclosing a 2D point set.
**
** The direction comes from obb_minrect2 (exact hull, rotating calipers);
** the box is then measured on every input point with obb2_local, the same
** arithmetic obb2_contains_point uses, so each point is contained exactly.
*/
#include "obb.h"
#include "obb_fit.h"
#include "obb_hull2.h"
#include "obb_math.h"

obb_status obb2_fit_points_tight(obb2 *b, const double *xy, size_t n,
                                 double *scratch) {
  double u[2], ext[2], r[2];
  double blo[2] = {HUGE_VAL, HUGE_VAL}, bhi[2] = {-HUGE_VAL, -HUGE_VAL};
  size_t i;
  obb_status st = obb_check_points(xy, n, 2);
  if (st != OBB_OK) return st;
  for (i = 0; i < 2 * n; i++) {
    blo[i % 2] = obb_fmin(blo[i % 2], xy[i]);
    bhi[i % 2] = obb_fmax(bhi[i % 2], xy[i]);
  }
  /* Measuring from the middle of the bounding box keeps the offsets small
  ** and, halving before adding, cannot overflow. */
  r[0] = 0.5 * blo[0] + 0.5 * bhi[0];
  r[1] = 0.5 * blo[1] + 0.5 * bhi[1];
  obb_minrect2(xy, n, scratch, u, ext);
  /* Canonical frame: axis 0 along the longer side, pointing to +x (or +y
  ** when vertical), as the covariance fit puts its major axis first. */
  if (ext[1] > ext[0]) {
    double t = u[0];
    u[0] = -u[1];
    u[1] = t;
  }
  if (u[0] < 0.0 || (u[0] == 0.0 && u[1] < 0.0)) {
    u[0] = -u[0];
    u[1] = -u[1];
  }
  return obb2_enclose_points(b, xy, n, r, u);
}
