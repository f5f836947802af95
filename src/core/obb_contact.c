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

int obb2_contacts(const obb2 *a, const obb2 *b, double n[2], double pts[6]) {
  obb_axes2 ax;
  const obb2 *ref, *inc;
  double depth, N[2], U[2][2], V[2][2], D[2], ic[2], w[2], tol;
  double x[2], z[2], lo, hi, dn0, dn1;
  int k, fa, ta, m, i, count = 0;
  obb2_sat_axes(a, b, &ax);
  k = obb2_sat_min(a, b, &ax, n, &depth);
  if (k < 0) return finish(0, n, 2, pts, 3 * OBB2_MAX_CONTACTS);
  tol = KEEP_ULPS * DBL_EPSILON * ax.scale + obb2_pair_band(a, b);
  /* The reference face's outward normal N points at the incident box. */
  if (k < 2) {
    ref = a; inc = b; N[0] = -n[0]; N[1] = -n[1];
  } else {
    ref = b; inc = a; N[0] = n[0]; N[1] = n[1];
  }
  fa = k & 1; /* the axis the face is normal to; ta runs along the face */
  ta = 1 - fa;
  U[0][0] = ref->u[0]; U[0][1] = ref->u[1];
  U[1][0] = -ref->u[1]; U[1][1] = ref->u[0];
  V[0][0] = inc->u[0]; V[0][1] = inc->u[1];
  V[1][0] = -inc->u[1]; V[1][1] = inc->u[0];
  D[0] = inc->c[0] - ref->c[0];
  D[1] = inc->c[1] - ref->c[1];
  /* The incident face: the one whose outward normal is most opposed to N. */
  dn0 = obb_dot2(N, V[0]);
  dn1 = obb_dot2(N, V[1]);
  m = fabs(dn1) > fabs(dn0) + TIE_SCALE ? 1 : 0; /* ties: see TIE_SCALE */
  {
    double sm = (m == 0 ? dn0 : dn1) >= 0 ? -inc->e[m] : inc->e[m];
    ic[0] = D[0] + sm * V[m][0];
    ic[1] = D[1] + sm * V[m][1];
  }
  /* Its two ends in the reference face's frame: x along the face from
  ** its middle, z above the face (negative below). */
  for (i = 0; i < 2; i++) {
    double s = (i == 0 ? -1 : 1) * inc->e[1 - m];
    w[0] = ic[0] + s * V[1 - m][0];
    w[1] = ic[1] + s * V[1 - m][1];
    x[i] = obb_dot2(w, U[ta]);
    z[i] = obb_dot2(w, N) - ref->e[fa];
  }
  /* Clip the segment to the face's extent |x| <= h, as parameters. Ends
  ** within tol of a side are first put on it, so that an incident face
  ** touching the side is not lost to rounding. */
  {
    double h = ref->e[ta];
    for (i = 0; i < 2; i++) x[i] = snap(x[i], h, tol);
    if (x[0] == x[1]) {
      lo = fabs(x[0]) <= h ? 0 : 1;
      hi = fabs(x[0]) <= h ? 1 : 0;
    } else {
      double la = (-h - x[0]) / (x[1] - x[0]), lb = (h - x[0]) / (x[1] - x[0]);
      lo = fmax(0.0, fmin(la, lb));
      hi = fmin(1.0, fmax(la, lb));
    }
    for (i = 0; i < 2 && lo <= hi; i++) {
      double l = i == 0 ? lo : hi;
      double px = fmin(h, fmax(-h, (1 - l) * x[0] + l * x[1]));
      double pz = (1 - l) * z[0] + l * z[1];
      if (pz > tol) continue;
      if (count == 1 && fabs(px - pts[0]) <= tol && fabs(pz - pts[1]) <= tol)
        continue; /* the same point twice (a point-like face) */
      pts[3 * count] = px;
      pts[3 * count + 1] = pz;
      count++;
    }
  }
  if (count == 0) { /* not expected: the deepest vertex, onto the face */
    i = z[1] < z[0] ? 1 : 0;
    pts[0] = fmin(ref->e[ta], fmax(-ref->e[ta], x[i]));
    pts[1] = z[i];
    count = 1;
  }
  /* To world space, midway between the surfaces. */
  for (i = 0; i < count; i++) {
    /* depths within [0, penetration depth], as they are exactly */
    double px = pts[3 * i], pz = fmax(fmin(pts[3 * i + 1], 0.0), -depth);
    double f = ref->e[fa] + 0.5 * pz;
    pts[3 * i] = ref->c[0] + (f * N[0] + px * U[ta][0]);
    pts[3 * i + 1] = ref->c[1] + (f * N[1] + px * U[ta][1]);
    pts[3 * i + 2] = 0.0 - pz; /* not -0.0 */
  }
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
    ext = fmax(ext, fabs(p[i][0] - p[0][0]) + fabs(p[i][1] - p[0][1]));
  tie2 = tie * fmin(scale, 4 * ext);
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
  t = fmin(b->e[j], fmax(-b->e[j], t));
  s = fmin(a->e[i], fmax(-a->e[i], c * t - uw));
  for (q = 0; q < 3; q++)
    pts[q] = a->c[q] + 0.5 * ((pa[q] + s * u[q]) + (pb[q] + t * v[q]));
  pts[3] = depth;
}

