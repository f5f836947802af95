/*
** obb_world.h: many boxes behind a broad phase, in the pure C core.
**
** Part of the core API (no Lua): include "obb_world.h" (it includes
** "obb.h") and link the core objects or libobbcore.a.
*/
#ifndef OBB_WORLD_H
#define OBB_WORLD_H

#include "obb.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** A world holds boxes of one dimension (all obb2 or all obb3; the `box`
** pointers below point to that type), each under a small integer id that
** the world assigns and reuses after removal. Queries walk a dynamic
** bounding-volume tree and confirm every candidate with the exact test
** (obbN_intersects, obbN_contains_point, obbN_raycast), so they
** answer exactly what testing each box in turn would; all pairs at once
** come from a hierarchical grid rebuilt per call (linear in the items).
**
** Memory comes from an allocator with lua_Alloc's contract (NULL: realloc
** and free). Calls return -1 when it fails and then change nothing.
** Callbacks must not add, update or remove items of the world they are
** called from; queries allocate nothing unless the tree is far deeper than
** its balancing allows, or the world chooses its cells anew
** (obb_world_set_cell: at most once per 2 n changes, and a query that
** cannot allocate them answers as ever).
*/
typedef void *(*obb_alloc)(void *ud, void *ptr, size_t osize, size_t nsize);
typedef struct obb_world obb_world;

/* How far a leaf's bounding box reaches beyond the item's, as a fraction of
** the item's largest half side: an item moving less stays in its leaf. */
#define OBB_WORLD_MARGIN 0.25

/* dim is 2 or 3; a margin outside [0, 1e6] (or NaN) means the default.
** The new world chooses its broad phase (obb_world_set_cell,
** OBB_WORLD_CELL_AUTO). */
OBB_API obb_world *obb_world_new(int dim, double margin, obb_alloc alloc, void *ud);
OBB_API void obb_world_free(obb_world *w);
OBB_API int obb_world_dim(const obb_world *w);
OBB_API int obb_world_count(const obb_world *w);
OBB_API size_t obb_world_memory(const obb_world *w); /* bytes held, all arrays */
/* How many times the world has changed (adds, updates, removes), modulo
** 2^52 (so a double holds it exactly): equal counts mean the same items
** in the same places, for a caller that decides something in two steps. */
OBB_API double obb_world_changes(const obb_world *w);

/* Gives an empty world (no live items) a uniform grid of square (cubic)
** cells of side cell as its broad phase, beside the tree: an item whose
** bounding box covers at most 4 cells on each axis (and whose cell
** coordinates, floor(x / cell), are within +-2^30) is filed in the grid,
** found by a query in a few array reads and never moved unless it changes
** cells; larger, farther or non-finite items stay in the tree. Queries,
** casts and moves answer exactly as with the tree alone (the same items;
** the movers' answers bit for bit), often faster where many small items
** move every frame: a cell about the size of the common item (a tile)
** suits. cell 0 turns the grid off: the tree alone. OBB_WORLD_CELL_AUTO,
** a new world's broad phase, lets the world choose: the tree until it
** holds 64 items and is queried, then cells of the power of two above the
** median of its items' sizes (the larger side of each one's bounds, so
** within twice it), filed anew when that median has grown or shrunk 4
** times or more, looked at by the first query after every 2 n changes (n
** items; docs/broad-phase.md). Returns 0, or -1 (changing nothing) for a
** world with live items, a cell that is negative (but
** OBB_WORLD_CELL_AUTO), infinite or NaN, or when memory runs out. */
#define OBB_WORLD_CELL_AUTO (-1.0)
OBB_API int obb_world_set_cell(obb_world *w, double cell);

/* The side of the world's cells now (0: the tree alone), and into
** *choices, when not NULL, how many times the world has filed its items in
** cells of a side it chose (0 but under OBB_WORLD_CELL_AUTO). */
OBB_API double obb_world_cell(const obb_world *w, double *choices);

/* Returns the new item's id (>= 0), or -1 when memory runs out. */
OBB_API int obb_world_add(obb_world *w, const void *box);
/* Makes room for one more item and returns the id the next add will get
** (an add right after a successful reserve cannot fail), or -1. */
OBB_API int obb_world_reserve(obb_world *w);
/* id must be live (obb_world_box is not NULL for it). */
OBB_API void obb_world_update(obb_world *w, int id, const void *box);
OBB_API void obb_world_remove(obb_world *w, int id);
OBB_API const void *obb_world_box(const obb_world *w, int id); /* NULL if not live */

