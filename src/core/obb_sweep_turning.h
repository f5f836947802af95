/*
** obb_sweep_turning.h: the turning sweep's advancement for a mover that
** already touches what it is swept against (internal; the movers of
** obb_move.c).
*/
#ifndef OBB_SWEEP_TURNING_H
#define OBB_SWEEP_TURNING_H

#include "obb.h"

/* Box a moves by va and turns by wa (2D: radians; 3D: a rotation vector,
** as obbN_sweep_turning takes them) over the step; b stands still. The
** two may be apart, touch, or overlap at the start: the question is when
** they could first overlap by more than floor (> 0, the deepest a mover
** may go: the touching band, obb_touch.h, at its least over the step), so
** that a box sliding from one tile onto its flush neighbour (apart from it
** until it gets there, then touching it as it touched the first) is not
** stopped at the seam. With G the start's largest gap over the separating
** axes (negative: overlapping) and room = min(G + floor, floor), the
** advancement keeps the gap along a separating direction above 3/8 room -
** floor, so no pose before *t overlaps by more than floor - 3/8 room, and
** stops at the first pose whose largest gap is at most 5/8 room - floor
** (below G: a stop is never at the start itself, and never deeper than
** floor). A pair that cannot overlap by more than floor at all (a flat box
** against a flat one, parallel) is never stopped: obb_move.c sweeps such
** pairs from apart with obbN_sweep_turning instead.
**   OBB_SWEEP_HIT: *t and the penetration normal there (a's way out); *t
**     = 0 when a already overlaps b by floor or more (room <= 0: whatever
**     it does might take it deeper).
**   OBB_SWEEP_NONE: never within [0, 1].
**   OBB_SWEEP_LIMIT: as obbN_sweep_turning: no such pose before *t,
**     nothing known after.
** The motion and its rounding are obbN_sweep_turning's; wa must not be 0
** (0 is a translation: obb_move.c's own test). */
int obb2_sweep_turning_within(const obb2 *a, const obb2 *b,
                              const double va[2], double wa, double floor,
                              double *t, double n[2]);
int obb3_sweep_turning_within(const obb3 *a, const obb3 *b,
                              const double va[3], const double ra[3],
                              double floor, double *t, double n[3]);

#endif
