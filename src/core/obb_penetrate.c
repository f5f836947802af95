/*
** obb_penetrate.c: the separating-axis candidates of a box pair and the
** minimum translation (penetration normal and depth).
**
** The penetration depth of two convex bodies is the distance from the
** origin to the boundary of their Minkowski difference, attained on one of
** its face normals; for boxes those are exactly the candidate axes of the
** separating-axis test, so the least overlap over them is exact (not an
** estimate), and its axis is the normal.
*/
#include "obb.h"
#include "obb_math.h"
#include "obb_exact.h"
#include "obb_sat.h"
#include "obb_touch.h"

/* Overlaps within this many ulps of the configuration's size count as
** equal when picking the least, so exact ties (a box centered on another,
** identical boxes) go to the lower axis id, not to rounding noise. */
#define TIE_ULPS 16
/* Overlaps below this many ulps of the configuration's size are left to
** obbN_intersects, so that penetration (and contacts, and sweeps) report
** nothing exactly when intersects is false: boxes apart by less than the
** touching band (obb_touch.h) intersect, at depth 0. */
#define UNSURE_ULPS 256
/* Squared length below which an edge cross product is recomputed
** accurately: its direction error is then at most about 1e-14. */
#define SHORT_CROSS 0.01

void obb2_sat_axes(const obb2 *a, const obb2 *b, obb_axes2 *ax) {
  obb2_sat_turn t;
  obb2_sat_axes_a(a, b, ax, &t);
  obb2_sat_axes_b(a, b, ax, &t);
}

void obb3_sat_axes(const obb3 *a, const obb3 *b, obb_axes3 *ax) {
  double d[3], AR[3][3];
  const double *ea = a->e, *eb = b->e;
  int i, j, k, n;
  for (k = 0; k < 3; k++) d[k] = b->c[k] - a->c[k];
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) AR[i][j] = obb_snap_abs(obb_dot3(a->u[i], b->u[j]));
  for (i = 0; i < 3; i++) {
    ax->id[i] = i;
    ax->r[i] = ea[i] + eb[0] * AR[i][0] + eb[1] * AR[i][1] + eb[2] * AR[i][2];
    ax->id[i + 3] = i + 3;
    ax->r[i + 3] = eb[i] + ea[0] * AR[0][i] + ea[1] * AR[1][i] +
                   ea[2] * AR[2][i];
    for (k = 0; k < 3; k++) {
      ax->L[i][k] = a->u[i][k];
      ax->L[i + 3][k] = b->u[i][k];
    }
  }
  n = 6;
  /* Edge axes in world space. The plain cross product of unit vectors is
  ** off by a few ulps absolute, fine while it is long; for nearly
  ** parallel edges (short products) each component is recomputed with one
  ** rounding, so the unit axis is still accurate and its overlap as exact
  ** as any other. */
  for (i = 0; i < 3; i++) {
    const double *p = a->u[i];
    for (j = 0; j < 3; j++) {
      const double *q = b->u[j];
      double *l = ax->L[n], r = 0, len2;
      obb_cross3(p, q, l);
      len2 = obb_dot3(l, l);
      if (len2 >= SHORT_CROSS) {
        double inv = 1 / sqrt(len2);
        l[0] *= inv; l[1] *= inv; l[2] *= inv;
      } else {
        l[0] = obb_diff_of_products(p[1], q[2], p[2], q[1]);
        l[1] = obb_diff_of_products(p[2], q[0], p[0], q[2]);
        l[2] = obb_diff_of_products(p[0], q[1], p[1], q[0]);
        if (!obb_normalize3(l)) continue; /* parallel: no axis */
      }
      /* a_i and b_j are perpendicular to l by construction: leave them
      ** out rather than add their rounding noise. */
      for (k = 0; k < 3; k++) {
        if (k != i) r += ea[k] * fabs(obb_dot3(a->u[k], l));
        if (k != j) r += eb[k] * fabs(obb_dot3(b->u[k], l));
      }
      ax->id[n] = OBB_AXIS_EDGE + 3 * i + j;
      ax->r[n] = r;
      n++;
    }
  }
  ax->n = n;
  for (k = 0; k < n; k++) ax->s[k] = obb_dot3(d, ax->L[k]);
  ax->scale = fabs(d[0]) + fabs(d[1]) + fabs(d[2]) + ea[0] + ea[1] + ea[2] +
              eb[0] + eb[1] + eb[2];
}