/* Every item whose box intersects box / contains point p, in no order.
** Queries take a non-const world: updates reach the tree lazily, when a
** query next needs it (results never depend on it). */
typedef void (*obb_world_hit_fn)(void *ctx, int id);
OBB_API int obb_world_query_box(obb_world *w, const void *box,
                        obb_world_hit_fn f, void *ctx);
OBB_API int obb_world_query_point(obb_world *w, const double *p,
                          obb_world_hit_fn f, void *ctx);

/* Items the segment o + t*d, t in [0, maxt] (maxt may be +inf), touches, in
** no order, with the entry parameter t and the outward unit normal n (3
** numbers, z = 0 in 2D) of the face entered; an origin inside a box gives
** t = 0 and a zero normal. f returns the new maxt: maxt itself to see every
** hit, t to see only nearer ones next. */
typedef double (*obb_world_ray_fn)(void *ctx, int id, double t,
                                   const double n[3], double maxt);
OBB_API int obb_world_raycast(obb_world *w, const double *o, const double *d,
                      double maxt, obb_world_ray_fn f, void *ctx);

/* Every intersecting pair once, lower id first, in no order. */
typedef void (*obb_world_pair_fn)(void *ctx, int a, int b);
OBB_API int obb_world_pairs(obb_world *w, obb_world_pair_fn f, void *ctx);

/* ---- moving boxes through the world (src/core/obb_move.c) ------------- */
/*
** The movers sweep a box by translation only (rotation is kept) through
** the world's items, which stand still meanwhile. Contact is decided by
** the touching rule (obb.h): a contact blocks only when the mover would
** otherwise go deeper than the band B into the other, so a box resting on
** a floor, or against a wall, moves along it or away from it freely, and
** the seams of flush neighbours never stop a slide. The band is the pair's
** where the two can meet along the leg (not at its far end), so a leg far
** longer than the scene stops where a short one does. A pair too thin to
** overlap by more than the band (a point or a flat box against a wall of no
** thickness) blocks where the mover would pass through: from one side to
** beyond the band on the other; it stops half a band short, on its side.
** Normals are unit vectors (z = 0 in 2D) pointing the way the mover must
** go to get away.
*/

/* Cast: every item that box (of the world's dimension, in the world or
** not) touches when moved by d (2 or 3 numbers), as obbN_sweep decides it,
** with the time t in [0, 1] and the sweep's normal, in no order. */
typedef void (*obb_world_sweep_fn)(void *ctx, int id, double t,
                                   const double n[3]);
OBB_API int obb_world_cast(obb_world *w, const void *box, const double *d,
                           obb_world_sweep_fn f, void *ctx);

/* Cast, turning: as obb_world_cast, with the box turning about its center
** at a constant rate as it moves (obb.h, "Sweeps that turn"): by the angle
** turn[0] (2D, radians, counter-clockwise) or the rotation vector turn[0..2]
** (3D) over the step. Each item's answer is obbN_sweep_turning's (the item
** standing still), so every t is certified never later than the first
** contact. An item whose sweep answers OBB_SWEEP_LIMIT is reported too, at
** its safe time t_safe (no contact before it, so a caller that stops at
** the first hit stays safe; it may be an item the box would not have met)
** with the normal that sweep gives; but an item out of the box's reach
** (farther from its center's path than the length of its half extents)
** is not, even where its sweep, its bounds
** overflowing for displacements near 1e308, answers OBB_SWEEP_LIMIT at
** t = 0 for want of a proof. d and turn must be finite. Returns
** the number of items reported that way (0 normally), or -1 when memory
** runs out; with no turn at all, exactly obb_world_cast. */
OBB_API int obb_world_cast_turning(obb_world *w, const void *box,
                                   const double *d, const double *turn,
                                   obb_world_sweep_fn f, void *ctx);

/* ---- the movement math (obb_clip.c): pure, no world -------------------- */

