/*
** obb3.c: oriented boxes in 3D. Construction, the 15-axis separating-axis
** test, containment, transform, corners and bounds.
**
** The separating-axis test comes in three builds that answer identically
** on every pair: the scalar reference; pairs of doubles (SSE2 or NEON,
** which every x86-64 and aarch64 has, so a default build gets them); and,
** on x86-64 processors that have it, four doubles (AVX2), chosen at run
** time. obb3_intersects picks the fastest one the machine offers.
*/
#include <string.h>

#include "obb.h"
#include "obb_exact.h"
#include "obb_math.h"
#include "obb_touch.h"

static obb_status check_extents3(const double e[3]) {
  if (!obb_all_finite(e, 3)) return OBB_ENOTFINITE;
  if (e[0] < 0.0 || e[1] < 0.0 || e[2] < 0.0) return OBB_ENEGATIVE;
  return OBB_OK;
}

/* The axes are the columns of the quaternion's rotation matrix. */
static obb_status axes_from_quat(const double q[4], double u[3][3]) {
  double n[4], x, y, z, w;
  if (!obb_all_finite(q, 4)) return OBB_ENOTFINITE;
  if (!obb_quat_unit(q, n)) return OBB_EZERO;
  x = n[0]; y = n[1]; z = n[2]; w = n[3];
  u[0][0] = 1 - 2 * (y * y + z * z);
  u[0][1] = 2 * (x * y + z * w);
  u[0][2] = 2 * (x * z - y * w);
  u[1][0] = 2 * (x * y - z * w);
  u[1][1] = 1 - 2 * (x * x + z * z);
  u[1][2] = 2 * (y * z + x * w);
  u[2][0] = 2 * (x * z + y * w);
  u[2][1] = 2 * (y * z - x * w);
  u[2][2] = 1 - 2 * (x * x + y * y);
  return OBB_OK;
}

obb_status obb3_init(obb3 *b, const double c[3], const double e[3],
                     const double q[4]) {
  double u[3][3];
  int i;
  obb_status s = check_extents3(e);
  if (s == OBB_OK && !obb_all_finite(c, 3)) s = OBB_ENOTFINITE;
  if (s == OBB_OK) s = axes_from_quat(q, u);
  if (s != OBB_OK) return s;
  for (i = 0; i < 3; i++) {
    b->c[i] = c[i];
    b->e[i] = e[i];
    b->u[i][0] = u[i][0]; b->u[i][1] = u[i][1]; b->u[i][2] = u[i][2];
  }
  return OBB_OK;
}

obb_status obb3_from_aabb(obb3 *b, const double min[3], const double max[3]) {
  int i;
  if (!obb_all_finite(min, 3) || !obb_all_finite(max, 3))
    return OBB_ENOTFINITE;
  for (i = 0; i < 3; i++)
    if (min[i] > max[i]) return OBB_ENEGATIVE;
  for (i = 0; i < 3; i++) {
    double c = min[i] * 0.5 + max[i] * 0.5;
    b->c[i] = c;
    b->e[i] = obb_fmax(max[i] - c, c - min[i]);
    b->u[i][0] = i == 0; b->u[i][1] = i == 1; b->u[i][2] = i == 2;
  }
  return OBB_OK;
}

obb_status obb3_from_axes(obb3 *b, const double c[3], const double e[3],
                          const double axes[3][3]) {
  double u[3][3], len[3], t[3];
  int i, j;
  obb_status s = check_extents3(e);
  if (s != OBB_OK) return s;
  if (!obb_all_finite(c, 3)) return OBB_ENOTFINITE;
  for (i = 0; i < 3; i++)
    if (!obb_all_finite(axes[i], 3)) return OBB_ENOTFINITE;
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 3; j++) u[i][j] = axes[i][j];
    if (!obb_normalize3(u[i])) return OBB_EZERO;
    len[i] = sqrt(obb_dot3(axes[i], axes[i]));
    if (!(fabs(len[i] - 1.0) <= OBB_AXIS_TOLERANCE)) return OBB_ENOTORTHO;
  }
  if (fabs(obb_dot3(u[0], u[1])) > OBB_AXIS_TOLERANCE ||
      fabs(obb_dot3(u[0], u[2])) > OBB_AXIS_TOLERANCE ||
      fabs(obb_dot3(u[1], u[2])) > OBB_AXIS_TOLERANCE)
    return OBB_ENOTORTHO;
  /* Gram-Schmidt, then the third axis from the first two: right-handed. */
  t[0] = obb_dot3(u[1], u[0]);
  for (j = 0; j < 3; j++) u[1][j] -= t[0] * u[0][j];
  obb_normalize3(u[1]);
  obb_cross3(u[0], u[1], t);
  for (i = 0; i < 3; i++) {
    b->c[i] = c[i];
    b->e[i] = e[i];
    b->u[0][i] = u[0][i]; b->u[1][i] = u[1][i]; b->u[2][i] = t[i];
  }
  return OBB_OK;
}

int obb3_is_valid(const obb3 *b) {
  double w[3];
  int i, j;
  if (!obb_all_finite(b->c, 3) || check_extents3(b->e) != OBB_OK) return 0;
  for (i = 0; i < 3; i++) {
    if (!obb_all_finite(b->u[i], 3)) return 0;
    for (j = i; j < 3; j++) {
      double d = obb_dot3(b->u[i], b->u[j]) - (i == j);
      if (fabs(d) > 64 * DBL_EPSILON) return 0;
    }
  }
  obb_cross3(b->u[0], b->u[1], w);
  return obb_dot3(w, b->u[2]) > 0.0;
}

