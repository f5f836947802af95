/*
** obb_sweep_turning.c: time of first contact of two boxes that move and
** turn over one step, certified (docs/turning-sweeps.md).
**
** The motion (obb.h): over s in [0, 1] each center moves by s times its
** displacement and each box turns about its center at a constant angular
** velocity, w radians per step in 2D, the rotation vector r (world frame)
** in 3D: R(s) = rot(s * r) * R(0).
**
** The method is conservative advancement. At a time s the two boxes are
** posed and their separating-axis gaps measured; the axis n with the
** largest gap G (a lower bound of their exact distance, equal to it at the
** usual first contacts: a corner on a face, an edge across an edge) gives
** certificates. Any unit direction n separates the boxes at time s + h as
** long as
**   gap(h) = min over b of n.q - max over a of n.p   (at time s + h)
** is positive, and gap(h) is bounded below, for every point of both boxes
** and in real arithmetic, by:
**   - first order, n fixed in the world: gap(0) - h * mu, with
**     mu = n.(va - vb) + |n x wa| rho_a + |n x wb| rho_b, rho the length of
**     a box's half-extent vector: no point of a box moves along n faster
**     than its center plus its turn times its radius;
**   - second order, n fixed in the world or in the frame of the box whose
**     face it is (then that box's support along n does not change): the
**     boxes turned to first order relative to the frame (axes
**     u + h * (w x u), whose support along n is exact to compute) and the
**     centers' offset as the frame sees it, minus h^2/2 times a bound on
**     the second derivatives (a point on a circle of radius rho leaves its
**     tangent by at most h^2/2 |w|^2 rho);
**   - second order, for an edge-edge axis in 3D, n following the two
**     edges as they turn (cert3_edge): neither box's support leaves its
**     edge, so the bound is exact to first order at an edge-edge contact.
** The second-order bounds are concave in h, so each stays above a level on
** [0, h] as soon as it is above it at h: a step is certified by evaluating
** the bound at the step's end. The step taken is the longest any of them
** certifies, found from the quadratic model's root (an upper bound), chords
** from the left and Newton from the right. Being exact to first order,
** they make the steps converge as Newton's method does near a contact, and
** pass a box sliding by at a small distance in a few steps.
**
** Every step keeps the gap along n above a stand-off of 3/8 of the pair's
** touching band (obb_touch.h) plus a bound on the rounding of the
** certificate itself: the boxes never meet before the time reported. The
** advancement stops at the first pose at which the largest gap is at most
** 5/8 of the band, where obbN_intersects holds with room to spare (a
** caller posing the boxes with its own rounding gets the same answer). The
** gap closes to the stand-off, so the advancement always gets there, but it
** may take many steps when the boxes pass very close without meeting: after
** OBB_SWEEP_TURNING_BUDGET poses it stops and reports the time up to which
** it has certified that they do not meet (OBB_SWEEP_LIMIT).
**
** Before advancing, the centers' relative motion (a straight line) gives
** the times at which the boxes' bounding balls can meet at all: outside
** them nothing touches, so most pairs of a scene are answered without a
** single pose, and the advancement starts where the balls first meet.
*/
#include "obb.h"
#include "obb_math.h"
#include "obb_query.h"
#include "obb_sat.h"
#include "obb_sweep_turning.h"
#include "obb_touch.h"

#define BUDGET OBB_SWEEP_TURNING_BUDGET
/* The rounding of one evaluation of the certificate, per unit of the sizes
** it adds up (distances, extents, displacements): a few operations of
** relative error DBL_EPSILON / 2 each, with a wide margin. */
#define ERR (32 * DBL_EPSILON)
/* A box's radius rounded up, and room for axes that are orthonormal only to
** rounding (the support of a box along m is at most rho * |m|). */
#define RHO_UP (1 + 64 * DBL_EPSILON)
/* Stand-off and report level, in bands. */
#define STANDOFF 0.375
#define REPORT 0.625
/* Root refinement: at most this many rounds of chord and Newton. */
#define ROOT_ROUNDS 6
/* A hook for measuring (bench, tests that include this file): one per pose. */
#ifndef OBB_TURN_POSED
#define OBB_TURN_POSED()
#endif

/* The stand-off and the report level of an advancement, each k band + c
** at every pose (band: the pair's there). obbN_sweep_turning: 3/8 and 5/8
** of the band; a mover already touching (obbN_sweep_turning_within):
** levels below the start's gap, fixed. */
typedef struct levels {
  double ks, cs, kr, cr;
} levels;

