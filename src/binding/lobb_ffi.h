/*
** lobb_ffi.h: entry points of the Lua binding for its LuaJIT FFI fast path
** (lua/obb/jit.lua; internal: not for host programs, and not exported).
** They take a box's, a world's or a response set's userdata as a plain
** pointer, so they need no lua.h, and the FFI declares them word for word
** from here (`make check-ffi`). obb.jit calls them through the addresses
** luaopen_obb hands it (lobb_jit.c), never by name, so no shared object
** exports them: LOBB_FFI hides them even in a build without
** -fvisibility=hidden, and `make check-exports` counts only include/.
**
** Each does what its classic method does in the one fast case, or reports
** that it did nothing (the return value each states), having changed
** nothing: the caller then calls the classic method with the same
** arguments, which reports whatever was wrong. A pointer must be the
** payload of a userdata carrying its type's real metatable, as
** debug.getmetatable sees it (jit.lua checks that first): only the
** binding gives a userdata that metatable, unless the debug library does
** (docs/hardening.md). The value is then recognised by the tag its last
** field holds, as the binding recognises it (lobb_box.h).
*/
#ifndef LOBB_FFI_H
#define LOBB_FFI_H

#include "obb.h"
#include "obb_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hidden where the compiler can say so (Windows exports only what is
** marked dllexport, and these are not). */
#ifndef LOBB_FFI
#if defined(__GNUC__) && __GNUC__ >= 4 && !defined(_WIN32) && \
    !defined(__CYGWIN__)
#define LOBB_FFI extern __attribute__((visibility("hidden")))
#else
#define LOBB_FFI extern
#endif
#endif

/* w:update(item, numbers): id is what the world's item table holds for
** the item; v the nv numbers after the item (2D: cx, cy, hx, hy [, angle],
** nv 4 or 5; 3D: cx, cy, cz, hx, hy, hz [, qx, qy, qz, qw], nv 6 or 10),
** all finite, extents >= 0 (checked again here). */
LOBB_FFI int lobb_ffi_world_update(void *world, double id, const double *v,
                                   int nv);

/* w:add(item, numbers), first half: checks the world and the numbers (as
** update), builds the box and keeps it in the world, with room reserved
** for it; returns a ticket (> 0) for it, or -1 having changed nothing but
** the room. The second half is a C function of the binding, which obb.jit
** gets from luaopen_obb (lobb_ffi_world.c, lobb_world_ffi_add): given the world,
** the item and the ticket, it enters the item in the world's tables and
** the box in the world, with the world marked busy meanwhile as the
** classic add marks it, only inside that one call. A later reserve on the
** same world replaces the box waiting, and a ticket serves once. */
LOBB_FFI int lobb_ffi_world_reserve(void *world, const double *v, int nv);

/* w:get(item) without a box: writes the 5 (2D) or 10 (3D) numbers the
** method returns into out and returns their count. */
LOBB_FFI int lobb_ffi_world_get(void *world, double id, double *out);

/* A character's state (w:is_on_floor and the rest, lobb_character.c)
** into out: on floor, on wall, on ceiling (0 or 1), its floor's id (-1:
** none), the floor's normal (3 numbers, zeros off a floor), its platform
** motion (3 numbers); returns the world's dimension, or 0 for the
** classic method. */
LOBB_FFI int lobb_ffi_world_character(void *world, double id, double *out);

/* a:intersects(b) for two 2D (3D) boxes: 1 or 0 as obb2_intersects
** (obb3_intersects) returns, or -1 when a or b is not a genuine box of
** that dimension. Checking the tags here rather than copying both boxes
** into Lua's scratch space to read them is what makes the fast path's
** pair test cheap (docs/love.md, "What it gains"). */
LOBB_FFI int lobb_ffi_intersects2(const void *a, const void *b);
LOBB_FFI int lobb_ffi_intersects3(const void *a, const void *b);

/* The records the movers and the casts write, in doubles (3D's layout in
** 2D too): the FFI declares these, and the responses of obb_world.h, so
** that `make check-ffi` holds obb.jit's reading of them to this header. */
enum lobb_ffi_record {
  LOBB_FFI_MOVE_RECORD = 10,
  LOBB_FFI_CAST_RECORD = 5
};