obb_status obb3_set_rotation(obb3 *b, const double q[4]) {
  double u[3][3];
  int i;
  obb_status s = axes_from_quat(q, u);
  if (s != OBB_OK) return s;
  for (i = 0; i < 3; i++) {
    b->u[i][0] = u[i][0]; b->u[i][1] = u[i][1]; b->u[i][2] = u[i][2];
  }
  return OBB_OK;
}

/* Shepperd's method: divide by the largest of the four squared
** components so the result stays accurate for every rotation. */
obb_status obb3_translate(obb3 *b, const double d[3]) {
  double c[3];
  int i;
  for (i = 0; i < 3; i++) c[i] = b->c[i] + d[i];
  if (!obb_all_finite(c, 3)) return OBB_ENOTFINITE;
  for (i = 0; i < 3; i++) b->c[i] = c[i];
  return OBB_OK;
}

/* The turn R is applied after the box's own rotation; the product goes
** back through a quaternion, which re-orthonormalises it, so that many
** small turns do not drift. */
obb_status obb3_rotate(obb3 *b, const double q[4]) {
  obb3 r;
  double u[3][3], p[4];
  int i, j;
  obb_status s = obb3_set_rotation(&r, q);
  if (s != OBB_OK) return s;
  for (i = 0; i < 3; i++) /* new axis i = R * u_i; R's columns are r.u */
    for (j = 0; j < 3; j++)
      u[i][j] = r.u[0][j] * b->u[i][0] + r.u[1][j] * b->u[i][1] +
                r.u[2][j] * b->u[i][2];
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) r.u[i][j] = u[i][j];
  obb3_rotation(&r, p);
  return obb3_set_rotation(b, p);
}

void obb3_rotation(const obb3 *b, double q[4]) {
  /* m[r][c] = u[c][r]: the axes are the matrix's columns. */
  double m00 = b->u[0][0], m11 = b->u[1][1], m22 = b->u[2][2];
  double m01 = b->u[1][0], m10 = b->u[0][1], m02 = b->u[2][0];
  double m20 = b->u[0][2], m12 = b->u[2][1], m21 = b->u[1][2];
  double tr = m00 + m11 + m22, s, n;
  int i;
  if (tr >= m00 && tr >= m11 && tr >= m22) {
    s = 2 * sqrt(obb_fmax(1 + tr, 0.0));
    q[3] = s / 4; q[0] = (m21 - m12) / s; q[1] = (m02 - m20) / s;
    q[2] = (m10 - m01) / s;
  } else if (m00 >= m11 && m00 >= m22) {
    s = 2 * sqrt(obb_fmax(1 + m00 - m11 - m22, 0.0));
    q[0] = s / 4; q[3] = (m21 - m12) / s; q[1] = (m01 + m10) / s;
    q[2] = (m02 + m20) / s;
  } else if (m11 >= m22) {
    s = 2 * sqrt(obb_fmax(1 + m11 - m00 - m22, 0.0));
    q[1] = s / 4; q[3] = (m02 - m20) / s; q[0] = (m01 + m10) / s;
    q[2] = (m12 + m21) / s;
  } else {
    s = 2 * sqrt(obb_fmax(1 + m22 - m00 - m11, 0.0));
    q[2] = s / 4; q[3] = (m10 - m01) / s; q[0] = (m02 + m20) / s;
    q[1] = (m12 + m21) / s;
  }
  n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (q[3] < 0) n = -n; /* q and -q are the same rotation: pick w >= 0 */
  for (i = 0; i < 4; i++) q[i] = q[i] / n + 0.0;
}

/* The slow, careful test, used only when the fast one cannot tell: each
** edge-edge axis is computed accurately in world space and normalised, so
** nearly parallel edges give a well-scaled axis (exactly parallel ones, a
** zero axis, are skipped: the face axes already cover that case). */
#if defined(__GNUC__)
/* out of line: inlined, its registers and stack would be saved and set up
** on every call of the fast test, not only on the rare unsure ones */
__attribute__((noinline))
#endif
static int intersects_precise(const obb3 *a, const obb3 *b, double band) {
  double d[3];
  int i, k;
  for (i = 0; i < 3; i++) d[i] = b->c[i] - a->c[i];
  /* Only the 9 edge-edge axes: the fast test has already found that no
  ** face axis separates, with the same snapped numbers that containment
  ** uses, and testing those again unsnapped could contradict it. */
  for (i = 0; i < 9; i++) {
    double l[3], ra = 0, rb = 0;
    const double *p = a->u[i / 3], *q = b->u[i % 3];
    /* Kahan's a*b - c*d (obb_exact.h): accurate even when the two
    ** products nearly cancel, as they do here */
    l[0] = obb_diff_of_products(p[1], q[2], p[2], q[1]);
    l[1] = obb_diff_of_products(p[2], q[0], p[0], q[2]);
    l[2] = obb_diff_of_products(p[0], q[1], p[1], q[0]);
    if (!obb_normalize3(l)) continue;
    /* snapped up too: an edge axis can be a face axis (x cross z is y) */
    for (k = 0; k < 3; k++) {
      ra += a->e[k] * obb_abs_up(obb_dot3(a->u[k], l));
      rb += b->e[k] * obb_abs_up(obb_dot3(b->u[k], l));
    }
    if (fabs(obb_dot3(d, l)) > ra + rb + band) return 0;
  }
  return 1;
}