/* ---- the certificate along one direction ------------------------------ */

/* The gap along a unit direction n (from a to b) that is fixed in a frame
** turning with one of the boxes, or in the world, as a function of the
** time h after the current pose: a lower bound
**   g + h * dv - sum e |al + h be| - K h^2 / 2,
** less the rounding bound err0 + err1 h + err2 h^2, concave in h. */
typedef struct gapfn {
  int nt;
  double e[6], al[6], be[6];
  double g, dv, K;
  int lb1;                 /* mu is valid (the world frame) */
  double Hmax;             /* the bound holds for steps up to Hmax */
  double mu;               /* first-order bound on the closing speed */
  double err0, err1, err2;
} gapfn;

static double gap_at(const gapfn *f, double h) {
  double x = f->g + h * f->dv - 0.5 * f->K * h * h;
  int i;
  for (i = 0; i < f->nt; i++) x -= f->e[i] * fabs(f->al[i] + h * f->be[i]);
  return x - (f->err0 + h * (f->err1 + h * f->err2));
}

/* Its slope at h (one-sided where a term has a kink): for Newton only. */
static double gap_slope(const gapfn *f, double h) {
  double x = f->dv - f->K * h - (f->err1 + 2 * h * f->err2);
  int i;
  for (i = 0; i < f->nt; i++) {
    double a = f->al[i] + h * f->be[i];
    x -= f->e[i] * (a > 0 ? f->be[i] : a < 0 ? -f->be[i] : fabs(f->be[i]));
  }
  return x;
}

/* The longest step h in [0, H] over which the gap provably stays above m;
** *to_end is set when that is all of [0, H]. 0 when it is not above m now. */
static double safe_step(const gapfn *f, double m, double H, int *to_end) {
  double lo = 0.0, flo, hi, fhi;
  int i;
  *to_end = 0;
  flo = gap_at(f, 0.0) - m;
  if (!(flo > 0)) return 0.0;
  if (f->lb1) { /* first order: gap(h) >= gap(0) - mu h */
    double h1, f1;
    if (!(f->mu > 0)) {
      *to_end = 1;
      return H;
    }
    h1 = flo / f->mu * (1 - 4 * DBL_EPSILON); /* mu * h1 <= flo */
    if (h1 >= H) {
      *to_end = 1;
      return H;
    }
    f1 = gap_at(f, h1) - m;
    if (!(f1 >= 0)) return h1; /* the second-order root comes earlier */
    lo = h1;
    flo = f1;
  }
  /* second order: concave, so certified at a point means certified up to
  ** it. The function lies below its quadratic model from the start (the
  ** kinks only bend it further down), so the model's root bounds the
  ** step from above. */
  hi = H;
  {
    double sl = gap_slope(f, 0.0), q = 0.5 * f->K + f->err2, f0 = flo, hq;
    if (f->lb1) f0 = gap_at(f, 0.0) - m;
    if (q > 0) {
      double disc = sqrt(sl * sl + 4 * q * f0);
      hq = sl > 0 ? (sl + disc) / (2 * q) : 2 * f0 / (disc - sl);
    } else {
      hq = sl < 0 ? f0 / -sl : HUGE_VAL;
    }
    if (hq < hi) hi = hq;
  }
  if (hi <= lo) return lo;
  fhi = gap_at(f, hi) - m;
  if (fhi >= 0) {
    *to_end = hi == H;
    return hi;
  }
  for (i = 0; i < ROOT_ROUNDS && hi - lo > 0.0625 * lo; i++) {
    double x = lo + flo * ((hi - lo) / (flo - fhi)), fx, d;
    if (x > lo && x < hi) { /* the chord lies below a concave function */
      fx = gap_at(f, x) - m;
      if (fx >= 0) { lo = x; flo = fx; }
      else { hi = x; fhi = fx; }
    }
    d = gap_slope(f, hi);
    if (d < 0) { /* Newton from the right stays at or beyond the root */
      x = hi - fhi / d;
      if (x > lo && x < hi) {
        fx = gap_at(f, x) - m;
        if (fx >= 0) { lo = x; flo = fx; }
        else { hi = x; fhi = fx; }
      }
    }
  }
  return lo;
}

/* ---- where the bounding balls can meet ------------------------------- */