/* v (dim numbers) less times its part into the normal n when it goes into
** it (v . n < 0), else v, into out: times 1 clips (slides along n's
** plane), 2 mirrors (bounces). n need not be unit, but not zero: returns
** 0 (out = v) for a zero or NaN normal, else 1. A component where n is 0
** stays v's, bit for bit; out may overflow for huge v (check it). */
OBB_API int obb_clip(int dim, const double *v, const double *n, double times,
                     double *out);

/* A move's goal, from the point from, clipped (times 1) or mirrored
** (times 2) against the plane of the unit normal n (3 numbers, z = 0 in
** 2D) when goal - from goes into it: goal -= times ((goal - from) . n) n,
** in place. Clipping the goal rather than the remainder keeps its
** coordinates along the plane bit for bit. Returns 1 when it changed
** the goal. */
OBB_API int obb_clip_goal(int dim, const double *from, double *goal,
                          const double n[3], double times);

/* A move's goal, from the point from, against every plane it has met
** (unit normals, z = 0 in 2D), Quake's slide move: unchanged when
** goal - from goes into none of them (2^-40 of its length is rounding);
** else clipped against the first plane after which it goes into none and
** still forward (along primal, the move's direction); else, in 3D, along
** the crease line of the first such pair of planes. Returns 1, or 0 when
** nothing remains (goal = from: wedged into a corner, a move stops rather
** than creep back out). goal has 3 numbers in 3D. */
OBB_API int obb_clip_planes(int dim, const double *from, double *goal,
                            const double (*planes)[3], int nplanes,
                            const double primal[3]);

/* What a moving item does at another item. */
enum {
  OBB_IGNORE = 0, /* passes through, unreported */
  OBB_TOUCH,      /* stops at the contact */
  OBB_CROSS,      /* passes through, reported */
  OBB_SLIDE,      /* goes on along the contact with the rest of its move
                  ** less its part into the normal */
  OBB_BOUNCE      /* goes on with the rest of its move mirrored */
};

/* The responses' names by value: "ignore", "touch", "cross", "slide" and
** "bounce" (a mover's), "ride", "stand", "push" and "oneway" (a solid's,
** obb_world_move_solid below) and "crush" (a solid's record); the Lua
** binding's, where OBB_IGNORE is false. NULL for any other value. The
** strings are constants, never to be freed. */
OBB_API const char *obb_response_name(int response);
/* The answer the whole of name names (one of the above up to "oneway";
** "touch " or "Touch" is none), or -1; -1 for NULL too. */
OBB_API int obb_response_code(const char *name);

/* ---- classes and response sets ----------------------------------------- */
/*
** Every item has a class, an integer in 0 .. OBB_NCLASSES - 1 (what a game
** tells its walls, pickups and bullets apart by): 0 when it is added, and
** 0 again for the next item to get its id once it is removed. A response
** set is OBB_NCLASSES bytes (unsigned char[OBB_NCLASSES]), the response to
** an other of each class: the declarative filter a mover reads by the
** other's class without a callback (obb_move_calls.responses; the Lua
** binding's obb.responses). A world whose items all keep class 0 holds no
** class array. A class is no change of a box: obb_world_changes does not
** count it. It must not change during a move or query (from a callback).
*/
#define OBB_NCLASSES 256
/* Returns 0, or -1 (changing nothing) for an id that is not live, a class
** out of 0 .. 255, or when memory runs out (only a class other than 0
** ever allocates, and only for an id beyond those seen so far). */
OBB_API int obb_world_set_class(obb_world *w, int id, int cls);
/* The class of item id (0 for an id that is not live). */
OBB_API int obb_world_class(const obb_world *w, int id);

/* A move stops after this many legs (a leg ends at each touch, slide or
** bounce); what remains of the move is dropped, and obb_world_move_end
** says so (OBB_END_LEGS) and what it was. */
#define OBB_MOVE_MAX_LEGS 8

/* Why a move ended (obb_world_move_end). */
enum {
  OBB_END_GOAL = 0, /* it went all the way: the goal, and the whole turn */
  OBB_END_BLOCKED,  /* what it met changed where it ends: it touched,
                    ** slid, bounced, or was wedged in a corner */
  OBB_END_LEGS,     /* its legs ran out (OBB_MOVE_MAX_LEGS) with some of
                    ** the move left to do */
  OBB_END_TURN      /* a turning move whose turn stopped short (wherever
                    ** its center ended) */
};