/* Rounding allowance of the fast test, relative to the configuration's
** size: far above its real error (a few dozen ulps), far below the
** touching band (obb_touch.h). An edge gap (on the unnormalised axis
** a_i x b_j, so shorter than the true gap) above the allowance plus the
** band separates by more than the band; one below minus the allowance
** does not separate; between, the precise test measures it on the unit
** axis against the band. */
#define SAT_UNSURE (256 * DBL_EPSILON)

/* Ericson's TestOBBOBB: the 15 axes in a's frame, with R = a's axes dotted
** with b's, computed once. Face axes decide directly. An edge-edge axis
** a_i x b_j has length sin(angle), so near parallel edges every term on it
** is tiny and rounding could claim a false separation; instead of padding
** |R| with an epsilon (which would also report false intersections), a
** result within the rounding allowance is marked unsure and, if nothing
** else separates the boxes, the precise test decides.
**
** This scalar version is the reference: the vector builds below compute,
** lane by lane, exactly its expressions (same operands, same order, no
** contraction, the same snapping), so they answer identically on every
** pair, boxes touching or not. It is also the fallback where no vector
** build applies. */
#if defined(__GNUC__)
/* out of line: the AVX2 build calls it only in a corner case; unused where
** the pairs build is the only one */
__attribute__((noinline, unused))
#endif
static int intersects_scalar(const obb3 *a, const obb3 *b) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* gcc -std=c99 never contracts */
#endif
  double R[3][3], AR[3][3], t[3], d[3], tol, band = obb3_pair_band(a, b);
  const double *ea = a->e, *eb = b->e;
  int i, j, unsure = 0;
  for (i = 0; i < 3; i++) d[i] = b->c[i] - a->c[i];
  for (i = 0; i < 3; i++) {
    t[i] = obb_dot3(d, a->u[i]);
    for (j = 0; j < 3; j++) {
      R[i][j] = obb_dot3(a->u[i], b->u[j]);
      /* snapped up to 1 within rounding (obb_math.h), so that a box
      ** turned by quarter turns reaches as far as containment says */
      AR[i][j] = obb_abs_up(R[i][j]);
    }
  }
  for (i = 0; i < 3; i++)
    if (fabs(t[i]) > ea[i] + eb[0] * AR[i][0] + eb[1] * AR[i][1] +
                         eb[2] * AR[i][2] + band)
      return 0;
  /* b's face axes project d directly rather than through t and R: the
  ** same cost, no extra rounding, and then every face test gives the same
  ** answer whichever box comes first (a point on a's boundary that
  ** obb3_contains_point accepts is never separated from a by rounding). */
  for (j = 0; j < 3; j++)
    if (fabs(obb_dot3(d, b->u[j])) >
        eb[j] + ea[0] * AR[0][j] + ea[1] * AR[1][j] + ea[2] * AR[2][j] + band)
      return 0;
  tol = SAT_UNSURE * (fabs(t[0]) + fabs(t[1]) + fabs(t[2]) + ea[0] + ea[1] +
                      ea[2] + eb[0] + eb[1] + eb[2]);
  for (i = 0; i < 3; i++) {
    int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
    for (j = 0; j < 3; j++) {
      int j1 = j == 2 ? 0 : j + 1, j2 = j == 0 ? 2 : j - 1;
      double ra = ea[i1] * AR[i2][j] + ea[i2] * AR[i1][j];
      double rb = eb[j1] * AR[i][j2] + eb[j2] * AR[i][j1];
      double gap = fabs(t[i2] * R[i1][j] - t[i1] * R[i2][j]) - (ra + rb);
      if (gap > tol + band) return 0;
      if (gap >= -tol) unsure = 1;
    }
  }
  return unsure ? intersects_precise(a, b, band) : 1;
}

/* ---- pairs of doubles (SSE2, NEON) ----------------------------------- */
#if defined(__GNUC__) && \
    (defined(__SSE2__) || (defined(__ARM_NEON) && defined(__aarch64__)))
#define OBB3_PAIRS 1
/* Two doubles per register: baseline on every x86-64 (SSE2) and aarch64
** (NEON), so a default build gets it without -march flags (32-bit ARM's
** NEON has no doubles). */
__extension__ typedef double v2d __attribute__((vector_size(16)));
__extension__ typedef long long v2i __attribute__((vector_size(16)));

static inline v2d ld2(const double *p) {
  v2d r;
  memcpy(&r, p, sizeof r);
  return r;
}

static inline v2d pr(double x, double y) {
  v2d r = {x, y};
  return r;
}

static inline v2d bc(double x) { return pr(x, x); }

/* fabs per lane: clears the sign bit, as fabs does */
static inline v2d vabs(v2d x) {
  const v2i m = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
  return (v2d)((v2i)x & m);
}

/* obb_abs_up per lane */
static inline v2d vabs_up(v2d r) {
  const v2d k = bc(1.0 - 8 * DBL_EPSILON), one = bc(1.0);
  v2i m;
  r = vabs(r);
  m = (v2i)(r > k);
  return (v2d)((m & (v2i)one) | (~m & (v2i)r));
}

static inline int any2(v2i m) { return (m[0] | m[1]) != 0; }

/* What the pairs build computes once for a pair: R = a's axes dotted with
** b's, AR = |R| snapped up, and d on a's axes (t) and on b's (s), two
** entries to a register. */
typedef struct frame2 {
  v2d r0, r1, r2, rc2; /* r_i = (R[i][0], R[i][1]); (R[0][2], R[1][2]) */
  v2d q0, q1, q2, qc2; /* the same entries of AR */
  v2d qk0, qk1;        /* (AR[0][0], AR[1][0]), (AR[0][1], AR[1][1]) */
  v2d t01, s01, ts2;   /* (t0, t1), (s0, s1), (t2, s2) */
  double r22, q22;     /* R[2][2], AR[2][2] */
} frame2;

