/*
** lobb_bump.h: obb.bump's C half, what its files share (internal):
** lobb_bump_run.c (the rectangles obb.bump keeps beside a world's boxes,
** and runs of bump's loop with the filter's answers guessed), lobb_bump.c
** (obb._bump, the classic functions) and lobb_ffi_bump.c (the FFI's entry
** points, include/lobb_ffi.h).
**
** A world's rectangles: each is set by obb.bump after the item's box (add,
** update), and forgotten whenever the box changes any other way (every
** update and remove of the world clears it: lobb_bump_forget), so a
** rectangle the loop reads is always the one of the box the broad phase
** found. An item without one sends the move to Lua's loop. A guess is the
** filter's last answer about that other (OBB_BUMP_SLIDE before any): Lua
** asks the filter after the run, in the order the loop asked, and runs
** the loop again from the first wrong guess (the FFI path's filter
** functions do the same for obb's own move: lobb_ffi_world.c).
**
** The loop's records, read by obb.bump in one layout from either path
** (lobb_ffi.h, LOBB_FFI_BUMP_*): per ask, the other's id, the answer, the
** step, whether it hits, and bump's narrow phase of the pair (overlaps,
** ti, normal, touch) with the other's rectangle; per col, its ask and the
** goal its response gave (where each step starts and goes follows from
** the cols before it). The classic function writes them into Lua tables,
** numbers with their Lua 5.3 subtype (obb_bump.h); the FFI entry into the
** caller's doubles.
*/
#ifndef LOBB_BUMP_H
#define LOBB_BUMP_H

#include "lobb_world.h"
#include "obb_bump.h"

/* The asks a move may make before Lua's loop makes it instead: bump's
** loop asks about a crowd of n crossed others n (n + 1) / 2 times. */
#define LOBB_BUMP_MAX_ASKS 65536

/* An ask of a run: the other, its answer, its step, whether it hits and
** bump's narrow phase of the pair with the other's rectangle. */
typedef struct bask {
  int other, kind, step, hit;
  obb_bump_hit h;
  obb_bump_rect o;
} bask;

/* A col of a run: its ask, and the goal its response gave. */
typedef struct bcol {
  int ask, has_goal;
  obb_bump_num g[2];
} bcol;

/* A run's counts, and what it was asked to do. */
typedef struct brun {
  lworld *lw;
  lbump *b;
  int all;    /* every answer (>= 0), else guessed or fixed */
  int nfixed; /* the first answers: b->fixed */
  size_t nasks, ncols;
  int wrong; /* a fixed answer is not for the other this run asks about */
  int oom;
} brun;

/* A world's rectangles, guesses and the records of its last run. */
struct lbump {
  obb_bump_rect *rects; /* by id, rect_cap of them */
  unsigned char *tag;   /* by id, n of them: the rectangle set, the guess */
  size_t n, rect_cap;
  bask *asks;
  size_t ask_cap;
  bcol *cols;
  size_t col_cap;
  int *fixed; /* the answers asked before: other, kind */
  size_t fixed_cap;
  const brun *copy; /* the run obb._bump.check copies out, or NULL */
};

/* ---- lobb_bump_run.c ---- */

/* A rectangle bump takes: finite, w and h positive, integers within
** 2^26 (obb_bump.h). */
int lobb_bump_good(const obb_bump_rect *r);
/* Sets item id's rectangle r (lobb_bump_good); 0 (it stays unset) when
** memory runs out. */
int lobb_bump_put(lworld *lw, int id, const obb_bump_rect *r);
/* lobb_bump_put for any r: 0 (it stays unset) for one the loop does not
** take. */
int lobb_bump_set(lworld *lw, int id, const obb_bump_rect *r);
/* Gives live item id the box of r and r itself as its rectangle; 0,
** changing nothing, for a rectangle the loop does not take or a center
** that overflows (w:update refuses it). */
int lobb_bump_update(lworld *lw, int id, const obb_bump_rect *r);
/* Whether a run with every answer all (>= 0) or nfixed answers in [0,
** LOBB_BUMP_MAX_ASKS] can be made (the world's store is there, with room
** for the answers); its fixed answers then go into lw->bump->fixed. */
int lobb_bump_runnable(lworld *lw, int all, int nfixed);
/* A recorded other's id, or -1 for a number that is none. */
int lobb_bump_id(double v);
/* Runs bump's loop for item id from *r toward goal (which it sets: where
** the move ends or hands off), the answers all (>= 0) or the nfixed in
** lw->bump->fixed then guessed, its records into lw->bump. Returns
** obb_bump_check's code, or -3 when a fixed answer is not this run's. */
int lobb_bump_run(lworld *lw, int id, const obb_bump_rect *r,
                  obb_bump_num goal[2], int all, int nfixed, brun *out);
/* With the run's status rc, the move from r to goal committed as obb.bump
** would commit it after asking, when it needs no asking (every answer
** all, or none asked), is done and moved; 1 when it committed. */
int lobb_bump_commit(lworld *lw, int id, const obb_bump_rect *r,
                     const obb_bump_num goal[2], int rc, const brun *res);

#endif