/* Index of the least overlap r - |s| over n axes (ties to the lower
** index); its overlap goes to *min. */
static int least_overlap(const double *s, const double *r, int n,
                         double scale, double *min) {
  double tie = TIE_ULPS * DBL_EPSILON * scale, best = r[0] - fabs(s[0]);
  int k, bk = 0;
  for (k = 1; k < n; k++) {
    double o = r[k] - fabs(s[k]);
    if (o < best - tie) {
      best = o;
      bk = k;
    }
  }
  *min = best;
  return bk;
}

/* Is the least overlap conclusive? 1 yes (overlap), -1 ask
** obbN_intersects, whose band decides touching. */
static int decide(double min, double scale) {
  return min > UNSURE_ULPS * DBL_EPSILON * scale ? 1 : -1;
}

int obb2_sat_min(const obb2 *a, const obb2 *b, const obb_axes2 *ax,
                 double n[2], double *depth) {
  double min;
  int k = least_overlap(ax->s, ax->r, 4, ax->scale, &min);
  int hit = decide(min, ax->scale);
  if (hit < 0) hit = obb2_intersects(a, b);
  if (!hit) return -1;
  /* b lies on the +L side of a (s >= 0), so a leaves along -L; s == 0
  ** (centers level on L) also gives -L. */
  n[0] = (ax->s[k] >= 0 ? -ax->L[k][0] : ax->L[k][0]) + 0.0;
  n[1] = (ax->s[k] >= 0 ? -ax->L[k][1] : ax->L[k][1]) + 0.0;
  *depth = obb_fmax(min, 0.0);
  return k;
}

int obb3_sat_min(const obb3 *a, const obb3 *b, const obb_axes3 *ax,
                 double n[3], double *depth) {
  double min;
  int k = least_overlap(ax->s, ax->r, ax->n, ax->scale, &min), i;
  int hit = decide(min, ax->scale);
  if (hit < 0) hit = obb3_intersects(a, b);
  if (!hit) return -1;
  for (i = 0; i < 3; i++)
    n[i] = (ax->s[k] >= 0 ? -ax->L[k][i] : ax->L[k][i]) + 0.0;
  *depth = obb_fmax(min, 0.0);
  return k;
}

/* Apart: a zero normal and depth, so that every output is written. */
int obb2_overlaps(const obb2 *a, const obb2 *b) {
  obb_axes2 ax;
  obb2_sat_axes(a, b, &ax);
  return obb_sat_deeper(ax.s, ax.r, 4, obb2_pair_band(a, b));
}

int obb3_overlaps(const obb3 *a, const obb3 *b) {
  obb_axes3 ax;
  obb3_sat_axes(a, b, &ax);
  return obb_sat_deeper(ax.s, ax.r, ax.n, obb3_pair_band(a, b));
}

int obb2_penetration(const obb2 *a, const obb2 *b, double n[2],
                     double *depth) {
  obb_axes2 ax;
  obb2_sat_axes(a, b, &ax);
  if (obb2_sat_min(a, b, &ax, n, depth) >= 0) return 1;
  n[0] = n[1] = 0.0;
  *depth = 0.0;
  return 0;
}

int obb3_penetration(const obb3 *a, const obb3 *b, double n[3],
                     double *depth) {
  obb_axes3 ax;
  obb3_sat_axes(a, b, &ax);
  if (obb3_sat_min(a, b, &ax, n, depth) >= 0) return 1;
  n[0] = n[1] = n[2] = 0.0;
  *depth = 0.0;
  return 0;
}