/* Fills f for a and b. */
static inline void pairs_frame(const obb3 *a, const obb3 *b, frame2 *f) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* gcc -std=c99 never contracts */
#endif
  const double *a0 = a->u[0], *a1 = a->u[1], *a2 = a->u[2];
  const double *b0 = b->u[0], *b1 = b->u[1], *b2 = b->u[2];
  v2d d01, dx, dy, dz, ac0, ac1, ac2, bc0, bc1, bc2;
  double d2;
  d01 = ld2(b->c) - ld2(a->c);
  d2 = b->c[2] - a->c[2];
  dx = bc(d01[0]); dy = bc(d01[1]); dz = bc(d2);
  /* columns of a's and b's first two axes: (a0[k], a1[k]), (b0[k], b1[k]) */
  ac0 = pr(a0[0], a1[0]); ac1 = pr(a0[1], a1[1]); ac2 = pr(a0[2], a1[2]);
  bc0 = pr(b0[0], b1[0]); bc1 = pr(b0[1], b1[1]); bc2 = pr(b0[2], b1[2]);
  /* each lane of R summed in the order of obb_dot3 */
  f->r0 = bc(a0[0]) * bc0 + bc(a0[1]) * bc1 + bc(a0[2]) * bc2;
  f->r1 = bc(a1[0]) * bc0 + bc(a1[1]) * bc1 + bc(a1[2]) * bc2;
  f->r2 = bc(a2[0]) * bc0 + bc(a2[1]) * bc1 + bc(a2[2]) * bc2;
  f->rc2 = ac0 * bc(b2[0]) + ac1 * bc(b2[1]) + ac2 * bc(b2[2]);
  f->r22 = a2[0] * b2[0] + a2[1] * b2[1] + a2[2] * b2[2];
  f->t01 = dx * ac0 + dy * ac1 + dz * ac2;
  f->s01 = dx * bc0 + dy * bc1 + dz * bc2;
  f->ts2 = dx * pr(a2[0], b2[0]) + dy * pr(a2[1], b2[1]) +
           dz * pr(a2[2], b2[2]);
  f->q0 = vabs_up(f->r0); f->q1 = vabs_up(f->r1); f->q2 = vabs_up(f->r2);
  f->qc2 = vabs_up(f->rc2);
  f->q22 = obb_abs_up(f->r22);
  f->qk0 = pr(f->q0[0], f->q1[0]);
  f->qk1 = pr(f->q0[1], f->q1[1]);
}

/* The lanes in which a face axis separates: a0 and a1; b0 and b1; a2 and
** b2. */
static inline v2i pairs_faces_apart(const frame2 *f, const double *ea,
                                    const double *eb, v2d vband) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* gcc -std=c99 never contracts */
#endif
  const v2d q0 = f->q0, q1 = f->q1, q2 = f->q2, qc2 = f->qc2;
  v2i apart;
  apart = (v2i)(vabs(f->t01) > ld2(ea) + bc(eb[0]) * f->qk0 +
                                   bc(eb[1]) * f->qk1 + bc(eb[2]) * qc2 +
                                   vband);
  apart |= (v2i)(vabs(f->s01) > ld2(eb) + bc(ea[0]) * q0 + bc(ea[1]) * q1 +
                                    bc(ea[2]) * q2 + vband);
  apart |= (v2i)(vabs(f->ts2) > pr(ea[2], eb[2]) +
                                    pr(eb[0], ea[0]) * pr(q2[0], qc2[0]) +
                                    pr(eb[1], ea[1]) * pr(q2[1], qc2[1]) +
                                    pr(eb[2], ea[2]) * bc(f->q22) + vband);
  return apart;
}

/* The verdict of the 9 edge axes a_i x b_j, once no face axis separates:
** lanes j = 0, 1 for each i, then lanes i = 0, 1 for j = 2, then (2, 2)
** alone; a gap within the rounding allowance goes to the precise test. */
static inline int pairs_edges(const obb3 *a, const obb3 *b, const frame2 *f,
                              double band) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* gcc -std=c99 never contracts */