/* The times in [0, 1] at which the centers, p apart and closing by w over
** the step (dim coordinates), are within R of each other: an interval,
** widened for rounding. Returns 0 when there are none. */
static int ball_window(int dim, const double *p, const double *w, double R,
                       double *lo, double *hi) {
  double pw = 0, ww = 0, pp = 0, q[3], d2 = 0, l1 = 0, sc, half, R2;
  int i;
  *lo = 0.0;
  *hi = 1.0;
  for (i = 0; i < dim; i++) {
    pw += p[i] * w[i];
    ww += w[i] * w[i];
    pp += p[i] * p[i];
  }
  if (!obb_finite(pw + ww + pp + R) || !(ww > 0)) {
    if (ww == 0 && obb_finite(pp + R)) {
      R2 = R * (1 + 0x1p-30);
      return pp <= R2 * R2;
    }
    return 1; /* too large to square: no window */
  }
  sc = -pw / ww;
  for (i = 0; i < dim; i++) {
    q[i] = p[i] + sc * w[i];
    d2 += q[i] * q[i];
    l1 += fabs(p[i]) + fabs(sc * w[i]);
  }
  R2 = R * (1 + 0x1p-30) + 16 * DBL_EPSILON * l1;
  if (d2 > R2 * R2) return 0;
  half = sqrt((R2 * R2 - d2) / ww);
  *lo = obb_fmax(0.0, sc - half - 0x1p-30 * (1 + fabs(sc) + half));
  *hi = obb_fmin(1.0, sc + half + 0x1p-30 * (1 + fabs(sc) + half));
  return *lo <= *hi;
}

static double radius(int dim, const double *e) {
  return obb_len3(e[0], e[1], dim == 3 ? e[2] : 0.0) * RHO_UP;
}

/* The pair's band at its largest over the step (it is convex in time). */
static double step_band(int dim, const double *ca, const double *ea,
                        const double *va, const double *cb,
                        const double *eb, const double *vb) {
  double a1[3], b1[3];
  int i;
  for (i = 0; i < dim; i++) {
    a1[i] = ca[i] + va[i];
    b1[i] = cb[i] + vb[i];
  }
  return obb_fmax(obb_pair_band(dim, ca, ea, cb, eb),
              obb_pair_band(dim, a1, ea, b1, eb));
}

static double l1norm(int dim, const double *v) {
  double x = 0;
  int i;
  for (i = 0; i < dim; i++) x += fabs(v[i]);
  return x;
}

/* The longest certified step over the certificates built for one pose:
** *to_end when one reaches the end of the window. */
static double best_step(const gapfn *f, int nf, double m, double H,
                        int *to_end) {
  double h = 0.0;
  int i;
  *to_end = 0;
  for (i = 0; i < nf && !*to_end; i++) {
    double Hc = obb_fmin(H, f[i].Hmax);
    h = obb_fmax(h, safe_step(&f[i], m, Hc, to_end));
    if (Hc < H) *to_end = 0;
  }
  return h;
}

static void cert_start(gapfn *f, double g, double dv, double dl, double vl,
                       double wfl, double H) {
  f->nt = 0;
  f->g = g;
  f->dv = dv;
  /* the centers' offset turned back by the frame: x(h) = R_F(h)^T (d + h
  ** dv) has |x''| <= |wf|^2 |x| + 2 |wf| |dv|, and |x| <= |d| + H |dv| */
  f->K = wfl > 0 ? wfl * wfl * (dl + H * vl) + 2 * wfl * vl : 0.0;
  f->lb1 = wfl == 0;
  f->Hmax = H;
  f->mu = 0;
  f->err0 = ERR * dl;
  f->err1 = ERR * (vl + wfl * dl);
}

static void cert_end(gapfn *f) { f->err2 = ERR * f->K; }

/* ---- 2D --------------------------------------------------------------- */

/* The box at time s: its center moved by s * v, its axis turned by s * w
** (not renormalised, so that s = 0 gives the box itself, bit for bit). */
static void pose2(const obb2 *b, const double v[2], double w, double s,
                  obb2 *out) {
  double sn, cs;
  *out = *b;
  out->c[0] = b->c[0] + v[0] * s;
  out->c[1] = b->c[1] + v[1] * s;
  if (w != 0 && s != 0) {
    obb_sincos(w * s, &sn, &cs);
    out->u[0] = cs * b->u[0] - sn * b->u[1];
    out->u[1] = sn * b->u[0] + cs * b->u[1];
  }
}

