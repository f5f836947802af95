/*
** obb_tightfit2.c: the minimum-area rectangle enclosing a 2D point set.
**
** The direction comes from obb_minrect2 (exact hull, rotating calipers);
** the box is then measured on every input point with obb2_local, the same
** arithmetic obb2_contains_point uses, so each point is contained exactly.
*/
#include "obb.h"
#include "obb_hull2.h"
#include "obb_math.h"

obb_status obb2_fit_points_tight(obb2 *b, const double *xy, size_t n,
                                 double *scratch) {
  double u[2], ext[2], lo[2] = {HUGE_VAL, HUGE_VAL};
  double hi[2] = {-HUGE_VAL, -HUGE_VAL}, e[2] = {0, 0}, mid[2], c[2];
  double r[2], blo[2] = {HUGE_VAL, HUGE_VAL}, bhi[2] = {-HUGE_VAL, -HUGE_VAL};
  size_t i;
  if (n == 0) return OBB_EEMPTY;
  for (i = 0; i < 2 * n; i++)
    if (!obb_finite(xy[i])) return OBB_ENOTFINITE;
  for (i = 0; i < 2 * n; i++) {
    blo[i % 2] = fmin(blo[i % 2], xy[i]);
    bhi[i % 2] = fmax(bhi[i % 2], xy[i]);
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
  for (i = 0; i < n; i++) {
    double l[2];
    obb2_local(r, u, xy[2 * i], xy[2 * i + 1], l);
    lo[0] = fmin(lo[0], l[0]); hi[0] = fmax(hi[0], l[0]);
    lo[1] = fmin(lo[1], l[1]); hi[1] = fmax(hi[1], l[1]);
  }
  mid[0] = 0.5 * (lo[0] + hi[0]);
  mid[1] = 0.5 * (lo[1] + hi[1]);
  c[0] = r[0] + mid[0] * u[0] - mid[1] * u[1];
  c[1] = r[1] + mid[0] * u[1] + mid[1] * u[0];
  for (i = 0; i < n; i++) {
    double l[2];
    obb2_local(c, u, xy[2 * i], xy[2 * i + 1], l);
    e[0] = fmax(e[0], fabs(l[0]));
    e[1] = fmax(e[1], fabs(l[1]));
  }
  if (!obb_finite(c[0]) || !obb_finite(c[1]) || !obb_finite(e[0]) ||
      !obb_finite(e[1]))
    return OBB_ENOTFINITE;
  b->c[0] = c[0]; b->c[1] = c[1];
  b->u[0] = u[0]; b->u[1] = u[1];
  b->e[0] = e[0]; b->e[1] = e[1];
  return OBB_OK;
}
