/*
** obb_clip.c: the movement math, pure: a velocity clipped against a
** normal (obb_clip), a move's goal clipped or mirrored against the plane
** of one contact (obb_clip_goal) and against every plane a move has met
** (obb_clip_planes, Quake's slide move). No world: the movers
** (obb_move.c) find the planes, these decide what remains of a move; a
** game that writes its own loop calls the same functions (Box2D's
** b2ClipVector and b2SolvePlanes are the model).
**
** Two rules keep slides exact. A goal is clipped as a point, not as the
** remainder from the move's start: goal - k n leaves every coordinate
** along the plane (n's zero components) bit for bit the goal's, so a slide
** along an axis-aligned wall ends exactly at the goal's coordinate, as
** bump.lua's does. And a remainder that goes into a plane only by rounding
** (less than 2^-40 of its length) counts as along it.
*/
#include <math.h>
#include <string.h>

#include "obb_world.h"
#include "obb_math.h"

/* How far, relative to its length, a remainder may go into a plane and
** still count as along it (rounding of the clip itself). */
#define INTO_TOL 0x1p-40

int obb_clip(int dim, const double *v, const double *n, double times,
             double *out) {
  double s[3], k = 0, nn = 0, big = 0;
  int i;
  for (i = 0; i < dim; i++) big = obb_fmax(big, fabs(n[i]));
  for (i = 0; i < dim; i++) out[i] = v[i];
  if (!(big > 0)) return 0;
  for (i = 0; i < dim; i++) { /* scaled: |n|^2 cannot overflow */
    s[i] = n[i] / big;
    nn += s[i] * s[i];
    k += v[i] * s[i];
  }
  if (k < 0) /* n's zero components left alone: -0 stays -0, and a huge
              ** k / nn times 0 would be NaN */
    for (i = 0; i < dim; i++)
      if (s[i] != 0) out[i] -= times * (k / nn) * s[i];
  return 1;
}

/* goal less k times the unit normal n (z = 0 in 2D); the coordinates
** along the plane (n's zero components) untouched, -0 included. Written
** out, as rest_of: a mover clips at every slide. */
static void push_goal(int dim, double *goal, const double n[3], double k) {
  if (n[0] != 0) goal[0] -= k * n[0];
  if (n[1] != 0) goal[1] -= k * n[1];
  if (dim == 3 && n[2] != 0) goal[2] -= k * n[2];
}

/* The axis n lies along (0, 1, 2), or -1 when it is not axis-aligned. */
static int aligned_axis(const double n[3]) {
  int i, axis = -1;
  for (i = 0; i < 3; i++) {
    if (n[i] == 0) continue;
    if (axis >= 0 || fabs(n[i]) != 1) return -1;
    axis = i;
  }
  return axis;
}

/* goal clipped to the plane through from with unit normal n, k being
** (goal - from) . n: push_goal's, but against an axis-aligned plane the
** coordinate across it is from's own. goal - (goal - from) is from only
** to the rounding of goal - from, which is the goal's, and a goal far
** beyond the scene (a move of 1e14 against a wall at x = 1) would leave
** the item that far inside the wall. */
static void clip_to(int dim, const double *from, double *goal,
                    const double n[3], double k) {
  int axis = aligned_axis(n);
  if (axis >= 0) goal[axis] = from[axis];
  else push_goal(dim, goal, n, k);
}

/* goal - from, z = 0 in 2D. */
static void rest_of(int dim, const double *from, const double *goal,
                      double r[3]) {
  r[0] = goal[0] - from[0];
  r[1] = goal[1] - from[1];
  r[2] = dim == 3 ? goal[2] - from[2] : 0;
}

int obb_clip_goal(int dim, const double *from, double *goal,
                  const double n[3], double times) {
  double r[3], k;
  rest_of(dim, from, goal, r);
  k = times * obb_dot3(r, n);
  if (!(k < 0)) return 0;
  if (times == 1) clip_to(dim, from, goal, n, k);
  else push_goal(dim, goal, n, k);
  return 1;
}

/* Whether v goes into none of the planes (beyond rounding). */
static inline int free_of(const double (*planes)[3], int nplanes,
                          const double v[3]) {
  double tol = INTO_TOL * sqrt(obb_dot3(v, v));
  int i;
  for (i = 0; i < nplanes; i++)
    if (obb_dot3(v, planes[i]) < -tol) return 0;
  return 1;
}

/* First against each plane alone: the first clip that goes into no plane
** and still goes forward. */
static int clip_one(int dim, const double *from, double *goal,
                    const double r[3],
                    const double (*planes)[3], int nplanes,
                    const double primal[3]) {
  double v[3], k;
  int i, q;
  for (i = 0; i < nplanes; i++) {
    k = obb_dot3(r, planes[i]);
    if (k >= 0) continue;
    for (q = 0; q < 3; q++) v[q] = r[q] - k * planes[i][q];
    if (free_of(planes, nplanes, v) && obb_dot3(v, primal) > 0) {
      clip_to(dim, from, goal, planes[i], k);
      return 1;
    }
  }
  return 0;
}

/* Then (3D) along the crease line of each pair of planes. */
static int clip_crease(const double *from, double *goal, const double r[3],
                       const double (*planes)[3], int nplanes,
                       const double primal[3]) {
  double v[3], d[3], k;
  int i, j, q;
  for (i = 0; i < nplanes; i++) {
    for (j = i + 1; j < nplanes; j++) {
      obb_cross3(planes[i], planes[j], d);
      if (!obb_normalize3(d)) continue;
      k = obb_dot3(r, d);
      for (q = 0; q < 3; q++) v[q] = k * d[q];
      if (free_of(planes, nplanes, v) && obb_dot3(v, primal) > 0) {
        for (q = 0; q < 3; q++) goal[q] = from[q] + v[q];
        return 1;
      }
    }
  }
  return 0;
}

int obb_clip_planes(int dim, const double *from, double *goal,
                    const double (*planes)[3], int nplanes,
                    const double primal[3]) {
  double r[3];
  rest_of(dim, from, goal, r);
  if (free_of(planes, nplanes, r)) return 1;
  if (clip_one(dim, from, goal, r, planes, nplanes, primal)) return 1;
  if (dim == 3 && clip_crease(from, goal, r, planes, nplanes, primal))
    return 1;
  memcpy(goal, from, (size_t)dim * sizeof(double));
  return 0;
}