/* How the world's last move, check or turning move ended (its status is
** kept until the next one): one of OBB_END_*, and into rest what was left
** of the move when it stopped (zeros but for OBB_END_LEGS): rest[0..dim-1]
** the translation, rest[3] the turn (2D: radians; 3D: the angle about the
** move's turn axis; 0 without a turn). A move that failed (a negative
** return) leaves OBB_END_GOAL and zeros. */
OBB_API int obb_world_move_end(const obb_world *w, double rest[4]);

/* One collision of a move: the other item, the response, the time t in
** [0, 1] along the leg where it was met, the normal n, the mover's center
** p at contact (z = 0 in 2D), and depth > 0 for an other the mover
** overlapped (by more than the band) when the leg began (t = 0 then). */
typedef struct obb_move_hit {
  int other;
  int response;
  double t;
  double n[3];
  double p[3];
  double depth;
} obb_move_hit;

/* The response of item to hit->other (hit->response unset): OBB_IGNORE
** to OBB_BOUNCE; anything else above counts as OBB_SLIDE, and a negative
** value aborts the move. Called at most once per other and move, when it
** is first met, in the order met. */
typedef int (*obb_move_filter_fn)(void *ctx, int item, const obb_move_hit *hit);
/* Each collision of a move once, in the order met (responses but ignore);
** an OBB_BOUNCE other once per bounce, so that a velocity reflected once per
** record ends pointing the way the mover went. */
typedef void (*obb_move_report_fn)(void *ctx, const obb_move_hit *hit);

/* A filter's answer that leaves the question to the caller: a move started
** with obb_world_move_start stops and returns OBB_MOVE_ASKING (any other
** move takes it as a negative answer: it aborts). */
#define OBB_ASK (-4)
#define OBB_MOVE_ASKING (-4)

/* Moves item id's center toward goal (2 or 3 numbers), keeping its
** rotation, resolving what it meets (docs/reference.md, "Moving boxes": an other the
** mover already overlaps is a plane it may not go deeper along; slides
** are clipped against every plane met in the move), and writes the
** center where it ends to actual. The world is not changed: commit with
** obb_world_update. filter NULL: every other slides. Returns the number
** of collisions reported, -1 when memory runs out, -2 when the filter
** aborted, -3 when goal - start overflows (actual is then the start). id
** must be live. The world must not change while the move runs (not from
** filter or report): the mover reads its boxes and bounds in place, as
** the Lua binding ensures by locking the world. */
OBB_API int obb_world_move(obb_world *w, int id, const double *goal,
                           obb_move_filter_fn filter, obb_move_report_fn report,
                           void *ctx, double *actual);

/* Moves item id as obb_world_move does while turning it about its center
** at a constant rate: by the angle turn[0] (2D, radians, counter-clockwise)
** or the rotation vector turn[0..2] (3D: axis times angle, world frame)
** over the whole move, the motion of obbN_sweep_turning and
** obb_world_cast_turning; each leg turns by what remains of the turn over
** what remains of the translation. What a turning leg meets is found with
** the certified turning sweep, never later than the first contact: an
** other blocks only where the item could go deeper than the band into it
** (the band at its least over the leg), whether the leg starts apart from
** it or touching it (so no seam of flush tiles stops a turning slide), and
** at once when the item is that deep already, or inside it (it is then
** also a plane for the translation, as in obb_world_move); a flat item and
** a flat other (which cannot overlap by more than the band) block where
** they first touch, from apart. A point's turn changes nothing it can
** meet: its legs are classified as obb_world_move's. The responses:
** OBB_TOUCH stops both the translation and the turn; OBB_SLIDE and
** OBB_BOUNCE clip or mirror the translation as in obb_world_move, and the
** turn goes on unless the turn is what drove the item in (the leg's
** translation did not go into the blocker's normal, or the blocker already
** stopped a turning leg of this move) or the sweep could not decide
** (OBB_SWEEP_LIMIT: it blocks at its safe time, unreported): then turning
** stops for the rest of the move and the translation goes on. So the item
** never ends deeper than the band in an other it was not already inside,
** and passes through nothing, however fast it turns. Writes the item's box
** where the move ends to end (an obb2 or obb3 of the world's dimension):
** its center, its rotation turned by the turn done from the item's (as
** obbN_rotate turns it: in 3D by the quaternion of the angle done about
** the turn's axis), its half extents. No turn (every component 0):
** exactly obb_world_move, the rotation kept bit for bit. Returns as
** obb_world_move does, and -3 for a turn that is not finite; on an error
** end is the item's box. */
OBB_API int obb_world_move_turning(obb_world *w, int id, const double *goal,
                                   const double *turn,
                                   obb_move_filter_fn filter,
                                   obb_move_report_fn report, void *ctx,
                                   void *end);

