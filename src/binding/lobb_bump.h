/*
** lobb_bump.h: obb.bump's C half, what its files share (internal):
** lobb_bump_store.c (the rectangles obb.bump keeps beside a world's boxes,
** and the filter's last answers), lobb_bump_run.c (bump's loop over the
** world's broad phase, run with those answers guessed), lobb_bump.c
** (obb._bump, the classic functions) and lobb_ffi_bump.c (the FFI's entry
** points, lobb_ffi.h).
**
** A world's rectangles: each is set by obb.bump after the item's box (add,
** update), and forgotten whenever the box changes any other way (every
** update and remove of the world clears it: lobb_bump_forget), so a
** rectangle the loop reads is always the one of the box the broad phase
** found. An item without one sends the move to Lua's loop. A guess is the
** filter's last answer about that other (OBB_SLIDE before any): Lua asks
** the filter after the run, in the order the loop asked, and runs the
** loop again from the first wrong guess.
**
** The loop's records, read by obb.bump in one layout from either path
** (lobb_ffi.h, LOBB_FFI_BUMP_*; lobb_bump_ask_values): per ask, the
** other's id, the answer, the step, whether it hits, and bump's narrow
** phase of the pair (overlaps, ti, normal, touch) with the other's
** rectangle; per col, its ask and the goal its response gave (where each
** step starts and goes follows from the cols before it). The classic
** function writes them into Lua tables, numbers with their Lua 5.3
** subtype; the FFI entry into the caller's doubles.
*/
#ifndef LOBB_BUMP_H
#define LOBB_BUMP_H

#include "lobb_ffi.h"
#include "lobb_world.h"

/* A number as Lua 5.3 and later keep it: a float, or an integer (isint)
** whose value v holds exactly. bump's answers are computed in Lua, whose
** integer arithmetic gives integers where every operand is one (a tile
** at x = 16 meets a col whose otherRect.x is the integer 16), so the loop
** keeps the subtype beside each value. Values agree with Lua's as long as
** the integers given stay within +-LOBB_BUMP_MAX_INT (sums and products
** of them are then exact in a double); larger ones go to Lua's loop.
** Under Lua 5.1, 5.2 and LuaJIT every isint is 0. */
typedef struct lobb_bump_num {
  double v;
  int isint;
} lobb_bump_num;

#define LOBB_BUMP_MAX_INT 67108864.0 /* 2^26 */

/* bump's rectangle: its top-left corner and its size (w, h > 0). */
typedef struct lobb_bump_rect {
  lobb_bump_num x, y, w, h;
} lobb_bump_rect;

/* What the filter answered about an other: the core's OBB_IGNORE (false
** or nil) to OBB_BOUNCE (obb_world.h) for bump's built-in responses, or
** any other name (a custom response, or a name with no response: Lua
** resolves that col). */
#define OBB_BUMP_OTHER (OBB_BOUNCE + 1)

/* bump's narrow phase of one pair (rect.detectCollision): whether the
** mover overlaps the other where it starts, ti (the entry time, or minus
** the area of the overlap), the normal (integers -1, 0, 1) and the touch
** (where the mover stops). */
typedef struct lobb_bump_hit {
  int overlaps;
  lobb_bump_num ti, nx, ny, tx, ty;
} lobb_bump_hit;

/* The asks a move may make before Lua's loop makes it instead: bump's
** loop asks about a crowd of n crossed others n (n + 1) / 2 times. */
#define LOBB_BUMP_MAX_ASKS 65536

/* An ask of a run: the other, its answer, its step, whether it hits and
** bump's narrow phase of the pair with the other's rectangle. */
typedef struct lobb_bump_ask {
  int other, kind, step, hit;
  lobb_bump_hit h;
  lobb_bump_rect o;
} lobb_bump_ask;

/* A col of a run: its ask, and the goal its response gave. */
typedef struct lobb_bump_col {
  int ask, has_goal;
  lobb_bump_num g[2];
} lobb_bump_col;

/* A run's counts, and what it was asked to do. */
typedef struct lobb_bump_run {
  int all;    /* every answer (>= 0), else guessed or fixed */
  int nfixed; /* the first answers: lbump.fixed */
  size_t nasks, ncols;
  int wrong; /* a fixed answer is not for the other this run asks about */
} lobb_bump_run;

/* In lbump.tag, by id: the rectangle is set; the last answer + 1 (0:
** none). */
#define LOBB_BUMP_HAS_RECT 0x80
#define LOBB_BUMP_GUESS 0x07

/* A world's rectangles, the filter's last answers, the records of its
** last run and the loop's own buffers. */
struct lbump {
  lobb_bump_rect *rects; /* by id, rect_cap of them */
  unsigned char *tag;    /* by id, n of them (LOBB_BUMP_HAS_RECT, _GUESS) */
  size_t n, rect_cap;
  lobb_bump_ask *asks;
  size_t ask_cap;
  lobb_bump_col *cols;
  size_t col_cap;
  int *fixed; /* the answers asked before: other, kind */
  size_t fixed_cap;
  int *found; /* a step's others, in the order found */
  size_t found_cap;
  int *seen;  /* the others a move has met: a list, then a hashed set */
  size_t seen_cap;
  const lobb_bump_run *copy; /* the run obb._bump.check copies out, or NULL */
};