/* w:move / w:check (item, ..., filter [, out]) with no filter function: v
** the nv numbers after the item, the goal center (dim of them) and, for
** the turning form, the goal rotation (2D: an angle; 3D: a quaternion x,
** y, z, w), so nv is dim, 3 or 7 (finite); responses NULL and response
** every other's (OBB_TOUCH to OBB_BOUNCE, obb_world.h), or responses a
** response set (obb.responses: the payload of a userdata carrying the
** set's real metatable, recognised by its tag) answering by the other's
** class, and response unused. Writes each collision into hits as 10
** doubles, other's id, response, t, nx, ny, nz, x, y, z, depth (at most cap
** of them), and into actual (20 doubles): at 0 .. 6 the final center, then
** the final angle (2D, at 2) or quaternion (3D, at 3 .. 6), at 7 the
** world's change count (obb_world_changes), at 8 its dimension, at 10 the
** ticket of the box kept for lobb_ffi_world_commit, at 11 the number of
** collisions and at 12 why the move ended (OBB_END_*). commit 1 (a move
** with no out table: nothing is left that can raise) gives the item its
** box at once; commit 0 keeps the box under a new ticket (a ticket for
** each box kept; the world keeps the last one only) and changes nothing.
** Returns the number of collisions; LOBB_FFI_FULL for more than cap; -1
** when the classic method must run. */
LOBB_FFI int lobb_ffi_world_move(void *world, double id, const double *v,
                                 int nv, int response,
                                 const void *responses, double *hits,
                                 int cap, double *actual, int commit);

/* A move with a filter function (obb_world_move_start): lobb_ffi_world_move
** where the move stops at each other it meets first, and returns
** LOBB_FFI_ASKING, with the world locked for the filter (as a classic
** move's filter locks it, so that what the filter may not do raises the
** classic errors) and the question in actual: at 8 the world's dimension,
** at 11 the collisions so far, at 13 the serial of this move's lock, at
** 14 the other's id, at 15 t, at 16 .. 18 the normal, at 19 the depth. Lua
** asks the filter, and lobb_ffi_world_answer(world, serial, response, ...)
** goes on from there, the answer kept for the move (hits the same buffer,
** actual the same); it returns as this, the lock released once the move
** ends. It returns LOBB_FFI_REFUSED when the lock is no longer this
** move's: the filter yielded and the world was used from another thread
** meanwhile (lobb_world_unstale took it back), or the world was closed;
** or for a response out of OBB_IGNORE .. OBB_BOUNCE (the move is dropped).
** lobb_ffi_world_drop releases the lock of a move Lua gives up (its filter
** raised or answered no response). */
enum lobb_ffi_answer {
  LOBB_FFI_ASKING = -4,
  LOBB_FFI_REFUSED = -5,
  LOBB_FFI_FULL = -3
};
LOBB_FFI int lobb_ffi_world_move_ask(void *world, double id, const double *v,
                                     int nv, double *hits, int cap,
                                     double *actual, int commit);
LOBB_FFI int lobb_ffi_world_answer(void *world, int serial, int response,
                                   double *hits, int cap, double *actual,
                                   int commit);
LOBB_FFI void lobb_ffi_world_drop(void *world, int serial);

/* w:move's second half, for a move with an out table: gives item id the box
** lobb_ffi_world_move (or an asking move) kept for it under ticket and
** returns 1; or returns 0, having changed nothing, when the box kept is not
** that one (another move or check, a finalizer's, kept its own since), or
** the world's change count is no longer stamp (a finalizer changed the
** world between the halves), or the item is gone: the classic method then
** moves the item again, or (a filter function asked already)
** lobb_ffi_world_recommit. */
LOBB_FFI int lobb_ffi_world_commit(void *world, double id, double stamp,
                                   double ticket);

/* A move with a filter function whose box is no longer kept, committed
** anyway: runs it again with its nanswers answers (other's id and response
** each, in the order asked) and gives item id the box where it ends, in
** one call, nothing of Lua in between; returns 1, or 0 having changed
** nothing when the world's change count is no longer stamp, or the run is
** not that move (it asks another question, or more or fewer). */
LOBB_FFI int lobb_ffi_world_recommit(void *world, double id, const double *v,
                                     int nv, const double *answers,
                                     int nanswers, double stamp);