#endif
  const double *ea = a->e, *eb = b->e;
  const v2d r0 = f->r0, r1 = f->r1, r2 = f->r2, rc2 = f->rc2;
  const v2d q0 = f->q0, q1 = f->q1, q2 = f->q2, qc2 = f->qc2;
  const double r22 = f->r22, q22 = f->q22;
  double t0 = f->t01[0], t1 = f->t01[1], t2 = f->ts2[0], tol, tolb, g4;
  v2d g0, g1, g2, g3, eb12 = pr(eb[1], eb[2]), eb20 = pr(eb[2], eb[0]);
  v2i apart, unsure;
  tol = SAT_UNSURE * (fabs(t0) + fabs(t1) + fabs(t2) + ea[0] + ea[1] +
                      ea[2] + eb[0] + eb[1] + eb[2]);
  tolb = tol + band;
  g0 = vabs(bc(t2) * r1 - bc(t1) * r2) -
       ((bc(ea[1]) * q2 + bc(ea[2]) * q1) +
        (eb12 * pr(qc2[0], q0[0]) + eb20 * pr(q0[1], qc2[0])));
  g1 = vabs(bc(t0) * r2 - bc(t2) * r0) -
       ((bc(ea[2]) * q0 + bc(ea[0]) * q2) +
        (eb12 * pr(qc2[1], q1[0]) + eb20 * pr(q1[1], qc2[1])));
  g2 = vabs(bc(t1) * r0 - bc(t0) * r1) -
       ((bc(ea[0]) * q1 + bc(ea[1]) * q0) +
        (eb12 * pr(q22, q2[0]) + eb20 * pr(q2[1], q22)));
  g3 = vabs(pr(t2, t0) * pr(rc2[1], r22) - pr(t1, t2) * pr(r22, rc2[0])) -
       ((pr(ea[1], ea[2]) * pr(q22, qc2[0]) +
         pr(ea[2], ea[0]) * pr(qc2[1], q22)) +
        (bc(eb[0]) * f->qk1 + bc(eb[1]) * f->qk0));
  g4 = fabs(t1 * rc2[0] - t0 * rc2[1]) -
       ((ea[0] * qc2[1] + ea[1] * qc2[0]) + (eb[0] * q2[1] + eb[1] * q2[0]));
  {
    v2d vt = bc(tolb), nt = bc(-tol);
    apart = (v2i)(g0 > vt) | (v2i)(g1 > vt) | (v2i)(g2 > vt) |
            (v2i)(g3 > vt);
    unsure = (v2i)(g0 >= nt) | (v2i)(g1 >= nt) | (v2i)(g2 >= nt) |
             (v2i)(g3 >= nt);
  }
  {
    int in = !(any2(apart) | (g4 > tolb));
    if (in & (any2(unsure) | (g4 >= -tol)))
      return intersects_precise(a, b, band);
    return in;
  }
}

/* Speed: a typical query is a random mix of overlapping and separated
** pairs, so a branch per axis (as the reference has) mispredicts on most
** separated pairs, and the ~200 flops then bound what is left. So the six
** face axes are all evaluated before one branch, the nine edge axes with
** none (only the rare unsure band branches), and two axes or two entries
** of R share each instruction. */
static int intersects_pairs(const obb3 *a, const obb3 *b) {
  frame2 f;
  double band = obb3_pair_band(a, b);
  pairs_frame(a, b, &f);
  if (any2(pairs_faces_apart(&f, a->e, b->e, bc(band)))) return 0;
  return pairs_edges(a, b, &f, band);
}
#endif /* OBB3_PAIRS */

/* ---- four doubles per register (AVX2, x86-64) -------------------------
** Compiled for AVX2 by a target attribute, whatever the build's flags, and
** called only when the processor has it (obb3_intersects, at the end).
** Define OBB_NO_AVX2 to leave it out. */
#if defined(__x86_64__) && !defined(OBB_NO_AVX2) &&                     \
    ((defined(__clang__) && __clang_major__ >= 7) ||                    \
     (!defined(__clang__) && defined(__GNUC__) && __GNUC__ >= 6))
#define OBB3_AVX2 1
#include <immintrin.h>

/* p[0], p[1] in lanes 0, 1 and q[0], q[1] in lanes 2, 3 */
#define LOAD2X2(p, q)                                                   \
  _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p)),         \
                       _mm_loadu_pd(q), 1)

/* The three columns of the row-major 3x3 matrix at p (the k-th components
** of a box's axes) in lanes 0..2; lane 3 gets p[3] or p[5], finite like
** the rest, as every lane 3 below is (computed, then ignored). Every load
** stays inside the box: p + 8 reads the last axis entry and e[0]. */
#define COLUMNS3(p, c0, c1, c2)                                         \
  do {                                                                  \
    __m256d y0_ = LOAD2X2(p, p + 6), y2_ = LOAD2X2(p + 2, p + 8);       \
    __m256d y1_ = _mm256_broadcast_pd((const __m128d *)(p + 3));        \
    __m256d y3_ = _mm256_broadcast_pd((const __m128d *)(p + 5));        \
    c0 = _mm256_unpacklo_pd(y0_, y1_); /* p0 p3 p6 p3 */                \
    c1 = _mm256_unpackhi_pd(y0_, y1_); /* p1 p4 p7 p4 */                \
    c2 = _mm256_unpacklo_pd(y2_, y3_); /* p2 p5 p8 p5 */                \
  } while (0)

/* e[0], e[1], e[2], e[2] (e[2] is the box's last field: no 16-byte load
** there; and not _mm_load_sd, whose zeroing move GCC may emit in a form
** that valgrind 3.19 cannot decode) */
#define EXTENTS3(e)                                                     \
  _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(e)),         \
                       _mm_loaddup_pd((e) + 2), 1)

#define ALL4(x) _mm256_set1_pd(x)
/* fabs per lane: the sign bits cleared */
#define ABS4(x)                                                         \
  _mm256_and_pd(x, _mm256_castsi256_pd(                                 \
                       _mm256_set1_epi64x(0x7fffffffffffffffLL)))
#define GT4(x, y) _mm256_cmp_pd(x, y, _CMP_GT_OQ)
/* lanes 0..2 of a comparison, as bits */
#define MASK3(m) ((unsigned)_mm256_movemask_pd(m) & 7u)
/* lane j gets lane j-1, lane j+1 (mod 3) */
#define PREV3(x) _mm256_permute4x64_pd(x, _MM_SHUFFLE(3, 1, 0, 2))
#define NEXT3(x) _mm256_permute4x64_pd(x, _MM_SHUFFLE(3, 0, 2, 1))