/* Others a move meets at one time (a tie: a floor of tiles landed on at a
** seam, a wall and a floor met in a corner, each within its band of the
** first at the first's time): OBB_TIES_EACH (a new world's) answers every
** one of them (the filter is asked about each, each is reported, and the
** item takes all their planes at once); OBB_TIES_FIRST answers only the
** first, the most head-on (then the nearest center, then the lower id),
** and tests the others again from where its response leaves the item, so
** that one a slide moves along is never met: bump.lua's way. Every move
** of the world follows it. Returns 0, or -1
** (changing nothing) for another value. */
enum { OBB_TIES_EACH = 0, OBB_TIES_FIRST = 1 };
OBB_API int obb_world_set_ties(obb_world *w, int ties);
OBB_API int obb_world_ties(const obb_world *w);

/* A move that may stop to ask: obb_world_move_turning (turn NULL, or
** zeros, for a move without a turn, exactly obb_world_move's), whose
** filter may answer OBB_ASK for an other it cannot answer from C (a
** scripting layer's filter, asked from its own side). The move then stops
** where it met that other and returns OBB_MOVE_ASKING;
** obb_world_move_question gives the question (the other and what the
** filter would have been told) and how many collisions were reported so
** far; obb_world_move_resume(state, response, ctx, end) answers it (a
** negative response aborts: -2) and goes on from there, nothing done
** twice, the answer kept for the move, until the move ends or asks again,
** calling the callbacks with ctx from then on (the caller's context may
** live on its stack). state is the caller's buffer of obb_move_state_size()
** bytes, which holds the move between the calls; nothing else may move
** in, or change, the world meanwhile (not even a move of another item:
** the mover's scratch buffers are the world's). Each returns as
** obb_world_move_turning, and writes end (an obb2 or obb3) when the move
** ends: where the item ends, as obb_world_move_turning writes it. */
OBB_API size_t obb_move_state_size(void);
OBB_API int obb_world_move_start(void *state, obb_world *w, int id,
                                 const double *goal, const double *turn,
                                 obb_move_filter_fn filter,
                                 obb_move_report_fn report, void *ctx,
                                 void *end);
OBB_API int obb_world_move_resume(void *state, int response, void *ctx,
                                  void *end);
OBB_API int obb_world_move_question(const void *state, obb_move_hit *hit);

/* What a move asks of its caller, each part on its own (for
** obb_world_move_with; all zeros: every other slides, nothing is reported,
** the world is not changed):
** - filter, called with filter_ctx, as obb_world_move's (NULL: every other
**   slides); not called at all when responses is set;
** - report, called with report_ctx, as obb_world_move's (NULL: none);
** - responses, a response set (OBB_NCLASSES bytes, OBB_IGNORE ..
**   OBB_BOUNCE; anything above counts as OBB_SLIDE): each other's response
**   is responses[obb_world_class(w, other)], read in C when the other is
**   first met, as a filter answering that would be asked; the caller's
**   memory, read during the call only;
** - commit, nonzero: a move that succeeds (returns >= 0) gives the item its
**   box where it ends (obb_world_update), so a host need not copy the box
**   and update it itself; a move that fails changes nothing. */
typedef struct obb_move_calls {
  obb_move_filter_fn filter;
  void *filter_ctx;
  obb_move_report_fn report;
  void *report_ctx;
  const unsigned char *responses;
  int commit;
} obb_move_calls;

/* obb_world_move_turning (turn NULL, or zeros: obb_world_move's move,
** exactly) with the filter, the report and their contexts apart, a
** response set, and the commit, as calls says (NULL: all zeros). Writes
** the item's box where the move ends to end (an obb2 or obb3 of the
** world's dimension; NULL: not written), committed to the world when
** calls->commit is set; returns as obb_world_move_turning. The same
** answers, bit for bit, as obb_world_move_turning given a filter that
** answers what calls answers. */
OBB_API int obb_world_move_with(obb_world *w, int id, const double *goal,
                                const double *turn,
                                const obb_move_calls *calls, void *end);

