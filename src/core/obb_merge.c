/*
** obb_merge.c: one box enclosing two (for bounding-volume hierarchies and
** for grouping objects).
**
** After Eberly's MergeBoxes (Geometric Tools): choose an orientation, then
** project the corners of both boxes on its axes; the box spanning the
** projections encloses both. The averaged orientation is one candidate;
** a's and b's own orientations and one along the line between the centers
** are the others, and the smallest wins: merging a box with one inside it
** gives back the outer box, and two far-apart small boxes get a box along
** the line joining them.
**
** A box's frame is only defined up to relabelling its axes (4 ways in 2D,
** 24 in 3D): averaging a frame with one turned a quarter turn would give a
** needless 45 degree tilt, so b's frame is first relabelled to the
** equivalent frame nearest a's.
*/
#include "obb.h"
#include "obb_query.h"

/* Grows the extents of m until it contains both a and b by the library's
** own test: the projected corners are exact in real arithmetic, the test
** rounds a little differently, and enclosure must hold as tested. */
#define GROW_STEPS 64

/* ---- 2D -------------------------------------------------------------- */

/* The point the corners are measured from: a's center, which keeps large
** coordinates accurate, unless the centers are so far apart (near
** +-DBL_MAX) that their difference overflows; then the midpoint of the
** centers, from which every corner of a representable result is within
** range. */
static void reference(int n, const double *ca, const double *cb,
                      double *ref) {
  int i, far = 0;
  for (i = 0; i < n; i++) far |= !obb_finite(cb[i] - ca[i]);
  for (i = 0; i < n; i++) ref[i] = far ? 0.5 * ca[i] + 0.5 * cb[i] : ca[i];
}

/* The box with axis u spanning the corners of a and b (measured from
** ref). */
static void span2(const obb2 *a, const obb2 *b, const double ref[2],
                  const double u[2], obb2 *out) {
  double v[16], lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
  int k, i;
  obb2_corners(a, v);
  obb2_corners(b, v + 8);
  for (k = 0; k < 8; k++) {
    double l[2];
    obb2_local(ref, u, v[2 * k], v[2 * k + 1], l);
    for (i = 0; i < 2; i++) {
      if (l[i] < lo[i]) lo[i] = l[i];
      if (l[i] > hi[i]) hi[i] = l[i];
    }
  }
  out->u[0] = u[0]; out->u[1] = u[1];
  for (i = 0; i < 2; i++) {
    double mid = 0.5 * lo[i] + 0.5 * hi[i];
    out->e[i] = obb_fmax(hi[i] - mid, mid - lo[i]);
    lo[i] = mid; /* reuse as the local center */
  }
  out->c[0] = ref[0] + lo[0] * u[0] - lo[1] * u[1];
  out->c[1] = ref[1] + lo[0] * u[1] + lo[1] * u[0];
}

static void enclose2(const obb2 *a, const obb2 *b, obb2 *m) {
  double scale = fabs(m->c[0]) + fabs(m->c[1]) + m->e[0] + m->e[1];
  double grow = 4 * DBL_EPSILON * scale;
  int step;
  for (step = 0; step < GROW_STEPS; step++) {
    if (obb2_contains_box(m, a) && obb2_contains_box(m, b)) return;
    m->e[0] += grow; m->e[1] += grow;
    grow *= 2;
  }
}

/* Smaller area wins; equal areas (flat boxes) compare by half perimeter. */
static int smaller2(const obb2 *x, const obb2 *y) {
  double ax = x->e[0] * x->e[1], ay = y->e[0] * y->e[1];
  if (ax != ay) return ax < ay;
  return x->e[0] + x->e[1] < y->e[0] + y->e[1];
}

