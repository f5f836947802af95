/*
** obb_sat.h: the separating-axis candidates of a pair of boxes, shared by
** penetration, contacts and sweeps (internal).
**
** For a pair of boxes a, b the candidate axes are a's face normals, b's
** face normals and, in 3D, the normalised cross products of an edge
** direction of a with one of b (exactly parallel edges give no axis: the
** face axes cover that case). On a unit axis L, with d = b.c - a.c,
** s = d.L is the projected distance between the centers and r the sum of
** the two projection radii, so the boxes overlap on L iff |s| <= r, by
** r - |s|. These are the face normals of the Minkowski difference, so the
** least overlap over them is the exact penetration depth.
** Because the axes depend only on the boxes' orientations, the same list
** serves every translate of the pair (which is what a sweep needs).
*/
#ifndef OBB_SAT_H
#define OBB_SAT_H

#include "obb.h"

/* Axis ids, which are also the tie-breaking order: lower id wins a tie.
** 2D: 0, 1 are a's axes u, perp(u); 2, 3 are b's.
** 3D: 0..2 a's axes, 3..5 b's axes, 6 + 3*i + j the edge axis a_i x b_j. */
#define OBB_AXIS_EDGE 6

typedef struct obb_axes2 {
  double L[4][2];  /* unit axes */
  double s[4];     /* d . L */
  double r[4];     /* sum of projection radii on L */
  double scale;    /* |d| + all extents (L1): size of the configuration */
} obb_axes2;

typedef struct obb_axes3 {
  int n;           /* number of axes: 6 + the non-degenerate edge axes */
  int id[15];
  double L[15][3];
  double s[15];
  double r[15];
  double scale;
} obb_axes3;

void obb2_sat_axes(const obb2 *a, const obb2 *b, obb_axes2 *ax);
void obb3_sat_axes(const obb3 *a, const obb3 *b, obb_axes3 *ax);

/* The axis of least overlap: returns its index in ax (not its id) and sets
** n to the direction in which a must move to leave b (-L or L) and depth
** to the overlap (clamped to >= 0), or returns -1 when the boxes are apart.
** Whether they touch is decided as obbN_intersects decides it. */
int obb2_sat_min(const obb2 *a, const obb2 *b, const obb_axes2 *ax,
                 double n[2], double *depth);
int obb3_sat_min(const obb3 *a, const obb3 *b, const obb_axes3 *ax,
                 double n[3], double *depth);

/* Over a step t in [0, 1] in which the projected distance on axis k moves
** as s[k] + t * v[k], intersects the per-axis intervals on which
** |s(t)| <= r[k] + band, over the n axes (band may be negative: the
** movers of obb_move.c ask when the boxes overlap by more than a band).
** Returns the index of the axis entered last (ties, within the entry's
** rounding *t_err, go to the lower index), with its entry time in *t
** (clamped to >= 0) and the first exit in *t_out (clamped to <= 1), or -1
** when the intervals do not meet within [0, 1]. (obb_sweep.c) */
int obb_sat_entry(const double *s, const double *r, const double *v, int n,
                  double band, double *t, double *t_out, double *t_err);

#endif