/* The mover's way out of what it overlaps: repeatedly moves item id by the
** penetration normal times the depth of the deepest other it overlaps by
** more than the band (filter as for moves, t = 0; OBB_IGNORE and
** OBB_CROSS others do not push), at most max_dist in all and at most
** OBB_PUSH_MAX_STEPS steps, never summing two others' vectors for one
** pose. Writes the final center to actual, the distance moved to moved,
** and to inside whether the item still overlaps a pushing other there (an
** item squeezed between two, or one max_dist did not free); the world is
** not changed. Returns the number of pushes, -1 or -2 as moves do. */
#define OBB_PUSH_MAX_STEPS 16
OBB_API int obb_world_push(obb_world *w, int id, double max_dist,
                           obb_move_filter_fn filter, void *ctx,
                           double *actual, double *moved, int *inside);

/* ---- the world's up (obb_world.c) -------------------------------------- */
/*
** A world has no preferred direction until it is given an up: then a face
** whose outward unit normal n is within slope radians of it (n . up >=
** cos(slope), to 2^-40 for rounding) is a floor, and what touches it from
** that side rests on it (the moving solids' riders below; the character
** kit's ground). up: dim numbers, finite and not all zero, kept at unit
** length (NULL: no up, the default); slope in [0, pi/2). Returns 0, or -1
** (changing nothing) for anything else.
*/
#define OBB_SLOPE_DEFAULT 0.78539816339744830962 /* pi/4: 45 degrees */
OBB_API int obb_world_set_up(obb_world *w, const double *up, double slope);
/* 1 with the unit up (3 numbers, z = 0 in 2D) and the slope when the
** world has an up; else 0, with zeros and OBB_SLOPE_DEFAULT. */
OBB_API int obb_world_up(const obb_world *w, double up[3], double *slope);
/* Whether the unit normal n (3 numbers, z = 0 in 2D) faces the world's up
** within its slope: a floor's. 0 in a world without an up. */
OBB_API int obb_world_is_floor(const obb_world *w, const double n[3]);

/* ---- moving solids (src/core/obb_solid.c) ----------------------------- */
/*
** A solid is an item moved to a goal pose that nothing stops (a platform,
** an elevator, a door, a crusher): it goes there exactly, turning the
** short way on the way (its center at a constant speed on the segment, its
** rotation at a constant rate about one axis: the motion of obbN_sweep
** with a turn), and in the same call
**   - carries its riders: the others resting on it when it starts
**     (touching it within the band, not deeper, on a face that is a floor
**     by the world's up; in a world without an up, none, but any other
**     touching it that its filter answers OBB_RIDE or OBB_STAND), and what
**     rests on them (by the world's up), each by the solid's rigid motion
**     at its own place, as a move of its own (obb_world_move, or
**     obb_world_move_turning for OBB_RIDE; the solid left out), so a rider
**     carried into a wall slides along it, one carried under a ceiling
**     stops there, and none passes through anything;
**   - pushes the others its motion goes into (the classification of
**     obb_world_move and of the turning move, the solid as the mover:
**     certified, never later than the first contact), from the time it
**     meets each: by a solid that only translates, straight along the face
**     it was met on, as far as that face goes; by one that turns, carried
**     with that face; keeping its rotation, and on out along the face
**     where the solid's goal is left inside it. As a move: it slides along
**     what it meets, and is pushed on along that (up to 4 more moves) as
**     far as it takes to get as far along the face as planned; a pushed
**     other pushes nothing. One the solid is inside when it starts is
**     pushed along its penetration normal;
**   - reports as crushed every other it carried or pushed that ends
**     deeper than the band in the solid; a rider that stopped short, along
**     the face it rests on, of where the solid took that face (by more than
**     the band); a pushed other that stopped short of where it was pushed
**     to and that the solid's motion, from the time it met it, goes deeper
**     than the band into where it ended (the solid went through it); and
**     leaves it there.
** The solid moves first, then the others, farthest ahead first (by each
** one's center along the sum of their moves); each move sees the others
** where the moves before left them. What the solid does to an other is
** its response, asked once per other and move: */
enum {
  OBB_RIDE = 5, /* rides when it rests on the solid, turning with it (its
                ** pose follows the solid's motion); else it is pushed */
  OBB_STAND,    /* OBB_RIDE, but it keeps its rotation (it stands upright,
                ** as a character does; moved out of the solid along the
                ** face it rests on where the turn left it inside) */
  OBB_PUSH,     /* pushed when the solid goes into it, never carried */
  OBB_ONEWAY,   /* the solid is one-way for it: it stands on the solid
                ** when it rests on it, is pushed only when the solid goes
                ** into it from below (the face it is met on a floor, the
                ** solid not inside it), and is let through otherwise;
                ** ignored in a world without an up */
  OBB_CRUSH     /* a record: carried or pushed, it did not get out of the
                ** solid's way */
};
/* OBB_CROSS: reported when the solid goes into it (a trigger the solid
** moves through), not moved; OBB_IGNORE: nothing. OBB_TOUCH, OBB_SLIDE,
** OBB_BOUNCE and any value above OBB_ONEWAY: the default, what the filter
** is told (hit->what). */