/* Lane j of each vector is index j of the reference's arrays: m_i is row
** i of R, q_i row i of AR, t and s are d on a's and on b's axes. So one
** instruction serves a row of R, the three face axes of one box, or the
** three edge axes a_i x b_j of one i; AR's columns (for a's face axes)
** take six shuffles.
**
** Speed, measured on a 50/50 mix of overlapping and separated pairs: the
** function is branchless but for one branch that is almost never taken
** (an early exit after the face axes mispredicts too often to pay), and
** what bounds it is then the length of its dependency chains as much as
** its ~200 instructions, since consecutive calls overlap little. The
** longest chain was tol: nine terms summed in sequence (eight dependent
** additions). So the lanes are compared against tolu instead, the same
** nine terms summed as a short tree and scaled up by 1 + 2^-40: each sum
** is within 8 ulps of the exact one, so tolu >= tol always (and tolu is
** inf when tol might be, NaN when tol is). A gap above tolu plus the
** touching band separates (above tol plus the band too), one below -tolu
** is sure (below -tol too); only a gap between, which touching boxes and
** near-parallel edges give (and every overlapping pair of aligned boxes,
** which then goes to the precise test), is decided again with tol itself,
** by edges_near_zero.
** The verdicts are joined into one word before the one branch: written
** as `in && unsure`, GCC makes two branches, the first unpredictable. */

/* No face axis separates a and b, and in some lane the largest edge gap,
** gmax, is within tolu of zero: the reference's verdict, with tol computed
** as the reference computes it. A lane of gmax is -inf when its gaps are
** all NaN (or -inf): with tol finite that is below -tol, so the lane counts
** for nothing, as in the reference; when tol is inf (coordinates near
** DBL_MAX), the reference itself decides. */
__attribute__((target("avx2"), noinline)) static int edges_near_zero(
    const obb3 *a, const obb3 *b, __m256d gmax, double band) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  const double *ea = a->e, *eb = b->e;
  double d[3], tol;
  int i;
  for (i = 0; i < 3; i++) d[i] = b->c[i] - a->c[i];
  tol = SAT_UNSURE *
        (fabs(obb_dot3(d, a->u[0])) + fabs(obb_dot3(d, a->u[1])) +
         fabs(obb_dot3(d, a->u[2])) + ea[0] + ea[1] + ea[2] + eb[0] + eb[1] +
         eb[2]);
  if (!(tol < HUGE_VAL)) return intersects_scalar(a, b);
  if (MASK3(GT4(gmax, ALL4(tol + band)))) return 0;
  if (MASK3(_mm256_cmp_pd(gmax, ALL4(-tol), _CMP_GE_OQ)))
    return intersects_precise(a, b, band);
  return 1;
}

/* The touching band: obb3_pair_band's terms |d_i| + (ea_i + eb_i) and
** max(|ca_i|, |cb_i|) in lane i (lane 3: c[3] is the first axis entry,
** finite, and ignored), summed and maxed as it does: the same bits, about
** 1 ns sooner than its loop here. */
__attribute__((target("avx2"))) static inline double band4(
    const obb3 *a, const obb3 *b, __m256d eav, __m256d ebv) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  __m256d ca = _mm256_loadu_pd(a->c), cb = _mm256_loadu_pd(b->c);
  __m256d sv = ABS4(cb - ca) + (eav + ebv);
  __m256d mv = _mm256_max_pd(ABS4(ca), ABS4(cb));
  return obb_band((sv[0] + sv[1]) + sv[2], obb_max3(mv[0], mv[1], mv[2]));
}

/* The rows of R (m0, m1, m2) and d on a's axes (t) and on b's (s). */
__attribute__((target("avx2"))) static inline void frame4(
    const obb3 *a, const obb3 *b, __m256d *m0, __m256d *m1, __m256d *m2,
    __m256d *t, __m256d *s) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  const double(*au)[3] = a->u;
  __m256d dx, dy, dz, a0, a1, a2, b0, b1, b2;
  dx = ALL4(b->c[0] - a->c[0]);
  dy = ALL4(b->c[1] - a->c[1]);
  dz = ALL4(b->c[2] - a->c[2]);
  COLUMNS3(&a->u[0][0], a0, a1, a2);
  COLUMNS3(&b->u[0][0], b0, b1, b2);
  *m0 = ALL4(au[0][0]) * b0 + ALL4(au[0][1]) * b1 + ALL4(au[0][2]) * b2;
  *m1 = ALL4(au[1][0]) * b0 + ALL4(au[1][1]) * b1 + ALL4(au[1][2]) * b2;
  *m2 = ALL4(au[2][0]) * b0 + ALL4(au[2][1]) * b1 + ALL4(au[2][2]) * b2;
  *t = dx * a0 + dy * a1 + dz * a2;
  *s = dx * b0 + dy * b1 + dz * b2;
}

/* obb_abs_up per lane */
__attribute__((target("avx2"))) static inline __m256d abs_up4(__m256d m) {
  __m256d q = ABS4(m);
  return _mm256_blendv_pd(q, ALL4(1.0), GT4(q, ALL4(1.0 - 8 * DBL_EPSILON)));
}

/* tolu in every lane, from |t| and the extents; sum + sum overflows
** exactly when sum >= 2^1023, the only case in which the sequential sum
** might have overflowed (tol = inf) */
__attribute__((target("avx2"))) static inline __m256d tolu4(
    __m256d at, __m256d eav, __m256d ebv) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  __m256d v = at + (eav + ebv);
  __m128d lo = _mm256_castpd256_pd128(v);
  double sum = (lo[0] + lo[1]) + v[2];
  return ALL4((sum + sum) * (SAT_UNSURE * (1 + 0x1p-40) / 2));
}

