/*
** obb_events_impl.h: how sensors and events (obb_events.c) hook into a
** world's life (obb_world.c) and its movers (obb_move.c) (internal).
**
** A world without sensors has no events state (NULL): each hook is then a
** pointer test in the world's own code.
*/
#ifndef OBB_EVENTS_IMPL_H
#define OBB_EVENTS_IMPL_H

#include "obb_events.h"

typedef struct obb_events obb_events;

/* ---- what obb_events.c asks of the world (obb_world.c) ---------------- */

/* The world's events state (NULL until a sensor is first marked). */
obb_events **obb_world_events_slot(obb_world *w);
/* The world's allocator. */
obb_alloc obb_world_allocator(const obb_world *w, void **ud);
/* How many ids the world has room for (every id is below). */
int obb_world_capacity(const obb_world *w);
/* A held id back to the world's free ids. */
void obb_world_unhold(obb_world *w, int id);
/* An emptied world with no id held gives its memory back (as a remove of
** the last item does). */
void obb_world_settle(obb_world *w);

/* ---- the hooks (obb_events.c) ----------------------------------------- */

/* The world grows to cap ids: 0 when memory runs out (the world does not
** grow). */
int obb_events_reserve(obb_world *w, int cap);
/* Item id was added. */
void obb_events_added(obb_world *w, int id);
/* Item id gets box (old: the box it has until then): the world's events
** state ev passed as it is, the hook of every update. A move's commit is
** told by the item, the box, and no other change of the world since the
** move ended (the state counts the changes it is told of). */
void obb_events_updated(obb_events *ev, int id, const void *box,
                        const void *old);
/* Item id leaves (its box is still there): its pairs end. Returns 1 when
** the id must be held (events name it), 0 when it is free at once. */
int obb_events_removed(obb_world *w, int id);
/* Whether no id is held (nothing queued): an emptied world may then free
** its memory. */
int obb_events_idle(const obb_world *w);
/* Frees the events state (the world is emptied or freed). */
void obb_events_free(obb_world *w);
size_t obb_events_memory(const obb_world *w);

/* The events queued now, without looking again at what changed (the
** binding reads them one by one while Lua code may run): their count,
** *events pointing at them (valid until the world next changes). */
int obb_events_queue(obb_world *w, const obb_event **events);

/* For the movers, as a move of item id starts: the sensor flags by id, or
** NULL when the world has no sensor (a move then does nothing more); the
** state into *ev, and into *quiet whether the item is no sensor and pairs
** with none (a move of it that no sensor is near has no event). */
const unsigned char *obb_events_sensors(obb_world *w, int id, obb_events **ev,
                                        int *quiet);
/* A quiet move of item id (no sensor near it, and the item no sensor
** pairing with none) ended: it has no event; only where it ends is kept
** for its commit: the box end, or (end NULL: a move that did not turn) the
** center, the rest of the box being the item's. */
void obb_events_pass(obb_events *ev, int id, const double *center,
                     const void *end);
/* A move of item id ended (not committed yet): its path, npath boxes
** (obb2 or obb3, stride bytes apart: the item's box at the move's start,
** then where each leg ended, the last where the move ends), the turn done
** at each (radians;
** about the unit axis in 3D). Works out the events of the move, kept until
** its commit (obb_events_updated with that box, the world unchanged) or the
** next move. Returns 0, or -1 when memory runs out. */
int obb_events_moved(obb_world *w, int id, const void *path, size_t stride,
                     const double *turns, int npath, const double axis[3]);

#endif