int obb3_contacts(const obb3 *a, const obb3 *b, double n[3],
                  double pts[16]) {
  obb_axes3 ax;
  const obb3 *ref, *inc;
  double depth, N[3], D[3], dn[3], ic[3], e1[3], e2[3], tol;
  double buf[2][CLIP_MAX][3], (*p)[3];
  int k, id, fa, t1, t2, m, m1, m2, i, q, count;
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
  if (id < 3) {
    ref = a; inc = b; fa = id;
    for (q = 0; q < 3; q++) N[q] = -n[q];
  } else {
    ref = b; inc = a; fa = id - 3;
    for (q = 0; q < 3; q++) N[q] = n[q];
  }
  t1 = (fa + 1) % 3;
  t2 = (fa + 2) % 3;
  for (q = 0; q < 3; q++) D[q] = inc->c[q] - ref->c[q];
  /* The incident face, most opposed to N, in the reference face's frame
  ** (x along axis t1, y along t2, z above the face): its center ic and
  ** its two half edges e1, e2. */
  for (i = 0; i < 3; i++) dn[i] = obb_dot3(N, inc->u[i]);
  m = 0;
  for (i = 1; i < 3; i++)
    if (fabs(dn[i]) > fabs(dn[m]) + TIE_SCALE) m = i;
  m1 = (m + 1) % 3;
  m2 = (m + 2) % 3;
  {
    double w[3], sm = dn[m] >= 0 ? -inc->e[m] : inc->e[m];
    for (q = 0; q < 3; q++) w[q] = D[q] + sm * inc->u[m][q];
    ic[0] = obb_dot3(w, ref->u[t1]);
    ic[1] = obb_dot3(w, ref->u[t2]);
    ic[2] = obb_dot3(w, N) - ref->e[fa];
    e1[0] = inc->e[m1] * obb_dot3(inc->u[m1], ref->u[t1]);
    e1[1] = inc->e[m1] * obb_dot3(inc->u[m1], ref->u[t2]);
    e1[2] = inc->e[m1] * dn[m1];
    e2[0] = inc->e[m2] * obb_dot3(inc->u[m2], ref->u[t1]);
    e2[1] = inc->e[m2] * obb_dot3(inc->u[m2], ref->u[t2]);
    e2[2] = inc->e[m2] * dn[m2];
  }
  p = buf[0];
  for (i = 0; i < 4; i++) { /* (-,-), (+,-), (+,+), (-,+): a cycle */
    double s1 = i == 1 || i == 2 ? 1 : -1, s2 = i >= 2 ? 1 : -1;
    for (q = 0; q < 3; q++) p[i][q] = ic[q] + s1 * e1[q] + s2 * e2[q];
  }
  /* Vertices within tol of a side plane are put on it first (as in 2D). */
  for (i = 0; i < 4; i++) {
    p[i][0] = snap(p[i][0], ref->e[t1], tol);
    p[i][1] = snap(p[i][1], ref->e[t2], tol);
  }
  count = 4;
  count = clip_plane(buf[0], count, buf[1], 0, 1, ref->e[t1]);
  count = clip_plane(buf[1], count, buf[0], 0, -1, ref->e[t1]);
  count = clip_plane(buf[0], count, buf[1], 1, 1, ref->e[t2]);
  count = clip_plane(buf[1], count, buf[0], 1, -1, ref->e[t2]);
  /* Drop the vertices above the face, then repeated ones (zero extents
  ** fold the polygon onto a segment or a point; clipping at a corner
  ** repeats it), keeping the first of each. */
  {
    int kept = 0, j;
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
    count = kept;
  }
  if (count == 0) { /* not expected: the deepest vertex, onto the face */
    int deepest = 0;
    double v[4][3];
    for (i = 0; i < 4; i++) {
      double s1 = i == 1 || i == 2 ? 1 : -1, s2 = i >= 2 ? 1 : -1;
      for (q = 0; q < 3; q++) v[i][q] = ic[q] + s1 * e1[q] + s2 * e2[q];
      if (v[i][2] < v[deepest][2]) deepest = i;
    }
    p[0][0] = fmin(ref->e[t1], fmax(-ref->e[t1], v[deepest][0]));
    p[0][1] = fmin(ref->e[t2], fmax(-ref->e[t2], v[deepest][1]));
    p[0][2] = v[deepest][2];
    count = 1;
  }
  if (count > 4) count = reduce4(p, count, ax.scale);
  for (i = 0; i < count; i++) {
    double z = fmax(fmin(p[i][2], 0.0), -depth), f = ref->e[fa] + 0.5 * z;
    for (q = 0; q < 3; q++)
      pts[4 * i + q] = ref->c[q] + (f * N[q] + p[i][0] * ref->u[t1][q] +
                                    p[i][1] * ref->u[t2][q]);
    pts[4 * i + 3] = 0.0 - z;
  }
  return finish(count, n, 3, pts, 4 * OBB3_MAX_CONTACTS);
}
