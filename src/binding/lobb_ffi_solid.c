/*
** lobb_ffi_solid.c: the entry points of the LuaJIT FFI fast path for
** w:move_solid (lobb_ffi.h), with no filter function: the solid's
** responses and its movers' each a response name or a response set, read
** by class in C, as the classic method (lobb_solid.c) reads them.
**
** The core commits a solid's move as it goes (obb_solid.c). A call with
** no out table has nothing left that can raise once C is done, and is
** done in one call. With one, the records must be written into it by Lua
** before the move counts (a finalizer may run meanwhile, and use or
** change the world): the move is run, its records kept, then taken back
** (obb_world_undo_solid), and lobb_ffi_world_redo_solid gives it back once
** the records are written, unless the world changed in between; then the
** classic method runs it again. No Lua runs here.
*/
#include <limits.h>
#include <string.h>

#include "lobb_ffi.h"
#include "lobb_responses.h"
#include "lobb_world.h"
#include "obb_math.h"

/* What the core's callbacks share. */
typedef struct ffi_solid {
  lworld *lw;
  int response;              /* the solid's response to every other (-1:
                             ** its default), or */
  const unsigned char *set;  /* a response set's, by class */
  int mresponse;             /* the movers' response to every other, or */
  const unsigned char *mset; /* a set's */
  double *hits;
  int n, cap;
} ffi_solid;

static int solid_filter(void *ctx, int solid, const obb_solid_hit *hit) {
  const ffi_solid *f = (const ffi_solid *)ctx;
  (void)solid;
  if (f->set != NULL) return f->set[lobb_world_class(f->lw, hit->other)];
  return f->response < 0 ? hit->what : f->response;
}

static int movers_filter(void *ctx, int item, const obb_move_hit *hit) {
  const ffi_solid *f = (const ffi_solid *)ctx;
  (void)item;
  if (f->mset != NULL) return f->mset[lobb_world_class(f->lw, hit->other)];
  return f->mresponse;
}

static void solid_report(void *ctx, const obb_solid_hit *h) {
  ffi_solid *f = (ffi_solid *)ctx;
  double *r;
  int q;
  if (f->n++ >= f->cap) return; /* counted: the caller then runs classic */
  r = f->hits + LOBB_FFI_SOLID_RECORD * (f->n - 1); /* 3D's layout in 2D */
  r[0] = h->other;
  r[1] = h->what;
  r[2] = h->t;
  for (q = 0; q < 3; q++) {
    r[3 + q] = h->n[q];
    r[6 + q] = h->d[q];
  }
  r[9] = h->depth;
}

/* Whether a set (responses, behind a userdata carrying the sets' real
** metatable) or a response is one the classic method takes without a
** raise: a set is recognised by its tag; a solid's set with "oneway" in a
** world without an up is left to the classic method, which raises. */
static int take(const lworld *lw, const void *responses, int response,
                int solid, const unsigned char **set) {
  const lobb_responses *s = (const lobb_responses *)responses;
  double up[3], slope;
  int c, has_up = obb_world_up(lw->w, up, &slope);
  *set = NULL;
  if (s != NULL) {
    if (s->tag != LOBB_TAG_RESPONSES) return 0;
    if (solid && !has_up)
      for (c = 0; c < LOBB_NCLASSES; c++)
        if (s->r[c] == OBB_ONEWAY) return 0;
    *set = s->r;
    return 1;
  }
  if (solid)
    return response == -1 || response == OBB_IGNORE ||
           (response >= OBB_TOUCH && response <= OBB_PUSH) ||
           (response == OBB_ONEWAY && has_up);
  return response >= OBB_IGNORE && response <= OBB_BOUNCE;
}

/* The solid's goal box from the nv numbers v after the item: its center,
** and in the turning form its rotation (an angle, a quaternion), as the
** classic method makes it; 0 when the classic method must run. */
static int goal_box(const lworld *lw, int k, const double *v, int nv,
                    anybox *g) {
  int dim = lw->dim, turning = nv == dim + (dim == 2 ? 1 : 4);
  if ((nv != dim && !turning) || !obb_all_finite(v, (size_t)nv)) return 0;
  if (dim == 2) {
    g->b2 = *(const obb2 *)obb_world_box(lw->w, k);
    g->b2.c[0] = v[0];
    g->b2.c[1] = v[1];
    return !turning || obb2_set_angle(&g->b2, v[2]) == OBB_OK;
  }
  g->b3 = *(const obb3 *)obb_world_box(lw->w, k);
  memcpy(g->b3.c, v, sizeof g->b3.c);
  if (!turning) return 1;
  if (v[3] == 0 && v[4] == 0 && v[5] == 0 && v[6] == 0) return 0;
  return obb3_set_rotation(&g->b3, v + 3) == OBB_OK;
}

/* obb.bump forgets the rectangles of the boxes the move changed (the
** records' others, but those crossed). Any id is safe there; a number
** that is none is skipped. */
static void forget(lworld *lw, int k, const double *hits, int n) {
  int i;
  lobb_bump_forget(lw, k);
  for (i = 0; i < n; i++) {
    const double *r = hits + LOBB_FFI_SOLID_RECORD * i;
    if (r[1] != OBB_CROSS && r[0] >= 0 && r[0] < INT_MAX)
      lobb_bump_forget(lw, (int)r[0]);
  }
}

int lobb_ffi_world_move_solid(void *world, double id, const double *v, int nv,
                              int response, const void *responses,
                              int mresponse, const void *mresponses,
                              double *hits, int cap, double *out,
                              int commit) {
  int k, n, crushed = 0;
  lworld *lw = lobb_world_usableid(world, 0, id, &k);
  ffi_solid f;
  anybox goal;
  if (lw == NULL || cap < 0 || !goal_box(lw, k, v, nv, &goal)) return -1;
  memset(&f, 0, sizeof f);
  f.lw = lw;
  f.response = response;
  f.mresponse = mresponse;
  f.hits = hits;
  f.cap = cap;
  if (!take(lw, responses, response, 1, &f.set) ||
      !take(lw, mresponses, mresponse, 0, &f.mset))
    return -1;
  n = obb_world_move_solid(lw->w, k, &goal, solid_filter, movers_filter,
                           solid_report, &f, &crushed);
  if (n < 0) return -1; /* undone by the core: the classic method says why */
  out[2] = f.n;
  if (f.n > f.cap) {
    obb_world_undo_solid(lw->w);
    return LOBB_FFI_FULL;
  }
  out[0] = crushed;
  out[3] = lw->dim;
  if (commit) {
    forget(lw, k, hits, n);
  } else {
    obb_world_undo_solid(lw->w);
  }
  out[1] = obb_world_changes(lw->w);
  return n;
}

int lobb_ffi_world_redo_solid(void *world, double id, double stamp,
                              const double *hits, int n) {
  int k;
  lworld *lw = lobb_world_usableid(world, 0, id, &k);
  if (lw == NULL || obb_world_changes(lw->w) != stamp ||
      !obb_world_redo_solid(lw->w))
    return 0;
  forget(lw, k, hits, n);
  return 1;
}
