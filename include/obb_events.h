/*
** obb_events.h: sensors and the events of their overlaps, for the worlds of
** the pure C core (src/core/obb_events.c).
**
** Part of the core API (no Lua): include "obb_events.h" (it includes
** "obb_world.h") and link the core objects or libobbcore.a.
**
** A sensor is an item marked as one (obb_world_set_sensor). It never
** blocks a mover: every move and push of the world answers it OBB_CROSS
** without asking its filter. Each pair of a sensor and an item that is
** not one (two sensors make no pair, as Box2D's sensors) is either
** overlapping (obbN_intersects, the touching band included: what
** obb_world_pairs answers) or not, and each change of that is an event:
** OBB_EVENT_BEGIN, OBB_EVENT_END. The world keeps, per sensor, the items
** it overlaps, and looks again only at what changed:
**
**   - a move committed (obb_world_move or obb_world_move_turning, then
**     obb_world_update of the item to exactly the box where the move
**     ended, the world unchanged in between; or obb_world_move_with with
**     commit, the moves of a solid's riders and pushed others inside
**     obb_world_move_solid) gives the events along its
**     path: every sensor the item meets on the way gets its begin and its
**     end, however fast the item and however thin the sensor (each leg is
**     swept, certified as obbN_sweep and obbN_sweep_turning are), at the
**     time t along the move where it happened;
**   - any other update, an add, a sensor marked or unmarked is looked at
**     when obb_world_events is next called, as the difference between
**     the pairs then and the pairs at the last call (t = -1: no time);
**   - a remove ends the item's pairs at once. Its id is then held (not
**     reused by an add) until every event naming it has been taken
**     (obb_world_events_done), so that the caller can still tell which
**     item it was.
**
** The cost follows the sensors' pairs: the sensors have a broad phase of
** their own, a moved item that is not a sensor asks it alone, and a world
** with no sensor pays nothing but a pointer test per change.
*/
#ifndef OBB_EVENTS_H
#define OBB_EVENTS_H

#include "obb_world.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { OBB_EVENT_END = 0, OBB_EVENT_BEGIN = 1 };

/* One event: the sensor's id, the other item's, the kind, and t in [0, 1]
** along the move of whichever of the two moved (0 at its start, 1 at its
** end, by the length of its path; by its turn for a move that only
** turns), or -1 when the change came from anything but a move. */
typedef struct obb_event {
  int sensor, other;
  int kind;
  double t;
} obb_event;

/* Makes live item id a sensor (flags != 0, any bits of the caller's: the
** Lua binding keeps one for the item and one for its class) or not (0).
** A change ends the item's pairs at once (it pairs differently now); its
** new pairs begin at the next obb_world_events. Returns 0, or -1 (changing
** nothing) for an id not live or when memory runs out. */
OBB_API int obb_world_set_sensor(obb_world *w, int id, int flags);
/* Item id's flags (0: not a sensor, or not live). */
OBB_API int obb_world_sensor(const obb_world *w, int id);

/* Brings the events up to date and points *events at those not yet taken,
** oldest first; returns their count, or -1 when memory runs out (nothing
** is lost: the next call tries again). The order is deterministic: events
** are queued as the changes are seen (a move's at its commit, in order
** along its path, then by the other's id; a remove's at once; the others'
** here, by the order the items first changed since the last call, each
** item's ends before its begins, by the other's id). The array is valid
** until the world next changes. */
OBB_API int obb_world_events(obb_world *w, const obb_event **events);
/* Drops the first n events of the queue (those taken); each id held for
** them and for no other goes back to the world's free ids, told to
** released(ctx, id) when it is not NULL. */
typedef void (*obb_world_release_fn)(void *ctx, int id);
OBB_API void obb_world_events_done(obb_world *w, int n,
                                   obb_world_release_fn released, void *ctx);
/* Whether id is held: removed, and named by an event not yet taken. */
OBB_API int obb_world_held(const obb_world *w, int id);

#ifdef __cplusplus
}
#endif

#endif