/* One box's terms: its support along n while it turns by wr relative to
** the frame (exactly a rotation in 2D: |second derivative| <= wr^2 rho). */
static void side2(gapfn *f, const obb2 *x, double wr, double rho,
                  const double n[2]) {
  double a0 = obb_dot2(n, x->u), a1 = x->u[0] * n[1] - x->u[1] * n[0];
  int k = f->nt;
  f->e[k] = x->e[0]; f->al[k] = a0; f->be[k] = wr * a1;
  f->e[k + 1] = x->e[1]; f->al[k + 1] = a1; f->be[k + 1] = -wr * a0;
  f->nt = k + 2;
  f->K += wr * wr * rho;
  f->err0 += ERR * (x->e[0] + x->e[1]);
  f->err1 += ERR * fabs(wr) * (x->e[0] + x->e[1]);
}

/* The certificate along n, fixed in a frame turning at wf: the world
** (wf = 0, with the first-order bound too), a's frame (wf = wa: a's support
** is then constant) or b's. H is the longest step asked for. */
static void cert2(gapfn *f, const obb2 *A, const obb2 *B, const double va[2],
                  double wa, double rhoa, const double vb[2], double wb,
                  double rhob, const double n[2], double wf, double H) {
  double d[2], dv[2];
  d[0] = B->c[0] - A->c[0]; d[1] = B->c[1] - A->c[1];
  dv[0] = vb[0] - va[0]; dv[1] = vb[1] - va[1];
  /* x' = dv - wf x perp at h = 0; n . perp(d) = n1 d0 - n0 d1 */
  cert_start(f, obb_dot2(n, d),
             obb_dot2(n, dv) - wf * (n[1] * d[0] - n[0] * d[1]),
             l1norm(2, d), l1norm(2, dv), fabs(wf), H);
  side2(f, A, wa - wf, rhoa, n);
  side2(f, B, wb - wf, rhob, n);
  if (f->lb1)
    f->mu = obb_dot2(n, va) - obb_dot2(n, vb) + fabs(wa) * rhoa +
            fabs(wb) * rhob +
            ERR * (l1norm(2, va) + l1norm(2, vb) + fabs(wa) * rhoa +
                   fabs(wb) * rhob);
  cert_end(f);
}

/* The axis of the largest gap |s| - r, and that gap. */
static int widest2(const obb_axes2 *ax, double *G) {
  int k, best = 0;
  double g = fabs(ax->s[0]) - ax->r[0];
  for (k = 1; k < 4; k++) {
    double x = fabs(ax->s[k]) - ax->r[k];
    if (x > g) { g = x; best = k; }
  }
  *G = g;
  return best;
}

/* The advancement over [lo, hi] from the pose at lo (ax: the axes of a and
** b themselves when lo is 0), at the levels lv. */
static int advance2(const obb2 *a, const obb2 *b, const double va[2],
                    const double vb[2], double wa, double wb, int finite,
                    double lo, double hi, const levels *lv, obb_axes2 *ax,
                    double *t, double n[2]) {
  obb2 A, B;
  double depth, s = lo, G, dir[2], rhoa = radius(2, a->e),
         rhob = radius(2, b->e);
  int it, k;
  A = *a; B = *b;
  for (it = 0;; it++) {
    gapfn f[2];
    double band, h;
    int to_end;
    OBB_TURN_POSED();
    if (s > 0) {
      pose2(a, va, wa, s, &A);
      pose2(b, vb, wb, s, &B);
      obb2_sat_axes(&A, &B, ax);
    }
    k = widest2(ax, &G);
    band = obb2_pair_band(&A, &B);
    if (s > 0 && G <= lv->kr * band + lv->cr &&
        obb2_sat_min(&A, &B, ax, n, &depth) >= 0) {
      *t = s;
      return OBB_SWEEP_HIT;
    }
    dir[0] = ax->s[k] >= 0 ? ax->L[k][0] : -ax->L[k][0];
    dir[1] = ax->s[k] >= 0 ? ax->L[k][1] : -ax->L[k][1];
    if (it == BUDGET || !finite) break;
    /* in the world, and in the frame of the box whose face it is */
    cert2(&f[0], &A, &B, va, wa, rhoa, vb, wb, rhob, dir, 0.0, hi - s);
    cert2(&f[1], &A, &B, va, wa, rhoa, vb, wb, rhob, dir, k < 2 ? wa : wb,
          hi - s);
    h = best_step(f, 2, lv->ks * band + lv->cs, hi - s, &to_end);
    if (to_end) return OBB_SWEEP_NONE;
    if (!(s + h > s)) break; /* below the resolution of time */
    s += h;
  }
  *t = s; /* certified up to s, undecided beyond: a's way out is -dir */
  n[0] = -dir[0] + 0.0;
  n[1] = -dir[1] + 0.0;
  return OBB_SWEEP_LIMIT;
}

