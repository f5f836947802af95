/*
** obb_hull2.h: planar convex hull and minimum-area enclosing rectangle
** (internal to the core; no Lua).
**
** Used by the 2D tight fit and, on projections, by the 3D tight fit.
*/
#ifndef OBB_HULL2_H
#define OBB_HULL2_H

#include <stddef.h>

/* Doubles of scratch obb_minrect2 needs for n points: a sorted copy (2n)
** and the hull under construction (up to 2n points, 4n), plus slack. */
#define OBB_MINRECT2_SCRATCH(n) (6 * (size_t)(n) + 4)

/* The minimum-area rectangle enclosing the n >= 1 finite points xy[2*i],
** xy[2*i+1]: u receives the unit direction of one of its sides and ext the
** rectangle's full side lengths along u and along perp(u) = (-u[1], u[0]).
** Exact up to rounding: the convex hull is built with exact orientation
** tests (monotone chain), then rotating calipers try every hull edge, one
** of which the optimal rectangle is known to contain (Freeman and Shapira,
** 1975). Areas within a relative 1e-12 count as tied and the smaller
** perimeter wins, so rounding does not decide between them. Degenerate sets: one distinct
** point gives u = (1, 0) and ext = 0; collinear points give u along the
** segment. Sides are measured on the hull, so callers that need exact
** enclosure re-measure the points along u. O(n log n), no allocation. */
void obb_minrect2(const double *xy, size_t n, double *scratch, double u[2],
                  double ext[2]);

#endif