/* Spans both boxes in frame u and keeps the result in *best when it is
** the first finite candidate (*have == 0) or a smaller one. A candidate
** whose numbers overflowed is dropped: another frame may still fit. */
static void try2(const obb2 *a, const obb2 *b, const double ref[2],
                 const double u[2], obb2 *best, int *have) {
  obb2 cand;
  span2(a, b, ref, u, &cand);
  if (!obb_all_finite(cand.c, 2) || !obb_all_finite(cand.e, 2)) return;
  enclose2(a, b, &cand);
  if (!obb_all_finite(cand.e, 2)) return;
  if (!*have || smaller2(&cand, best)) *best = cand;
  *have = 1;
}

obb_status obb2_merge(const obb2 *a, const obb2 *b, obb2 *out) {
  double ub[2] = {0, 0}, v[2], ref[2], best_dot = -HUGE_VAL;
  obb2 best;
  int k, have = 0;
  reference(2, a->c, b->c, ref);
  /* b's axis turned by k quarter turns, the one nearest a's axis */
  for (k = 0; k < 4; k++) {
    double x = b->u[0], y = b->u[1], t, dot;
    int j;
    for (j = 0; j < k; j++) { t = x; x = -y; y = t; }
    dot = x * a->u[0] + y * a->u[1];
    if (dot > best_dot) { best_dot = dot; ub[0] = x; ub[1] = y; }
  }
  try2(a, b, ref, a->u, &best, &have);
  try2(a, b, ref, b->u, &best, &have);
  v[0] = a->u[0] + ub[0];
  v[1] = a->u[1] + ub[1];
  if (obb_normalize2(v)) /* the two are at most 45 degrees apart */
    try2(a, b, ref, v, &best, &have);
  for (k = 0; k < 2; k++) { /* halved, should the difference overflow */
    v[k] = b->c[k] - a->c[k];
    if (!obb_finite(v[k])) v[k] = 0.5 * b->c[k] - 0.5 * a->c[k];
  }
  if (obb_normalize2(v)) try2(a, b, ref, v, &best, &have);
  if (!have) return OBB_ENOTFINITE;
  *out = best;
  return OBB_OK;
}

/* ---- 3D -------------------------------------------------------------- */

static void span3(const obb3 *a, const obb3 *b, const double ref[3],
                  const double u[3][3], obb3 *out) {
  double v[48], lo[3], hi[3], mid[3];
  int k, i;
  for (i = 0; i < 3; i++) { lo[i] = HUGE_VAL; hi[i] = -HUGE_VAL; }
  obb3_corners(a, v);
  obb3_corners(b, v + 24);
  for (k = 0; k < 16; k++) {
    double l[3];
    obb3_local(ref, u, v + 3 * k, l);
    for (i = 0; i < 3; i++) {
      if (l[i] < lo[i]) lo[i] = l[i];
      if (l[i] > hi[i]) hi[i] = l[i];
    }
  }
  for (i = 0; i < 3; i++) {
    mid[i] = 0.5 * lo[i] + 0.5 * hi[i];
    out->e[i] = obb_fmax(hi[i] - mid[i], mid[i] - lo[i]);
    out->u[i][0] = u[i][0]; out->u[i][1] = u[i][1]; out->u[i][2] = u[i][2];
  }
  for (i = 0; i < 3; i++)
    out->c[i] = ref[i] + mid[0] * u[0][i] + mid[1] * u[1][i] +
                mid[2] * u[2][i];
}

static void enclose3(const obb3 *a, const obb3 *b, obb3 *m) {
  double scale = fabs(m->c[0]) + fabs(m->c[1]) + fabs(m->c[2]) + m->e[0] +
                 m->e[1] + m->e[2];
  double grow = 4 * DBL_EPSILON * scale;
  int step;
  for (step = 0; step < GROW_STEPS; step++) {
    if (obb3_contains_box(m, a) && obb3_contains_box(m, b)) return;
    m->e[0] += grow; m->e[1] += grow; m->e[2] += grow;
    grow *= 2;
  }
}

static int smaller3(const obb3 *x, const obb3 *y) {
  const double *p = x->e, *q = y->e;
  double vx = p[0] * p[1] * p[2], vy = q[0] * q[1] * q[2];
  double sx = p[0] * p[1] + p[1] * p[2] + p[0] * p[2];
  double sy = q[0] * q[1] + q[1] * q[2] + q[0] * q[2];
  if (vx != vy) return vx < vy;
  if (sx != sy) return sx < sy;
  return p[0] + p[1] + p[2] < q[0] + q[1] + q[2];
}