/* w:move_solid(item, ..., filter [, out [, movers]]) with no filter
** function (src/binding/lobb_ffi_solid.c): v the nv numbers after the
** item, the goal center (dim of them) and, for the turning form, the goal
** rotation (2D: an angle; 3D: a quaternion x, y, z, w), so nv is dim, 3 or
** 7 (finite); the solid's responses: responses NULL and response every
** other's (-1 for none given: the solid's default; OBB_IGNORE to
** OBB_ONEWAY, obb_world.h) or responses a response set (obb.responses, as
** lobb_ffi_world_move takes one); its movers' (the filter of the moves of
** what it carries and pushes): mresponses NULL and mresponse every
** other's (OBB_IGNORE to OBB_BOUNCE) or a set. Writes each record into
** hits as LOBB_FFI_SOLID_RECORD doubles, other's id, what (OBB_RIDE,
** OBB_STAND, OBB_PUSH, OBB_CROSS or OBB_CRUSH), t, nx, ny, nz, dx, dy,
** dz, depth (at most cap of them), into out[0] how many were crushes, into
** out[1] the world's change count then, into out[2] how many records
** there were (more than cap too) and into out[3] the world's dimension.
** commit 1 (no out table) keeps
** the move; commit 0 takes it back (obb_world_undo_solid) for
** lobb_ffi_world_redo_solid to give back once the records are written.
** Returns the number of records; LOBB_FFI_FULL for more than cap (the
** move taken back); -1 when the classic method must run (nothing
** changed). */
enum lobb_ffi_solid { LOBB_FFI_SOLID_RECORD = 10 };
LOBB_FFI int lobb_ffi_world_move_solid(void *world, double id,
                                       const double *v, int nv, int response,
                                       const void *responses, int mresponse,
                                       const void *mresponses, double *hits,
                                       int cap, double *out, int commit);

/* w:move_solid's second half, for a move with an out table: gives back the
** move of item id that lobb_ffi_world_move_solid took back, whose n
** records are in hits, and returns 1; or returns 0, having changed
** nothing, when the world's change count is no longer stamp (a finalizer
** changed the world while the records were written) or the last solid's
** move of the world is not that one: the classic method then runs it
** again. */
LOBB_FFI int lobb_ffi_world_redo_solid(void *world, double id, double stamp,
                                       const double *hits, int n);

/* w:cast(box, d) with no filter function: each item the box touches as 5
** doubles, id, t, nx, ny, nz, first met first (ties: nearer centers, then
** lower ids), at most cap of them; returns their count, or -1 (box not a
** genuine box of the world's dimension, responses not a genuine set, more
** than cap hits, memory). responses NULL (no filter) or a response set
** (obb.responses: the payload of a userdata carrying the set's real
** metatable, recognised by its tag), which leaves out every item whose
** class it answers false (OBB_IGNORE), as the classic method's filter does;
** the same for the casts and queries below. */
LOBB_FFI int lobb_ffi_world_cast(void *world, const void *box,
                                 const double *d, int dim,
                                 const void *responses, double *hits,
                                 int cap);

/* w:cast_turning(box, d, turn) with no filter function: as
** lobb_ffi_world_cast, the box turning by turn (2D: 1 number, the angle; 3D: 3, the rotation
** vector) as it moves; -1 also for a turn that is not finite. */
LOBB_FFI int lobb_ffi_world_cast_turning(void *world, const void *box,
                                         const double *d, const double *turn,
                                         int dim, const void *responses,
                                         double *hits, int cap);

/* w:raycast(o, d, max_t, out) with no filter function: each item the ray
** o + t d, t in [0, maxt], hits as 5 doubles, id, t, nx, ny, nz, nearest
** first (the classic method's order), at most cap of them; returns their
** count, or -1 (o or d not finite, d zero, maxt NaN or negative, the world
** not usable or not of dimension dim, responses not a genuine set, more
** than cap hits, memory). */
LOBB_FFI int lobb_ffi_world_raycast(void *world, const double *o,
                                    const double *d, double maxt, int dim,
                                    const void *responses, double *hits,
                                    int cap);

/* w:query_box(box, out) with no filter function: the ids of the items
** whose box intersects box, one double each, in the order the classic
** method writes the items (the core's, obb_world_query_box), at most cap
** of them; returns their count, or -1 (box not a genuine box of dimension
** dim, the world not usable or not of dimension dim, responses not a
** genuine set, more than cap items, memory). */
LOBB_FFI int lobb_ffi_world_query_box(void *world, const void *box, int dim,
                                      const void *responses, double *ids,
                                      int cap);