/* Whether the bounds of the motion are finite, and the window [lo, hi] of
** times at which the bounding balls can meet (0: none). */
static int window2(const obb2 *a, const obb2 *b, const double va[2],
                   const double vb[2], double wa, double wb, int *finite,
                   double *lo, double *hi) {
  double p[2], w[2], R, rhoa = radius(2, a->e), rhob = radius(2, b->e);
  p[0] = b->c[0] - a->c[0]; p[1] = b->c[1] - a->c[1];
  w[0] = vb[0] - va[0]; w[1] = vb[1] - va[1];
  /* bounds beyond the range of doubles: nothing can be certified */
  *finite = obb_finite(l1norm(2, w) + fabs(wa) * rhoa + fabs(wb) * rhob +
                       l1norm(2, p));
  R = rhoa + rhob + 2 * step_band(2, a->c, a->e, va, b->c, b->e, vb);
  *lo = 0;
  *hi = 1;
  return !*finite || ball_window(2, p, w, R, lo, hi);
}

int obb2_sweep_turning(const obb2 *a, const obb2 *b, const double va[2],
                       const double vb[2], double wa, double wb, double *t,
                       double n[2]) {
  static const levels lv = {STANDOFF, 0.0, REPORT, 0.0};
  obb_axes2 ax;
  double depth, lo, hi;
  int finite;
  if (wa == 0 && wb == 0) return obb2_sweep(a, b, va, vb, t, n);
  obb2_sat_axes(a, b, &ax);
  if (obb2_sat_min(a, b, &ax, n, &depth) >= 0) {
    *t = 0;
    return OBB_SWEEP_HIT;
  }
  if (!window2(a, b, va, vb, wa, wb, &finite, &lo, &hi))
    return OBB_SWEEP_NONE;
  return advance2(a, b, va, vb, wa, wb, finite, lo, hi, &lv, &ax, t, n);
}

int obb2_sweep_turning_within(const obb2 *a, const obb2 *b,
                              const double va[2], double wa, double floor,
                              double *t, double n[2]) {
  static const double zero[2] = {0, 0};
  obb_axes2 ax;
  levels lv;
  double depth, lo, hi, G, room;
  int finite;
  obb2_sat_axes(a, b, &ax);
  (void)widest2(&ax, &G);
  room = fmin(G + floor, floor);
  if (!(room > 0)) { /* as deep as the floor already */
    if (obb2_sat_min(a, b, &ax, n, &depth) < 0) { /* (NaN) */
      n[0] = n[1] = 0;
    }
    *t = 0;
    return OBB_SWEEP_HIT;
  }
  lv.ks = lv.kr = 0;
  lv.cs = STANDOFF * room - floor;
  lv.cr = REPORT * room - floor;
  if (!window2(a, b, va, zero, wa, 0.0, &finite, &lo, &hi))
    return OBB_SWEEP_NONE;
  return advance2(a, b, va, zero, wa, 0.0, finite, G > 0 ? lo : 0.0, hi,
                  &lv, &ax, t, n);
}

/* ---- 3D --------------------------------------------------------------- */

/* A turn over the step: unit axis k and angle len (0: none). */
typedef struct turn3 {
  double r[3], k[3], len;
} turn3;

static void make_turn3(const double r[3], turn3 *out) {
  double m = obb_fmax(fabs(r[0]), obb_fmax(fabs(r[1]), fabs(r[2])));
  int i;
  out->len = 0;
  for (i = 0; i < 3; i++) {
    out->r[i] = r[i];
    out->k[i] = 0;
  }
  if (!(m > 0)) return;
  for (i = 0; i < 3; i++) out->k[i] = r[i];
  obb_normalize3(out->k);
  out->len = m * obb_len3(r[0] / m, r[1] / m, r[2] / m);
}

/* The box at time s: center moved by s * v, axes turned by rot(s * r)
** (Rodrigues), so that s = 0 gives the box itself, bit for bit. */
static void pose3(const obb3 *b, const double v[3], const turn3 *r, double s,
                  obb3 *out) {
  int i, j;
  *out = *b;
  for (i = 0; i < 3; i++) out->c[i] = b->c[i] + v[i] * s;
  if (r->len != 0 && s != 0) {
    double sn, cs, c1;
    obb_sincos(r->len * s, &sn, &cs);
    c1 = 1 - cs;
    for (i = 0; i < 3; i++) {
      const double *u = b->u[i], *k = r->k;
      double x[3], kd = obb_dot3(k, u);
      obb_cross3(k, u, x);
      for (j = 0; j < 3; j++)
        out->u[i][j] = u[j] * cs + x[j] * sn + k[j] * (kd * c1);
    }
  }
}