/* What a solid's move tells its filter of an other (what: the response
** it gets without a filter: OBB_RIDE when it rests on the solid by the
** world's up, or on a rider, else OBB_PUSH), and what it reports of each
** other it affected (what: OBB_RIDE, OBB_STAND, OBB_PUSH, OBB_CROSS or
** OBB_CRUSH). t in [0, 1]: when the solid's motion reaches it (0 for an
** other it touches, or is inside, when it starts, and in a record for a
** rider); n: the unit normal from the solid toward the other, its way out
** (the face it rests on or is met on, or for what rests on a rider the
** rider's face; in a record, turned with the solid to its goal); d: in a
** record, how far it moved (zeros for the filter and a crossed other);
** depth: for the filter, how deep the solid is in it when it starts (> 0
** only for an other it is inside), and in a crush record how far short it
** stopped (a rider: along n; a pushed other: of where it was pushed to),
** at least how deep it ends in the solid (its penetration depth; an
** other the solid was inside when it started: that alone); 0 in any
** other record. */
typedef struct obb_solid_hit {
  int other;
  int what;
  double t;
  double n[3];
  double d[3];
  double depth;
} obb_solid_hit;

/* The response of the solid to hit->other; a negative value aborts. */
typedef int (*obb_solid_filter_fn)(void *ctx, int solid,
                                   const obb_solid_hit *hit);
typedef void (*obb_solid_report_fn)(void *ctx, const obb_solid_hit *hit);

/* Moves solid id to the pose of goal (an obb2 or obb3 of the world's
** dimension: its center and rotation; the solid keeps its half extents)
** as above, committing the solid and every other it moves. filter NULL:
** every other its default. movers: the filter of the riders' and the
** pushed others' moves (the mover as item; obb_world_move's, NULL: every
** other slides), the solid never asked about. The filter is asked about
** the others the solid touches or is inside when it starts (inside first,
** then nearer centers, then lower ids), then about what rests on its
** riders (in waves, nearest its rider first), then about those its motion
** goes into (first met first: by t, then nearer centers, then ids);
** report gets one record per other affected, in that order, once the move
** is done. Returns the
** number of records and into *crushed (may be NULL) how many were
** crushes; or -1 when memory runs out, -2 when a filter aborted, -3 for
** a goal that is not finite or whose distance overflows: the world then
** as it was. Callbacks must not change the world. */
OBB_API int obb_world_move_solid(obb_world *w, int id, const void *goal,
                                 obb_solid_filter_fn filter,
                                 obb_move_filter_fn movers,
                                 obb_solid_report_fn report, void *ctx,
                                 int *crushed);

/* Puts back every box the world's last obb_world_move_solid changed, if
** nothing else changed the world since: for a caller whose callback did
** not return (a scripting layer's error, by longjmp), or that must undo a
** move it could not finish on its side. Returns 1 when it put them back. */
OBB_API int obb_world_undo_solid(obb_world *w);
/* Gives back what obb_world_undo_solid took back (every box the move gave),
** if nothing changed the world since that undo: for a caller that takes a
** move back to write its records (which may run code that changes the
** world) and then commits it. Returns 1 when it did. */
OBB_API int obb_world_redo_solid(obb_world *w);

