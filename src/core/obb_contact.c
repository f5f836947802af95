/*
** obb_contact.c: contact manifolds of intersecting boxes, by reference
** face clipping (Sutherland-Hodgman, as in Box2D and ODE's dBoxBox).
**
** The normal and the deepest depth are those of obbN_penetration. When its
** axis is a face normal of one box (the reference box), the face of the
** other box (the incident box) most opposed to that normal is clipped to
** the side planes of the reference face; the clipped vertices that lie on
** or below the reference face are the contacts, each with its depth below
** that face. In 3D an edge-edge axis gives one contact, between the two
** edges. Every contact point lies midway between the two surfaces: halfway
** between the incident vertex and its projection on the reference face
** (for an edge pair, halfway between the edges' closest points), so the
** manifold is the same, up to the normal's sign, whichever box comes
** first. All work is done relative to the reference box's center, which
** keeps large coordinates from costing precision.
*/
#include "obb.h"
#include "obb_exact.h"
#include "obb_math.h"
#include "obb_sat.h"
#include "obb_touch.h"

/* Clipped vertices within this many ulps of the configuration's size,
** plus the touching band (obb_touch.h), of the reference face still count
** (at depth 0), and count once when they coincide: touching boxes keep
** their contacts despite rounding. */
#define KEEP_ULPS 64
/* Ties: choices between candidates (which incident face, which contacts
** to keep) within this much of each other, relative to the quantity's
** natural size, go to the earlier candidate, never to rounding, so a
** rigid motion of both boxes keeps the same choice. */
#define TIE_SCALE 1e-12

/* x, or +-h when it is within tol of that. */
static double snap(double x, double h, double tol) {
  if (fabs(x - h) <= tol) return h;
  if (fabs(x + h) <= tol) return -h;
  return x;
}

/* Zeros from slot `from` of the manifold on (pts holds `size` numbers),
** and the normal too when nothing touches: every output is written. */
static int finish(int count, double *n, int dim, double *pts, int size) {
  int i;
  if (count == 0)
    for (i = 0; i < dim; i++) n[i] = 0.0;
  for (i = count * (dim + 1); i < size; i++) pts[i] = 0.0;
  return count;
}

/* ---- 2D ------------------------------------------------------------- */

/* A 2D manifold's reference face, and the incident face's two ends in its
** frame: x along the face from its middle, z above it (negative below). */
typedef struct face2 {
  const obb2 *ref, *inc;
  double N[2];     /* the face's outward normal: it points at inc */
  double U[2][2];  /* ref's axes */
  double x[2], z[2];
  int fa, ta;      /* the axis the face is normal to; ta runs along it */
} face2;

/* The reference face of axis k (obb2_sat_min's) and its frame. */
static void reference_face2(const obb2 *a, const obb2 *b, int k,
                            const double n[2], face2 *cf) {
  const obb2 *ref;
  if (k < 2) {
    cf->ref = ref = a; cf->inc = b; cf->N[0] = -n[0]; cf->N[1] = -n[1];
  } else {
    cf->ref = ref = b; cf->inc = a; cf->N[0] = n[0]; cf->N[1] = n[1];
  }
  cf->fa = k & 1;
  cf->ta = 1 - cf->fa;
  cf->U[0][0] = ref->u[0]; cf->U[0][1] = ref->u[1];
  cf->U[1][0] = -ref->u[1]; cf->U[1][1] = ref->u[0];
}