/* One box's terms: its support along n while it turns by wr = w - wf
** relative to a frame turning at wf. In the world (wf = 0) a point at r
** leaves its tangent by at most h^2/2 |w| |n x w| |r| along n; in a turning
** frame the relative turn is not about a fixed axis, and its second
** derivative is bounded by |wr| (|wf| + |w|) |r|. */
static void side3(gapfn *f, const obb3 *x, const turn3 *w, const double *wf,
                  double wfl, double rho, const double n[3]) {
  double wr[3], m[3];
  int i, k = f->nt;
  for (i = 0; i < 3; i++) wr[i] = w->r[i] - (wf ? wf[i] : 0.0);
  obb_cross3(n, wr, m); /* n . (wr x u) = u . (n x wr) */
  for (i = 0; i < 3; i++) {
    f->e[k + i] = x->e[i];
    f->al[k + i] = obb_dot3(n, x->u[i]);
    f->be[k + i] = obb_dot3(m, x->u[i]);
  }
  f->nt = k + 3;
  if (!wf) f->K += w->len * obb_len3(m[0], m[1], m[2]) * rho;
  else f->K += obb_len3(wr[0], wr[1], wr[2]) * (wfl + w->len) * rho;
  f->err0 += ERR * (x->e[0] + x->e[1] + x->e[2]);
  f->err1 += ERR * l1norm(3, wr) * (x->e[0] + x->e[1] + x->e[2]);
}

static void cert3(gapfn *f, const obb3 *A, const obb3 *B, const double va[3],
                  const turn3 *ta, double rhoa, const double vb[3],
                  const turn3 *tb, double rhob, const double n[3],
                  const turn3 *frame, double H) {
  double d[3], dv[3], x[3] = {0, 0, 0};
  int i;
  for (i = 0; i < 3; i++) {
    d[i] = B->c[i] - A->c[i];
    dv[i] = vb[i] - va[i];
  }
  if (frame) obb_cross3(frame->r, d, x);
  cert_start(f, obb_dot3(n, d), obb_dot3(n, dv) - obb_dot3(n, x),
             l1norm(3, d), l1norm(3, dv), frame ? frame->len : 0.0, H);
  side3(f, A, ta, frame ? frame->r : NULL, frame ? frame->len : 0, rhoa, n);
  side3(f, B, tb, frame ? frame->r : NULL, frame ? frame->len : 0, rhob, n);
  if (f->lb1) {
    double ma[3], mb[3];
    obb_cross3(n, ta->r, ma);
    obb_cross3(n, tb->r, mb);
    f->mu = obb_dot3(n, va) - obb_dot3(n, vb) +
            obb_len3(ma[0], ma[1], ma[2]) * rhoa +
            obb_len3(mb[0], mb[1], mb[2]) * rhob +
            ERR * (l1norm(3, va) + l1norm(3, vb) + ta->len * rhoa +
                   tb->len * rhob);
  }
  cert_end(f);
}