/* ---- the character kit (src/core/obb_character.c) --------------------- */
/*
** A character is an item whose moves (obb_world_move_with, without a turn)
** keep it on the ground as a platformer's player expects, by the world's
** up and slope (obb_world_set_up; a world without an up moves characters
** as any item). Each option on its own, zero or 0 for off:
** - snap: an item that stood on a floor when the move began, and whose
**   move does not go up, and that ends off the floor, is moved straight
**   down (against up) onto a floor within snap of where it ends, if there
**   is one: it walks down slopes and over crests without taking off;
** - step: an item blocked by a wall (a face neither a floor nor a ceiling)
**   while it stood on a floor steps up onto a ledge at most step higher
**   when it can: up, on along its move, then down onto a floor;
** - corner: a move blocked by a face whose blocker the item overlaps by
**   at most corner along that face (the head that clips a ledge, the
**   off-centre entry of a corridor) is nudged that way past the blocker,
**   and goes on;
** - stop_on_slope: an item standing on a floor does not slide down it
**   under a move that only goes down (gravity): it stays, bit for bit;
**   a move with a part across up goes along the floor by that part alone;
** - block_on_wall: a slide along a face steeper than a floor never takes
**   the item higher than its move would (it slides down such a slope,
**   never up it);
** - leave: what the item keeps of its ground's motion (obb_ground.motion)
**   on the move that leaves it (obb_character_state.platform): all of it,
**   its part along up (only when that is up), or none.
** With every option off a character's move is obb_world_move_with's, bit
** for bit; only its state (below) is kept besides.
*/
enum { OBB_LEAVE_ALL = 0, OBB_LEAVE_UP, OBB_LEAVE_NONE };
typedef struct obb_character {
  double snap, step, corner; /* lengths: finite, >= 0 */
  int stop_on_slope, block_on_wall; /* 0 or 1 */
  int leave; /* OBB_LEAVE_* */
} obb_character;

/* What an item stands on: other (-1: nothing), whether the face it rests
** on is a floor by the world's up and slope, n the unit normal of that
** face (from the other toward the item), gap how far below the item it
** is (along -up; 0 when they touch by the touching rule), and motion the
** displacement the other's last move as a solid (obb_world_move_solid)
** gave the point at the item's center (zeros for an other never moved as
** a solid). */
typedef struct obb_ground {
  int other;
  int floor;
  double n[3];
  double gap;
  double motion[3];
} obb_ground;

/* What a character's last committed move left it (zeros until then):
** whether it ends on a floor (touching one below it), whether the move
** met a wall (a face neither a floor nor a ceiling) or a ceiling (a face
** whose normal is within the slope of -up), its ground where it ends, and
** platform: the ground's motion kept by the leave option on the move that
** left a moving ground, else while on a ground its motion, else zeros. */
typedef struct obb_character_state {
  int on_floor, on_wall, on_ceiling;
  obb_ground ground;
  double platform[3];
} obb_character_state;

/* Makes item id a character with options c (NULL: an item again, its
** state dropped). Returns 0, or -1 (changing nothing) for a dead id, an
** option out of range, or memory. Setting options keeps the state. */
OBB_API int obb_world_set_character(obb_world *w, int id,
                                    const obb_character *c);
/* 1 with item id's options into c (may be NULL) when it is a character,
** else 0. */
OBB_API int obb_world_character(const obb_world *w, int id, obb_character *c);
/* 1 with character id's state into s, else 0 (s zeroed, its ground's
** other -1). */
OBB_API int obb_world_character_state(const obb_world *w, int id,
                                      obb_character_state *s);
/* What item id (any item) stands on, into g: the first other below it
** that a straight move down (against the world's up) by distance would
** meet (filter as for moves: OBB_IGNORE and OBB_CROSS others and sensors
** are no ground; NULL: every other is), within distance (0: only what it
** touches now, by the touching rule); of several met at once, the one
** whose face is most nearly up, then the first met. Returns 1 with g set,
** 0 for none (g->other -1), -1 for a world without an up, a dead id, a
** distance that is not finite and >= 0, or memory; -2 when the filter
** aborted. The world is not changed. */
OBB_API int obb_world_ground(obb_world *w, int id, double distance,
                             obb_move_filter_fn filter, void *ctx,
                             obb_ground *g);

#ifdef __cplusplus
}
#endif

#endif