/* The incident face, the one whose outward normal is most opposed to N:
** its two ends x, z in the reference face's frame. */
static void incident_ends2(face2 *cf) {
  const obb2 *ref = cf->ref, *inc = cf->inc;
  double V[2][2], D[2], ic[2], w[2], dn0, dn1;
  int m, i;
  V[0][0] = inc->u[0]; V[0][1] = inc->u[1];
  V[1][0] = -inc->u[1]; V[1][1] = inc->u[0];
  D[0] = inc->c[0] - ref->c[0];
  D[1] = inc->c[1] - ref->c[1];
  dn0 = obb_dot2(cf->N, V[0]);
  dn1 = obb_dot2(cf->N, V[1]);
  m = fabs(dn1) > fabs(dn0) + TIE_SCALE ? 1 : 0; /* ties: see TIE_SCALE */
  {
    double sm = (m == 0 ? dn0 : dn1) >= 0 ? -inc->e[m] : inc->e[m];
    ic[0] = D[0] + sm * V[m][0];
    ic[1] = D[1] + sm * V[m][1];
  }
  for (i = 0; i < 2; i++) {
    double s = (i == 0 ? -1 : 1) * inc->e[1 - m];
    w[0] = ic[0] + s * V[1 - m][0];
    w[1] = ic[1] + s * V[1 - m][1];
    cf->x[i] = obb_dot2(w, cf->U[cf->ta]);
    cf->z[i] = obb_dot2(w, cf->N) - ref->e[cf->fa];
  }
}

/* Clips the incident segment to the face's extent |x| <= h, as parameters,
** and keeps the clipped ends on or below the face as pts (x, z each);
** returns how many. Ends within tol of a side are first put on it, so that
** an incident face touching the side is not lost to rounding. */
static int clip_ends2(face2 *cf, double tol, double pts[6]) {
  double h = cf->ref->e[cf->ta], *x = cf->x, *z = cf->z, lo, hi;
  int i, count = 0;
  for (i = 0; i < 2; i++) x[i] = snap(x[i], h, tol);
  if (x[0] == x[1]) {
    lo = fabs(x[0]) <= h ? 0 : 1;
    hi = fabs(x[0]) <= h ? 1 : 0;
  } else {
    double la = (-h - x[0]) / (x[1] - x[0]), lb = (h - x[0]) / (x[1] - x[0]);
    lo = obb_fmax(0.0, obb_fmin(la, lb));
    hi = obb_fmin(1.0, obb_fmax(la, lb));
  }
  for (i = 0; i < 2 && lo <= hi; i++) {
    double l = i == 0 ? lo : hi;
    double px = obb_fmin(h, obb_fmax(-h, (1 - l) * x[0] + l * x[1]));
    double pz = (1 - l) * z[0] + l * z[1];
    if (pz > tol) continue;
    if (count == 1 && fabs(px - pts[0]) <= tol && fabs(pz - pts[1]) <= tol)
      continue; /* the same point twice (a point-like face) */
    pts[3 * count] = px;
    pts[3 * count + 1] = pz;
    count++;
  }
  return count;
}

/* The deepest end, onto the face, when clipping kept none; returns 1. */
static int deepest_end2(const face2 *cf, double pts[6]) {
  int i = cf->z[1] < cf->z[0] ? 1 : 0;
  pts[0] = obb_fmin(cf->ref->e[cf->ta], obb_fmax(-cf->ref->e[cf->ta], cf->x[i]));
  pts[1] = cf->z[i];
  return 1;
}

/* The points (x, z) to world space, midway between the surfaces, each
** with its depth. */
static void to_world2(const face2 *cf, int count, double depth,
                      double pts[6]) {
  const obb2 *ref = cf->ref;
  const double *N = cf->N, *T = cf->U[cf->ta];
  int i;
  for (i = 0; i < count; i++) {
    /* depths within [0, penetration depth], as they are exactly */
    double px = pts[3 * i], pz = obb_fmax(obb_fmin(pts[3 * i + 1], 0.0), -depth);
    double f = ref->e[cf->fa] + 0.5 * pz;
    pts[3 * i] = ref->c[0] + (f * N[0] + px * T[0]);
    pts[3 * i + 1] = ref->c[1] + (f * N[1] + px * T[1]);
    pts[3 * i + 2] = 0.0 - pz; /* not -0.0 */
  }
}

