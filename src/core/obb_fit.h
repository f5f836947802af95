/*
** obb_fit.h: what the point fits share (internal).
*/
#ifndef OBB_FIT_H
#define OBB_FIT_H

#include "obb.h"

/* The box with axes u (2D: axis 0) enclosing n points, measured from the
** reference point ref (near the points, to keep offsets small): their
** extremes along each axis give the center, then each point's distance
** from that center, taken with obbN_local (the arithmetic of
** obbN_contains_point), gives the half extents, so every point is
** contained exactly, not just up to rounding. Fails with OBB_ENOTFINITE,
** leaving b untouched, when the result overflows. */
/* Every fit's first step: at least one point, every coordinate finite, and
** no coordinate's spread (max - min) beyond the range of doubles, where
** the fits' differences would overflow: OBB_EEMPTY or OBB_ENOTFINITE. */
obb_status obb_check_points(const double *p, size_t n, int dim);

obb_status obb2_enclose_points(obb2 *b, const double *xy, size_t n,
                               const double ref[2], const double u[2]);
obb_status obb3_enclose_points(obb3 *b, const double *xyz, size_t n,
                               const double ref[3], const double u[3][3]);

#endif