/* The certificate along an edge axis that follows the edges: n(h) is the
** unit cross product of a's axis i and b's axis j as they turn, so both
** boxes keep their support along it on those edges (no end of an edge
** swings towards the other box, as it does along a frozen direction) and
** the gap is exact to first order at an edge-edge contact. With
** m = a x b, sigma = |m| >= sigma0 - h W (W = |wa| + |wb|, |m'| <= W,
** |m''| <= W^2) over steps h <= sigma0 / (2 W):
**   |n'| <= N1 = W / sigma_min,  |n''| <= N2 = (2 W^2 + 3 W N1) / sigma_min,
** which bound the second derivatives of n . (cb - ca) and n . u for every
** other axis u. Nearly parallel edges (sigma0 < 0.1) are left to the frames
** of the boxes. Returns 0 when not built. */
static int cert3_edge(gapfn *f, const obb3 *A, const obb3 *B,
                      const double va[3], const turn3 *ta, const double vb[3],
                      const turn3 *tb, const double n[3], int i, int j,
                      double H) {
  const double *a = A->u[i], *b = B->u[j];
  double m[3], sig, W, Hp, smin, N1, N2, wa_a[3], wb_b[3], t1[3], t2[3];
  double mp[3], np[3], d[3], dv[3], nm, sgn, dl, vl;
  int k, q;
  obb_cross3(a, b, m);
  sig = obb_len3(m[0], m[1], m[2]);
  W = ta->len + tb->len;
  if (!(sig >= 0.1) || !(W > 0)) return 0;
  Hp = obb_fmin(H, 0.5 * sig / W);
  smin = sig - Hp * W;
  N1 = W / smin;
  N2 = (2 * W * W + 3 * W * N1) / smin;
  obb_cross3(ta->r, a, wa_a);
  obb_cross3(tb->r, b, wb_b);
  obb_cross3(wa_a, b, t1);
  obb_cross3(a, wb_b, t2);
  for (q = 0; q < 3; q++) mp[q] = t1[q] + t2[q];
  /* n = sgn m / sigma, n' = sgn (m' - m^ (m^ . m')) / sigma */
  sgn = obb_dot3(n, m) >= 0 ? 1.0 : -1.0;
  nm = obb_dot3(n, mp);
  for (q = 0; q < 3; q++) {
    np[q] = sgn * (mp[q] - n[q] * nm) / sig;
    d[q] = B->c[q] - A->c[q];
    dv[q] = vb[q] - va[q];
  }
  dl = l1norm(3, d);
  vl = l1norm(3, dv);
  f->nt = 0;
  f->g = obb_dot3(n, d);
  f->dv = obb_dot3(np, d) + obb_dot3(n, dv);
  f->K = N2 * (dl + Hp * vl) + 2 * N1 * vl;
  f->lb1 = 0;
  f->mu = 0;
  f->Hmax = Hp;
  f->err0 = ERR * dl;
  f->err1 = ERR * (vl + N1 * dl);
  for (q = 0; q < 2; q++) {
    const obb3 *X = q ? B : A;
    const turn3 *w = q ? tb : ta;
    double c[3], kk = N2 + 2 * N1 * w->len + w->len * w->len;
    int skip = q ? j : i;
    obb_cross3(n, w->r, c); /* n . (w x u) = u . (n x w) */
    for (k = 0; k < 3; k++) {
      /* (the edge's own term too: n is the axis as computed, a few ulps
      ** off the exact cross product it stands for) */
      f->err0 += ERR * X->e[k];
      f->err1 += ERR * X->e[k] * (N1 + w->len);
      if (k == skip) continue; /* n . u stays 0 along the edge */
      f->e[f->nt] = X->e[k];
      f->al[f->nt] = obb_dot3(n, X->u[k]);
      f->be[f->nt] = obb_dot3(np, X->u[k]) + obb_dot3(c, X->u[k]);
      f->nt++;
      f->K += X->e[k] * kk;
    }
  }
  cert_end(f);
  return 1;
}

static int widest3(const obb_axes3 *ax, double *G) {
  int k, best = 0;
  double g = fabs(ax->s[0]) - ax->r[0];
  for (k = 1; k < ax->n; k++) {
    double x = fabs(ax->s[k]) - ax->r[k];
    if (x > g) { g = x; best = k; }
  }
  *G = g;
  return best;
}

/* The advancement over [lo, hi] from the pose at lo (ax: the axes of a and
** b themselves when lo is 0), at the levels lv. */
static int advance3(const obb3 *a, const obb3 *b, const double va[3],
                    const double vb[3], const turn3 *ta, const turn3 *tb,
                    int finite, double lo, double hi, const levels *lv,
                    obb_axes3 *ax, double *t, double n[3]) {
  obb3 A, B;
  double depth, s = lo, G, dir[3], rhoa = radius(3, a->e),
         rhob = radius(3, b->e);
  int it, k, i;
  A = *a; B = *b;
  for (it = 0;; it++) {
    gapfn f[3];
    double band, h;
    int to_end, nf = 1, id;
    OBB_TURN_POSED();
    if (s > 0) {
      pose3(a, va, ta, s, &A);
      pose3(b, vb, tb, s, &B);
      obb3_sat_axes(&A, &B, ax);
    }
    k = widest3(ax, &G);
    band = obb3_pair_band(&A, &B);
    if (s > 0 && G <= lv->kr * band + lv->cr &&
        obb3_sat_min(&A, &B, ax, n, &depth) >= 0) {
      *t = s;
      return OBB_SWEEP_HIT;
    }
    for (i = 0; i < 3; i++) dir[i] = ax->s[k] >= 0 ? ax->L[k][i] : -ax->L[k][i];
    if (it == BUDGET || !finite) break;
    /* in the world, and in the frame of the box whose face it is; an edge
    ** axis follows its edges (or, nearly parallel, each box's frame) */
    id = ax->id[k];
    cert3(&f[0], &A, &B, va, ta, rhoa, vb, tb, rhob, dir, NULL, hi - s);
    if (id >= OBB_AXIS_EDGE &&
        cert3_edge(&f[1], &A, &B, va, ta, vb, tb, dir,
                   (id - OBB_AXIS_EDGE) / 3, (id - OBB_AXIS_EDGE) % 3, hi - s)) {
      nf = 2;
    } else {
      if (id < 3 || id >= OBB_AXIS_EDGE)
        cert3(&f[nf++], &A, &B, va, ta, rhoa, vb, tb, rhob, dir, ta,
              hi - s);
      if (id >= 3)
        cert3(&f[nf++], &A, &B, va, ta, rhoa, vb, tb, rhob, dir, tb,
              hi - s);
    }
    h = best_step(f, nf, lv->ks * band + lv->cs, hi - s, &to_end);
    if (to_end) return OBB_SWEEP_NONE;
    if (!(s + h > s)) break;
    s += h;
  }
  *t = s;
  for (i = 0; i < 3; i++) n[i] = -dir[i] + 0.0;
  return OBB_SWEEP_LIMIT;
}