/* ---- lobb_bump_store.c ---- */

/* p (holding *cap elements of size bytes) with room for want, grown
** through the world's allocator (*cap updated); NULL, p unchanged, when
** memory runs out. */
void *lobb_bump_grow(lworld *lw, void *p, size_t *cap, size_t want,
                     size_t size);
static inline void *lobb_bump_room(lworld *lw, void *p, size_t *cap,
                                   size_t want, size_t size) {
  return want <= *cap ? p : lobb_bump_grow(lw, p, cap, want, size);
}
/* A rectangle bump takes: finite, w and h positive, integers within
** LOBB_BUMP_MAX_INT. */
int lobb_bump_good(const lobb_bump_rect *r);
/* Sets item id's rectangle r, or forgets it (0) for one the loop does not
** take (lobb_bump_good) or when memory runs out. */
int lobb_bump_set(lworld *lw, int id, const lobb_bump_rect *r);
/* Gives live item id the box of r and r itself as its rectangle; 0,
** changing nothing, for a rectangle the loop does not take or a center
** that overflows (w:update refuses it). */
int lobb_bump_update(lworld *lw, int id, const lobb_bump_rect *r);
/* A recorded other's id, or -1 for a number that is none. */
int lobb_bump_id(double v);
/* Fixes answer i of the next run (lobb_bump_runnable made room): the
** other (a recorded id) and kind (an answer); 0 for a kind that is none
** (no run then). */
int lobb_bump_fix(lbump *b, int i, double other, double kind);
/* Whether a run with every answer all (>= 0) or nfixed answers in [0,
** LOBB_BUMP_MAX_ASKS] can be made (the world's store is there, with room
** for the answers to fix, lobb_bump_fix). */
int lobb_bump_runnable(lworld *lw, int all, int nfixed);

/* ---- lobb_bump_run.c ---- */

/* bump's loop (world:check) for item id from its rectangle *r toward goal
** (which it sets: where the move ends or hands off), the answers all (>=
** 0) or the nfixed fixed (lobb_bump_fix) then guessed, its records into
** lw->bump. Returns LOBB_BUMP_DONE or LOBB_BUMP_HANDOFF; -1 when the loop
** cannot make the move (memory runs out, an other has no rectangle, a
** sweep too large for a box, too many asks: Lua's loop then makes it), -3
** when a fixed answer is not this run's. */
int lobb_bump_check(lworld *lw, int id, const lobb_bump_rect *r,
                    lobb_bump_num goal[2], int all, int nfixed,
                    lobb_bump_run *run);
enum {
  LOBB_BUMP_DONE = 0,   /* the move ended at goal */
  LOBB_BUMP_HANDOFF = 1 /* the last col is for Lua to resolve: its answer
                        ** is OBB_BUMP_OTHER, or its response's goal is one
                        ** the loop does not follow (a normal off the
                        ** axes, a goal not finite); goal is the move's
                        ** goal before it */
};
/* With the run's status rc, the move from r to goal committed as obb.bump
** would commit it after asking, when it needs no asking (every answer
** all, or none asked), is done and moved; 1 when it committed. */
int lobb_bump_commit(lworld *lw, int id, const lobb_bump_rect *r,
                     const lobb_bump_num goal[2], int rc,
                     const lobb_bump_run *run);
/* Record i of the last run (ask, or col: LOBB_FFI_BUMP_ASK or _COL
** numbers, lobb_ffi.h's layout) into v, for either writer (Lua tables,
** doubles); returns how many it has (an ask that misses, a col without a
** goal: fewer). */
static inline lobb_bump_num lobb_bump_int(int k) {
  lobb_bump_num n;
  n.v = k;
  n.isint = 1;
  return n;
}
static inline int lobb_bump_ask_values(const lbump *b, size_t i,
                                       lobb_bump_num *v) {
  const lobb_bump_ask *a = &b->asks[i];
  v[0] = lobb_bump_int(a->other);
  v[1] = lobb_bump_int(a->kind);
  v[2] = lobb_bump_int(a->step);
  v[3] = lobb_bump_int(a->hit);
  if (!a->hit) return 4;
  v[4] = lobb_bump_int(a->h.overlaps);
  v[5] = a->h.ti;
  v[6] = a->h.nx;
  v[7] = a->h.ny;
  v[8] = a->h.tx;
  v[9] = a->h.ty;
  v[10] = a->o.x;
  v[11] = a->o.y;
  v[12] = a->o.w;
  v[13] = a->o.h;
  return LOBB_FFI_BUMP_ASK;
}
static inline int lobb_bump_col_values(const lbump *b, size_t i,
                                       lobb_bump_num *v) {
  const lobb_bump_col *c = &b->cols[i];
  v[0] = lobb_bump_int(c->ask);
  v[1] = lobb_bump_int(c->has_goal);
  if (!c->has_goal) return 2;
  v[2] = c->g[0];
  v[3] = c->g[1];
  return LOBB_FFI_BUMP_COL;
}

#endif