/* The lanes in which a face axis of one box separates: ad is |d| on its
** axes, ev its extents, eo the other's, and k0, k1, k2 the rows of AR (b's
** axes, lane j) or its columns (a's axes, lane i), summed down. */
__attribute__((target("avx2"))) static inline __m256d faces_apart4(
    __m256d ad, __m256d ev, const double *eo, __m256d k0, __m256d k1,
    __m256d k2, __m256d vband) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  return GT4(ad, ev + ALL4(eo[0]) * k0 + ALL4(eo[1]) * k1 +
                     ALL4(eo[2]) * k2 + vband);
}

/* The columns c0, c1, c2 of the rows q0, q1, q2 (lanes 0..2). */
__attribute__((target("avx2"))) static inline void columns4(
    __m256d q0, __m256d q1, __m256d q2, __m256d *c0, __m256d *c1,
    __m256d *c2) {
  __m256d u0 = _mm256_unpacklo_pd(q0, q1), u1 = _mm256_unpackhi_pd(q0, q1);
  *c0 = _mm256_insertf128_pd(u0, _mm256_castpd256_pd128(q2), 1);
  *c1 = _mm256_insertf128_pd(
      u1, _mm256_castpd256_pd128(_mm256_unpackhi_pd(q2, q2)), 1);
  *c2 = _mm256_permute2f128_pd(u0, q2, 0x31);
}

/* The largest gap of the edge axes a_i x b_j (row i, lane j) in lane j.
** maxpd returns its second operand when the first is NaN, so a NaN gap is
** skipped, as the reference's comparisons skip it, and -inf stands for
** "no gap". */
__attribute__((target("avx2"))) static inline __m256d edge_gaps4(
    __m256d t, __m256d m0, __m256d m1, __m256d m2, __m256d q0, __m256d q1,
    __m256d q2, const double *ea, __m256d ebv) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  __m256d t0 = _mm256_permute4x64_pd(t, 0x00);
  __m256d t1 = _mm256_permute4x64_pd(t, 0x55);
  __m256d t2 = _mm256_permute4x64_pd(t, 0xaa);
  __m256d ebn = NEXT3(ebv), ebp = PREV3(ebv), g0, g1, g2, gmax;
  g0 = ABS4(t2 * m1 - t1 * m2) -
       ((ALL4(ea[1]) * q2 + ALL4(ea[2]) * q1) +
        (ebn * PREV3(q0) + ebp * NEXT3(q0)));
  g1 = ABS4(t0 * m2 - t2 * m0) -
       ((ALL4(ea[2]) * q0 + ALL4(ea[0]) * q2) +
        (ebn * PREV3(q1) + ebp * NEXT3(q1)));
  g2 = ABS4(t1 * m0 - t0 * m1) -
       ((ALL4(ea[0]) * q1 + ALL4(ea[1]) * q0) +
        (ebn * PREV3(q2) + ebp * NEXT3(q2)));
  gmax = _mm256_max_pd(g0, ALL4(-HUGE_VAL));
  return _mm256_max_pd(g2, _mm256_max_pd(g1, gmax));
}

/* The 15 axes, four doubles to a register (see above): b's face axes,
** a's, then the edge axes, their verdicts joined before the one branch. */
__attribute__((target("avx2"))) static int intersects_avx2(const obb3 *a,
                                                         const obb3 *b) {
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
  const double *ea = a->e, *eb = b->e;
  __m256d t, s, m0, m1, m2, q0, q1, q2, at, eav, ebv, apart, gmax, tolu;
  __m256d c0, c1, c2, vband;
  double band;
  eav = EXTENTS3(ea);
  ebv = EXTENTS3(eb);
  band = band4(a, b, eav, ebv);
  vband = ALL4(band);
  frame4(a, b, &m0, &m1, &m2, &t, &s);
  q0 = abs_up4(m0);
  q1 = abs_up4(m1);
  q2 = abs_up4(m2);
  at = ABS4(t);
  tolu = tolu4(at, eav, ebv);
  apart = faces_apart4(ABS4(s), ebv, ea, q0, q1, q2, vband); /* b's */
  columns4(q0, q1, q2, &c0, &c1, &c2); /* a's, below */
  apart = _mm256_or_pd(apart, faces_apart4(at, eav, eb, c0, c1, c2, vband));
  gmax = edge_gaps4(t, m0, m1, m2, q0, q1, q2, ea, ebv);
  {
    /* separated lanes in bits 3..5, lanes near zero in bits 0..2: only
    ** 1..7 (nothing separated, something near zero) needs a second look */
    unsigned w = MASK3(_mm256_or_pd(apart, GT4(gmax, tolu + vband))) << 3 |
                 MASK3(_mm256_cmp_pd(gmax, -tolu, _CMP_GE_OQ));
    if (w - 1u < 7u) return edges_near_zero(a, b, gmax, band);
    return w == 0;
  }
}
#endif /* OBB3_AVX2 */

int obb3_intersects(const obb3 *a, const obb3 *b) {
#ifdef OBB3_AVX2
#ifndef __AVX2__
  /* reads the processor model that libgcc (or compiler-rt) fills in once,
  ** when the program or library starts: no state of ours, thread-safe */
  if (__builtin_cpu_supports("avx2"))
#endif
    return intersects_avx2(a, b);
#endif
#ifdef OBB3_PAIRS
  return intersects_pairs(a, b);
#else
  return intersects_scalar(a, b);
#endif
}

int obb3_contains_point(const obb3 *b, const double p[3]) {
  double l[3];
  obb3_local(b->c, b->u, p, l);
  return obb_inside(3, l, b->e, obb3_point_band(b, p, 0.0));
}