/* The relabelling of b's axes (a signed permutation with determinant +1,
** so still right-handed) that best matches a's: the largest trace of
** a^T b'. */
static void nearest_frame3(const obb3 *a, const obb3 *b, double out[3][3]) {
  static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                 {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  double best = -HUGE_VAL;
  int p, i, j;
  for (p = 0; p < 6; p++) {
    double m[3], s[3], score = 0.0, parity = p < 3 ? 1.0 : -1.0;
    int weakest = 0;
    for (i = 0; i < 3; i++) {
      m[i] = obb_dot3(a->u[i], b->u[perm[p][i]]);
      s[i] = m[i] < 0.0 ? -1.0 : 1.0;
      if (fabs(m[i]) < fabs(m[weakest])) weakest = i;
    }
    if (parity * s[0] * s[1] * s[2] < 0.0) s[weakest] = -s[weakest];
    for (i = 0; i < 3; i++) score += s[i] * m[i];
    if (score > best) {
      best = score;
      for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) out[i][j] = s[i] * b->u[perm[p][i]][j];
    }
  }
}

static void try3(const obb3 *a, const obb3 *b, const double ref[3],
                 double u[3][3], obb3 *best, int *have) {
  obb3 cand;
  span3(a, b, ref, (const double(*)[3])u, &cand);
  if (!obb_all_finite(cand.c, 3) || !obb_all_finite(cand.e, 3)) return;
  enclose3(a, b, &cand);
  if (!obb_all_finite(cand.e, 3)) return; /* as try2 */
  if (!*have || smaller3(&cand, best)) *best = cand;
  *have = 1;
}

obb_status obb3_merge(const obb3 *a, const obb3 *b, obb3 *out) {
  double qa[4], qb[4], q[4], u[3][3], w[3], ref[3];
  obb3 best, nb;
  int i, j, have = 0;
  reference(3, a->c, b->c, ref);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) u[i][j] = a->u[i][j];
  try3(a, b, ref, u, &best, &have);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) u[i][j] = b->u[i][j];
  try3(a, b, ref, u, &best, &have);
  /* the average of a's rotation and b's relabelled one */
  nb = *b;
  nearest_frame3(a, b, nb.u);
  obb3_rotation(a, qa);
  obb3_rotation(&nb, qb);
  if (qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3] < 0.0)
    for (i = 0; i < 4; i++) qb[i] = -qb[i];
  for (i = 0; i < 4; i++) q[i] = qa[i] + qb[i];
  nb = *a; /* keeps a's frame if the sum were to vanish */
  obb3_set_rotation(&nb, q);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) u[i][j] = nb.u[i][j];
  try3(a, b, ref, u, &best, &have);
  /* the line of centers, completed by the averaged axis most across it
  ** (their difference halved, should it overflow) */
  for (i = 0; i < 3; i++) {
    w[i] = b->c[i] - a->c[i];
    if (!obb_finite(w[i])) w[i] = 0.5 * b->c[i] - 0.5 * a->c[i];
  }
  if (obb_normalize3(w)) {
    int k = 0;
    double dk = HUGE_VAL;
    for (i = 0; i < 3; i++) {
      double d = fabs(obb_dot3(w, nb.u[i]));
      if (d < dk) { dk = d; k = i; }
    }
    dk = obb_dot3(w, nb.u[k]);
    for (i = 0; i < 3; i++) {
      u[0][i] = w[i];
      u[1][i] = nb.u[k][i] - dk * w[i];
    }
    if (obb_normalize3(u[1])) {
      obb_cross3(u[0], u[1], u[2]);
      obb_normalize3(u[2]);
      try3(a, b, ref, u, &best, &have);
    }
  }
  if (!have) return OBB_ENOTFINITE;
  *out = best;
  return OBB_OK;
}