/* w:query_point(x, y[, z], out) with no filter function: as
** lobb_ffi_world_query_box for the items whose box contains the point p (dim numbers; -1 also when
** one is not finite). */
LOBB_FFI int lobb_ffi_world_query_point(void *world, const double *p,
                                        int dim, const void *responses,
                                        double *ids, int cap);

/* w:events(out), in two halves (src/binding/lobb_events.c). The first
** brings the world's events up to date and writes the first cap of them
** into out, 4 doubles each: the sensor's id, the other's, the kind (1
** begin, 0 end: OBB_EVENT_* of obb_events.h) and t (-1: none); info[0]
** the count of takes so far. It returns how many events there are (more
** than cap: only cap written) and takes none. The second, once Lua has
** written them, takes the first n when the count of takes is still takes
** (no other take came between) and writes into released the ids it lets
** go (at most 2 n), whose entries the id -> item table must drop; it
** returns their count. Each returns -1 (having taken nothing) when the
** classic method must run. */
LOBB_FFI int lobb_ffi_world_events(void *world, double *out, int cap,
                                   double *info);
LOBB_FFI int lobb_ffi_world_events_done(void *world, double takes, int n,
                                        double *released);

/* obb.bump's C half (src/binding/lobb_bump.h), for the 2D world under an
** obb.bump world. bump_rect sets item id's rectangle (x, y, w, h: w, h
** positive) as bump keeps it; bump_update gives the item the box of the
** rectangle (center x + w / 2, half extents w / 2, ...; rotation kept) and
** the rectangle. Each returns 1, or 0 (having changed nothing but
** forgotten the item's rectangle) when the world, the id or the rectangle
** is not one it takes. A rectangle is forgotten whenever the item's box
** changes otherwise. */
LOBB_FFI int lobb_ffi_bump_rect(void *world, double id, double x, double y,
                                double w, double h);
LOBB_FFI int lobb_ffi_bump_update(void *world, double id, double x,
                                  double y, double w, double h);

/* The records bump_check writes, in doubles: per ask, the other's id, the
** answer (OBB_IGNORE .. OBB_BOUNCE, or OBB_BUMP_OTHER: lobb_bump.h), the
** step, whether it hits, and for a hit overlaps, ti, nx, ny, tx, ty and
** the other's x, y, w, h; per col its ask, whether its response gave a
** goal, and that goal. */
enum lobb_ffi_bump_record {
  LOBB_FFI_BUMP_ASK = 14,
  LOBB_FFI_BUMP_COL = 4
};

/* bump's loop (src/binding/lobb_bump_run.c) for item id, its rectangle
** and goal in (x, y, w, h, goalx, goaly), every answer all (a kind, as
** the records hold them), or (all -1) the first nfixed answers those of
** asks (checked to be asked about the same others) and every later one
** guessed; its records into
** asks (from nfixed on) and cols (at most the caps), and into out the goal
** where it ends (or hands off), the counts of asks and cols, and 1 when
** it committed the move: with commit, a move done that needs no asking
** (every answer all, or none asked) and goes somewhere gives the item the
** box and rectangle where it ends, as bump_update would. Returns 0 (done),
** 1 (the last col is for Lua to resolve), -1 for Lua's loop (nothing
** written), -2 when a cap is too small (out has the counts: run again
** with more room), -3 when a fixed answer is not this run's. Changes
** nothing else but the guesses. */
LOBB_FFI int lobb_ffi_bump_check(void *world, double id, const double *in,
                                 int all, int nfixed, int commit,
                                 double *asks, int ask_cap, double *cols,
                                 int col_cap, double *out);

/* a:sweep(b, ...) for two 2D (3D) boxes: v holds a's displacement and b's
** (2 * dim numbers), then, when turning is nonzero, their turns (2D: wa,
** wb; 3D: the rotation vectors ra, rb), all finite (checked again here).
** Writes t and the normal into out (1 + dim numbers) and returns what the
** sweep returns: obbN_sweep's 0 or 1, or obbN_sweep_turning's
** OBB_SWEEP_NONE, OBB_SWEEP_HIT or OBB_SWEEP_LIMIT; -1 when a or b is not a
** genuine box of that dimension or a number is not finite. */
LOBB_FFI int lobb_ffi_sweep2(const void *a, const void *b, const double *v,
                             int turning, double *out);
LOBB_FFI int lobb_ffi_sweep3(const void *a, const void *b, const double *v,
                             int turning, double *out);

#ifdef __cplusplus
}
#endif

#endif