int obb3_contains_box(const obb3 *outer, const obb3 *inner) {
  double l[3], band = obb3_pair_band(outer, inner);
  int i, j;
  obb3_local(outer->c, outer->u, inner->c, l);
  for (i = 0; i < 3; i++) {
    double r = fabs(l[i]);
    for (j = 0; j < 3; j++)
      r += inner->e[j] * obb_snap_abs(obb_dot3(outer->u[i], inner->u[j]));
    if (!(r <= outer->e[i] + band)) return 0;
  }
  return obb3_intersects(outer, inner); /* as obb2_contains_box */
}

/* Any unit vector perpendicular to unit v. */
static void any_perpendicular(const double v[3], double out[3]) {
  double w[3] = {0, 0, 0};
  int k = fabs(v[0]) <= fabs(v[1]) ? (fabs(v[0]) <= fabs(v[2]) ? 0 : 2)
                                   : (fabs(v[1]) <= fabs(v[2]) ? 1 : 2);
  w[k] = 1.0;
  obb_cross3(v, w, out);
  obb_normalize3(out);
}

/* The image is the parallelepiped spanned by v_i = e_i * L u_i. The new
** frame is Gram-Schmidt over the images L u_i, longest edge first, each
** axis kept in the slot of the edge it came from (so a rotation maps axis
** i to axis i); the half extents are the support sum_i e_i |L u_i . f_k|,
** exact when the image is a box and enclosing it otherwise. */
obb_status obb3_transform(obb3 *b, const double m[12]) {
  static const int linear[9] = {0, 1, 2, 4, 5, 6, 8, 9, 10};
  double lu[3][3], len[3], f[3][3], c[3], e[3], l[12];
  int order[3] = {0, 1, 2}, i, j, k, ex;
  if (!obb_all_finite(m, 12)) return OBB_ENOTFINITE;
  ex = obb_exponent_of_max(m, linear, 9);
  for (i = 0; i < 12; i++) l[i] = ldexp(m[i], -ex); /* see obb_math.h */
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 3; j++) lu[i][j] = obb_dot3(l + 4 * j, b->u[i]);
    len[i] = b->e[i] * sqrt(obb_dot3(lu[i], lu[i]));
  }
  for (i = 1; i < 3; i++) /* sort slots by edge length, longest first */
    for (j = i; j > 0 && len[order[j]] > len[order[j - 1]]; j--) {
      k = order[j]; order[j] = order[j - 1]; order[j - 1] = k;
    }
  {
    int p = order[0], q = order[1], r = order[2];
    double *fp = f[p], *fq = f[q];
    for (k = 0; k < 3; k++) fp[k] = lu[p][k];
    if (!obb_normalize3(fp)) { /* L u_p = 0: try the others first */
      for (k = 0; k < 3; k++) fp[k] = lu[q][k];
      if (!obb_normalize3(fp)) {
        for (k = 0; k < 3; k++) fp[k] = lu[r][k];
        if (!obb_normalize3(fp))
          for (k = 0; k < 3; k++) fp[k] = b->u[p][k];
      }
    }
    for (i = 0; i < 2; i++) {
      const double *src = lu[i == 0 ? q : r];
      double dp = obb_dot3(src, fp);
      for (k = 0; k < 3; k++) fq[k] = src[k] - dp * fp[k];
      if (!obb_normalize3(fq)) continue;
      /* When src is (nearly) parallel to fp, as under a rank-1 matrix,
      ** what is left is rounding noise, not a direction orthogonal to fp.
      ** A second pass makes it orthogonal, or gives up on src. */
      dp = obb_dot3(fq, fp);
      for (k = 0; k < 3; k++) fq[k] -= dp * fp[k];
      if (fabs(dp) < 0.5 && obb_normalize3(fq)) break;
    }
    if (i == 2) any_perpendicular(fp, fq);
    /* the remaining slot completes a right-handed frame */
    obb_cross3(f[(r + 1) % 3], f[(r + 2) % 3], f[r]);
    obb_normalize3(f[r]);
  }
  for (k = 0; k < 3; k++) {
    e[k] = 0.0;
    for (i = 0; i < 3; i++) e[k] += b->e[i] * fabs(obb_dot3(lu[i], f[k]));
    e[k] = ldexp(e[k], ex);
    c[k] = obb_dot3(m + 4 * k, b->c) + m[4 * k + 3];
  }
  if (!obb_all_finite(c, 3) || !obb_all_finite(e, 3)) return OBB_ENOTFINITE;
  for (i = 0; i < 3; i++) {
    b->c[i] = c[i];
    b->e[i] = e[i];
    for (k = 0; k < 3; k++) b->u[i][k] = f[i][k];
  }
  return OBB_OK;
}

void obb3_corners(const obb3 *b, double out[24]) {
  int k, i;
  for (k = 0; k < 8; k++)
    for (i = 0; i < 3; i++) {
      double x = b->c[i];
      x += (k & 1 ? 1 : -1) * b->e[0] * b->u[0][i];
      x += (k & 2 ? 1 : -1) * b->e[1] * b->u[1][i];
      x += (k & 4 ? 1 : -1) * b->e[2] * b->u[2][i];
      out[3 * k + i] = x;
    }
}

void obb3_aabb(const obb3 *b, double out[6]) {
  int i;
  for (i = 0; i < 3; i++) {
    double h = b->e[0] * fabs(b->u[0][i]) + b->e[1] * fabs(b->u[1][i]) +
               b->e[2] * fabs(b->u[2][i]);
    out[i] = b->c[i] - h;
    out[i + 3] = b->c[i] + h;
  }
}