/* The reference face, the incident face's ends clipped to it, and the
** points kept, in world space. */
int obb2_contacts(const obb2 *a, const obb2 *b, double n[2], double pts[6]) {
  obb_axes2 ax;
  face2 cf;
  double depth, tol;
  int k, count;
  obb2_sat_axes(a, b, &ax);
  k = obb2_sat_min(a, b, &ax, n, &depth);
  if (k < 0) return finish(0, n, 2, pts, 3 * OBB2_MAX_CONTACTS);
  tol = KEEP_ULPS * DBL_EPSILON * ax.scale + obb2_pair_band(a, b);
  reference_face2(a, b, k, n, &cf);
  incident_ends2(&cf);
  count = clip_ends2(&cf, tol, pts);
  if (count == 0) count = deepest_end2(&cf, pts); /* not expected */
  to_world2(&cf, count, depth, pts);
  return finish(count, n, 2, pts, 3 * OBB2_MAX_CONTACTS);
}

/* ---- 3D ------------------------------------------------------------- */

#define CLIP_MAX 64 /* Sutherland-Hodgman on a quad: 8 in exact arithmetic */

/* Clips polygon p (n points, coordinates x, y, z) to sign * p[c] <= h;
** new vertices lie exactly on the plane. */
static int clip_plane(double (*p)[3], int n, double (*out)[3], int c,
                      double sign, double h) {
  int i, m = 0;
  for (i = 0; i < n; i++) {
    const double *P = p[i], *Q = p[(i + 1) % n];
    double dp = sign * P[c] - h, dq = sign * Q[c] - h;
    if (dp <= 0 && m < CLIP_MAX) {
      out[m][0] = P[0]; out[m][1] = P[1]; out[m][2] = P[2];
      m++;
    }
    if (((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) && m < CLIP_MAX) {
      double l = dp / (dp - dq);
      int k;
      for (k = 0; k < 3; k++) out[m][k] = P[k] + l * (Q[k] - P[k]);
      out[m][c] = sign * h;
      m++;
    }
  }
  return m;
}

static double area2(const double *A, const double *B, const double *C) {
  return (B[0] - A[0]) * (C[1] - A[1]) - (B[1] - A[1]) * (C[0] - A[0]);
}

/* Keeps 4 of n > 4 points (x, y in the face plane, z height): the deepest,
** the one farthest from it, the one making the largest triangle with those
** two, and the one adding the most area outside that triangle (Gregorius,
** "Robust contact creation for physics simulations", GDC 2015). Candidates
** within a tie of the best count as equal and the earlier wins: clipped
** polygons have parallel edges, so exact ties are common, and the choice
** must not depend on rounding (a rigid motion of both boxes keeps the same
** points). The points are known to TIE_SCALE of the configuration's size,
** scale, which is the tie for heights; a squared distance or an area of
** the polygon is then known to about 4 * tie * its extent, so that is the
** tie for those, and never more than tie * scale: a small patch on a large
** box (a 100-wide face 2e8 from the origin) keeps its 4 points instead of
** drowning in a tie as large as its area. The kept points stay in polygon
** order. */
static int reduce4(double (*p)[3], int n, double scale) {
  int pick[4], keep[CLIP_MAX] = {0}, i, j, m = 0;
  double best, sc, tie = TIE_SCALE * scale, tie2, ext = 0;
  for (i = 1; i < n; i++)
    ext = obb_fmax(ext, fabs(p[i][0] - p[0][0]) + fabs(p[i][1] - p[0][1]));
  tie2 = tie * obb_fmin(scale, 4 * ext);
  pick[0] = 0;
  for (i = 1; i < n; i++)
    if (p[i][2] < p[pick[0]][2] - tie) pick[0] = i;
  /* best starts at -inf, not -1: tie2 can exceed 1, and a first
  ** candidate must always be taken (a cluster of points within
  ** sqrt(tie2 - 1) of the deepest once left pick[1] unset) */
  pick[1] = -1;
  best = -HUGE_VAL;
  for (i = 0; i < n; i++) {
    double dx = p[i][0] - p[pick[0]][0], dy = p[i][1] - p[pick[0]][1];
    if (i != pick[0] && dx * dx + dy * dy > best + tie2) {
      best = dx * dx + dy * dy;
      pick[1] = i;
    }
  }
  if (pick[1] < 0) return 4; /* NaN from overflow: any 4 */
  best = -HUGE_VAL;
  pick[2] = -1;
  for (i = 0; i < n; i++) {
    double s = fabs(area2(p[pick[0]], p[pick[1]], p[i]));
    if (i != pick[0] && i != pick[1] && s > best + tie2) {
      best = s;
      pick[2] = i;
    }
  }
  if (pick[2] < 0) return 4; /* NaN from overflow: any 4 */
  sc = area2(p[pick[0]], p[pick[1]], p[pick[2]]) >= 0 ? 1 : -1;
  best = tie2;
  pick[3] = -1;
  for (i = 0; i < n; i++) {
    double out = 0;
    for (j = 0; j < 3; j++) { /* area outside edge j of the triangle */
      double s = -sc * area2(p[pick[j]], p[pick[(j + 1) % 3]], p[i]);
      if (s > out) out = s;
    }
    if (out > best + tie2) {
      best = out;
      pick[3] = i;
    }
  }
  for (i = 0; i < 4; i++)
    if (pick[i] >= 0) keep[pick[i]] = 1;
  for (i = 0; i < n; i++)
    if (keep[i]) {
      p[m][0] = p[i][0]; p[m][1] = p[i][1]; p[m][2] = p[i][2];
      m++;
    }
  return m;
}

/* The single contact of an edge-edge axis: edge a_i of a and edge b_j of
** b, each the one nearest the other box along the normal. */
static void edge_contact(const obb3 *a, const obb3 *b, int i, int j,
                         const double n[3], double depth, double pts[4]) {
  double pa[3], pb[3], w[3], cr[3], c, denom, uw, vw, s, t;
  const double *u = a->u[i], *v = b->u[j];
  int k, q;
  /* a moves along n to leave b, so b lies towards -n from a. */
  for (q = 0; q < 3; q++) {
    pa[q] = 0;
    pb[q] = b->c[q] - a->c[q];
  }
  for (k = 0; k < 3; k++) {
    double sa = obb_dot3(a->u[k], n) <= 0 ? a->e[k] : -a->e[k];
    double sb = obb_dot3(b->u[k], n) >= 0 ? b->e[k] : -b->e[k];
    for (q = 0; q < 3; q++) {
      if (k != i) pa[q] += sa * a->u[k][q];
      if (k != j) pb[q] += sb * b->u[k][q];
    }
  }
  /* Closest points pa + s u, pb + t v of the two edge lines. */
  for (q = 0; q < 3; q++) w[q] = pa[q] - pb[q];
  cr[0] = obb_diff_of_products(u[1], v[2], u[2], v[1]);
  cr[1] = obb_diff_of_products(u[2], v[0], u[0], v[2]);
  cr[2] = obb_diff_of_products(u[0], v[1], u[1], v[0]);
  denom = obb_dot3(cr, cr);
  c = obb_dot3(u, v);
  uw = obb_dot3(u, w);
  vw = obb_dot3(v, w);
  t = (vw - c * uw) / denom;
  if (!obb_finite(t)) t = 0;
  t = obb_fmin(b->e[j], obb_fmax(-b->e[j], t));
  s = obb_fmin(a->e[i], obb_fmax(-a->e[i], c * t - uw));
  for (q = 0; q < 3; q++)
    pts[q] = a->c[q] + 0.5 * ((pa[q] + s * u[q]) + (pb[q] + t * v[q]));
  pts[3] = depth;
}

/* A 3D manifold's reference face, and the incident face in its frame (x
** along axis t1, y along t2, z above the face). */
typedef struct face3 {
  const obb3 *ref, *inc;
  double N[3];  /* the face's outward normal: it points at inc */
  double ic[3], e1[3], e2[3]; /* the incident face's center, half edges */
  int fa, t1, t2; /* the axis the face is normal to; those along it */
} face3;

/* The reference face of axis id (a face axis of a, 0..2, or of b) and its
** frame. */
static void reference_face3(const obb3 *a, const obb3 *b, int id,
                            const double n[3], face3 *cf) {
  int q;
  if (id < 3) {
    cf->ref = a; cf->inc = b; cf->fa = id;
    for (q = 0; q < 3; q++) cf->N[q] = -n[q];
  } else {
    cf->ref = b; cf->inc = a; cf->fa = id - 3;
    for (q = 0; q < 3; q++) cf->N[q] = n[q];
  }
  cf->t1 = (cf->fa + 1) % 3;
  cf->t2 = (cf->fa + 2) % 3;
}

/* The incident face, most opposed to N: its center ic and its two half
** edges e1, e2 in the reference face's frame. */
static void incident_face3(face3 *cf) {
  const obb3 *ref = cf->ref, *inc = cf->inc;
  const double *u1 = ref->u[cf->t1], *u2 = ref->u[cf->t2];
  double D[3], dn[3], w[3], sm;
  int i, q, m, m1, m2;
  for (q = 0; q < 3; q++) D[q] = inc->c[q] - ref->c[q];
  for (i = 0; i < 3; i++) dn[i] = obb_dot3(cf->N, inc->u[i]);
  m = 0;
  for (i = 1; i < 3; i++)
    if (fabs(dn[i]) > fabs(dn[m]) + TIE_SCALE) m = i;
  m1 = (m + 1) % 3;
  m2 = (m + 2) % 3;
  sm = dn[m] >= 0 ? -inc->e[m] : inc->e[m];
  for (q = 0; q < 3; q++) w[q] = D[q] + sm * inc->u[m][q];
  cf->ic[0] = obb_dot3(w, u1);
  cf->ic[1] = obb_dot3(w, u2);
  cf->ic[2] = obb_dot3(w, cf->N) - ref->e[cf->fa];
  cf->e1[0] = inc->e[m1] * obb_dot3(inc->u[m1], u1);
  cf->e1[1] = inc->e[m1] * obb_dot3(inc->u[m1], u2);
  cf->e1[2] = inc->e[m1] * dn[m1];
  cf->e2[0] = inc->e[m2] * obb_dot3(inc->u[m2], u1);
  cf->e2[1] = inc->e[m2] * obb_dot3(inc->u[m2], u2);
  cf->e2[2] = inc->e[m2] * dn[m2];
}

/* The incident face's 4 corners into v, in order around it: (-,-), (+,-),
** (+,+), (-,+) along e1, e2. */
static void incident_corners(const face3 *cf, double (*v)[3]) {
  int i, q;
  for (i = 0; i < 4; i++) {
    double s1 = i == 1 || i == 2 ? 1 : -1, s2 = i >= 2 ? 1 : -1;
    for (q = 0; q < 3; q++)
      v[i][q] = cf->ic[q] + s1 * cf->e1[q] + s2 * cf->e2[q];
  }
}

/* Clips the incident face to the reference face's 4 side planes, into
** buf[0]; returns its vertex count. Vertices within tol of a side plane
** are put on it first (as in 2D). */
static int clip_face3(const face3 *cf, double buf[2][CLIP_MAX][3],
                      double tol) {
  double (*p)[3] = buf[0], h1 = cf->ref->e[cf->t1], h2 = cf->ref->e[cf->t2];
  int i, count = 4;
  incident_corners(cf, p);
  for (i = 0; i < 4; i++) {
    p[i][0] = snap(p[i][0], h1, tol);
    p[i][1] = snap(p[i][1], h2, tol);
  }
  count = clip_plane(buf[0], count, buf[1], 0, 1, h1);
  count = clip_plane(buf[1], count, buf[0], 0, -1, h1);
  count = clip_plane(buf[0], count, buf[1], 1, 1, h2);
  count = clip_plane(buf[1], count, buf[0], 1, -1, h2);
  return count;
}

/* Drops the vertices above the face, then repeated ones (zero extents
** fold the polygon onto a segment or a point; clipping at a corner
** repeats it), keeping the first of each; returns how many are left. */
static int drop_above_and_repeats(double (*p)[3], int count, double tol) {
  int kept = 0, i, j, q;
  for (i = 0; i < count; i++) {
    const double *P = p[i];
    int dup = P[2] > tol;
    for (j = 0; j < kept && !dup; j++)
      dup = fabs(P[0] - p[j][0]) <= tol && fabs(P[1] - p[j][1]) <= tol &&
            fabs(P[2] - p[j][2]) <= tol;
    if (dup) continue;
    for (q = 0; q < 3; q++) p[kept][q] = P[q];
    kept++;
  }
  return kept;
}

/* The deepest incident corner, onto the face, as p[0] when clipping kept
** nothing; returns 1. */
static int deepest_corner3(const face3 *cf, double (*p)[3]) {
  const obb3 *ref = cf->ref;
  double v[4][3];
  int i, deepest = 0;
  incident_corners(cf, v);
  for (i = 1; i < 4; i++)
    if (v[i][2] < v[deepest][2]) deepest = i;
  p[0][0] = obb_fmin(ref->e[cf->t1], obb_fmax(-ref->e[cf->t1], v[deepest][0]));
  p[0][1] = obb_fmin(ref->e[cf->t2], obb_fmax(-ref->e[cf->t2], v[deepest][1]));
  p[0][2] = v[deepest][2];
  return 1;
}

/* The points p (x, y, z) to world space, midway between the surfaces,
** each with its depth. */
static void to_world3(const face3 *cf, double (*p)[3], int count,
                      double depth, double pts[16]) {
  const obb3 *ref = cf->ref;
  const double *N = cf->N, *u1 = ref->u[cf->t1], *u2 = ref->u[cf->t2];
  int i, q;
  for (i = 0; i < count; i++) {
    double z = obb_fmax(obb_fmin(p[i][2], 0.0), -depth), f = ref->e[cf->fa] + 0.5 * z;
    for (q = 0; q < 3; q++)
      pts[4 * i + q] = ref->c[q] + (f * N[q] + p[i][0] * u1[q] +
                                    p[i][1] * u2[q]);
    pts[4 * i + 3] = 0.0 - z;
  }
}

/* One point for an edge pair; else the reference face, the incident face
** clipped to it, and the points kept (4 at most), in world space. */
int obb3_contacts(const obb3 *a, const obb3 *b, double n[3],
                  double pts[16]) {
  obb_axes3 ax;
  face3 cf;
  double depth, tol, buf[2][CLIP_MAX][3];
  int k, id, count;
  obb3_sat_axes(a, b, &ax);
  k = obb3_sat_min(a, b, &ax, n, &depth);
  if (k < 0) return finish(0, n, 3, pts, 4 * OBB3_MAX_CONTACTS);
  id = ax.id[k];
  if (id >= OBB_AXIS_EDGE) {
    edge_contact(a, b, (id - OBB_AXIS_EDGE) / 3, (id - OBB_AXIS_EDGE) % 3, n,
                 depth, pts);
    return finish(1, n, 3, pts, 4 * OBB3_MAX_CONTACTS);
  }
  tol = KEEP_ULPS * DBL_EPSILON * ax.scale + obb3_pair_band(a, b);
  reference_face3(a, b, id, n, &cf);
  incident_face3(&cf);
  count = clip_face3(&cf, buf, tol);
  count = drop_above_and_repeats(buf[0], count, tol);
  if (count == 0) count = deepest_corner3(&cf, buf[0]); /* not expected */
  if (count > 4) count = reduce4(buf[0], count, ax.scale);
  to_world3(&cf, buf[0], count, depth, pts);
  return finish(count, n, 3, pts, 4 * OBB3_MAX_CONTACTS);
}