static int window3(const obb3 *a, const obb3 *b, const double va[3],
                   const double vb[3], const turn3 *ta, const turn3 *tb,
                   int *finite, double *lo, double *hi) {
  double p[3], w[3], R, rhoa = radius(3, a->e), rhob = radius(3, b->e);
  int i;
  for (i = 0; i < 3; i++) {
    p[i] = b->c[i] - a->c[i];
    w[i] = vb[i] - va[i];
  }
  *finite = obb_finite(l1norm(3, w) + ta->len * rhoa + tb->len * rhob +
                       l1norm(3, p));
  R = rhoa + rhob + 2 * step_band(3, a->c, a->e, va, b->c, b->e, vb);
  *lo = 0;
  *hi = 1;
  return !*finite || ball_window(3, p, w, R, lo, hi);
}

int obb3_sweep_turning(const obb3 *a, const obb3 *b, const double va[3],
                       const double vb[3], const double ra[3],
                       const double rb[3], double *t, double n[3]) {
  static const levels lv = {STANDOFF, 0.0, REPORT, 0.0};
  obb_axes3 ax;
  turn3 ta, tb;
  double depth, lo, hi;
  int finite;
  if (ra[0] == 0 && ra[1] == 0 && ra[2] == 0 && rb[0] == 0 && rb[1] == 0 &&
      rb[2] == 0)
    return obb3_sweep(a, b, va, vb, t, n);
  obb3_sat_axes(a, b, &ax);
  if (obb3_sat_min(a, b, &ax, n, &depth) >= 0) {
    *t = 0;
    return OBB_SWEEP_HIT;
  }
  make_turn3(ra, &ta);
  make_turn3(rb, &tb);
  if (!window3(a, b, va, vb, &ta, &tb, &finite, &lo, &hi))
    return OBB_SWEEP_NONE;
  return advance3(a, b, va, vb, &ta, &tb, finite, lo, hi, &lv, &ax, t, n);
}

int obb3_sweep_turning_within(const obb3 *a, const obb3 *b,
                              const double va[3], const double ra[3],
                              double floor, double *t, double n[3]) {
  static const double zero[3] = {0, 0, 0};
  obb_axes3 ax;
  turn3 ta, tb;
  levels lv;
  double depth, lo, hi, G, room;
  int finite;
  obb3_sat_axes(a, b, &ax);
  (void)widest3(&ax, &G);
  room = fmin(G + floor, floor);
  if (!(room > 0)) {
    if (obb3_sat_min(a, b, &ax, n, &depth) < 0) n[0] = n[1] = n[2] = 0;
    *t = 0;
    return OBB_SWEEP_HIT;
  }
  lv.ks = lv.kr = 0;
  lv.cs = STANDOFF * room - floor;
  lv.cr = REPORT * room - floor;
  make_turn3(ra, &ta);
  make_turn3(zero, &tb);
  if (!window3(a, b, va, zero, &ta, &tb, &finite, &lo, &hi))
    return OBB_SWEEP_NONE;
  return advance3(a, b, va, zero, &ta, &tb, finite, G > 0 ? lo : 0.0, hi,
                  &lv, &ax, t, n);
}
