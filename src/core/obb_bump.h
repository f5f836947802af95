/*
** obb_bump.h: bump.lua's move for axis-aligned rectangles, over an obb
** world's broad phase (obb_bump.c). Internal: the C half of obb.bump's
** default rules (lua/obb/bump.lua; the binding's src/binding/lobb_bump.h).
*/
#ifndef OBB_BUMP_H
#define OBB_BUMP_H

#include "obb_world.h"

/* A number as Lua 5.3 and later keep it: a float, or an integer (isint)
** whose value v holds exactly. bump's answers are computed in Lua, whose
** integer arithmetic gives integers where every operand is one (a tile
** at x = 16 meets a col whose otherRect.x is the integer 16), so the loop
** keeps the subtype beside each value. Values agree with Lua's as long as
** the integers given stay within +-2^26 (sums and products of them are
** then exact in a double); the caller sends larger ones to Lua. Under
** Lua 5.1, 5.2 and LuaJIT every isint is 0. */
typedef struct obb_bump_num {
  double v;
  int isint;
} obb_bump_num;

/* bump's rectangle: its top-left corner and its size (w, h > 0). */
typedef struct obb_bump_rect {
  obb_bump_num x, y, w, h;
} obb_bump_rect;

/* What the filter answered about an other: nothing (false or nil), one of
** bump's built-in responses, or any other name (a custom response, or a
** name with no response: Lua resolves that col). The first five are
** obb_world.h's OBB_IGNORE .. OBB_BOUNCE. */
enum obb_bump_kind {
  OBB_BUMP_NONE,
  OBB_BUMP_TOUCH,
  OBB_BUMP_CROSS,
  OBB_BUMP_SLIDE,
  OBB_BUMP_BOUNCE,
  OBB_BUMP_OTHER
};

/* bump's narrow phase of one pair (rect.detectCollision): whether the
** mover overlaps the other where it starts, ti (the entry time, or minus
** the area of the overlap), the normal (integers -1, 0, 1) and the touch
** (where the mover stops). */
typedef struct obb_bump_hit {
  int overlaps;
  obb_bump_num ti, nx, ny, tx, ty;
} obb_bump_hit;

/* bump's rect.detectCollision of rectangle a moving to (gx, gy) against
** b: 1 and *hit, or 0 when they do not collide. */
int obb_bump_detect(const obb_bump_rect *a, const obb_bump_rect *b,
                    obb_bump_num gx, obb_bump_num gy, obb_bump_hit *hit);

/* One projection of the move (bump's world:project): the rectangle from
** (x, y), its size the mover's, toward (gx, gy). index counts them from 0. */
typedef struct obb_bump_step {
  obb_bump_num x, y, gx, gy;
  int index;
} obb_bump_step;

/* The caller's side of a move (obb_bump_check):
** - rect: an item's rectangle by id, or NULL (the move then stops, -1);
** - ask: the filter's answer (an obb_bump_kind) about other, met on step
**   p, with bump's narrow phase of the pair (hit, or NULL for none). The
**   loop asks about each other a step finds, in the order found, before
**   it looks at the answers. A negative answer aborts the move (-2);
** - col: the step's first col, met at the loop's ask number ask (0 for
**   its first), its answer kind, and the goal its response gives when the
**   loop goes on with it (a slide's or bounce's, else NULL). */
typedef struct obb_bump_io {
  const obb_bump_rect *(*rect)(void *ctx, int id);
  int (*ask)(void *ctx, const obb_bump_step *p, int other,
             const obb_bump_hit *hit);
  int (*col)(void *ctx, const obb_bump_step *p, int ask, int kind,
             const obb_bump_num *goal);
  void *ctx;
} obb_bump_io;

enum {
  OBB_BUMP_DONE = 0,   /* the move ended at goal */
  OBB_BUMP_HANDOFF = 1 /* the last col told is for the caller to resolve:
                       ** its answer is OBB_BUMP_OTHER, or its response's
                       ** goal is one the loop does not follow (a normal
                       ** off the axes, a goal not finite); goal is the
                       ** move's goal before it */
};

/* bump's world:check for item self of world w, its rectangle *r (at its
** place in the world), toward goal[0], goal[1]: project, resolve the first
** col by its response (touch, cross, slide, bounce), project again from
** there, never meeting an other twice (bump's loop). The others of a step
** are the items whose boxes intersect the box around the step's whole
** sweep (obb_world_query_box), a hair larger for rounding: obb.bump's
** broad phase. Writes the goal where the move ends (or, OBB_BUMP_HANDOFF,
** the goal then) into goal and returns OBB_BUMP_DONE or OBB_BUMP_HANDOFF;
** -1 when the loop cannot make the move (memory runs out, an other has no
** rectangle, a sweep too large for a box: Lua's loop then makes it), -2
** when io aborted. io's callbacks must not change w. */
int obb_bump_check(obb_world *w, const obb_bump_io *io, int self,
                   const obb_bump_rect *r, obb_bump_num goal[2]);

#endif
