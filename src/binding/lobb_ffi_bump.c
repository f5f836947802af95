/*
** lobb_ffi_bump.c: obb.bump's entry points for LuaJIT's FFI fast path
** (include/lobb_ffi.h, lua/obb/jit_bump.lua): the classic obb._bump's
** (lobb_bump.c) on plain numbers, its records written into the caller's
** doubles. No Lua runs in any of them.
*/
#include "lobb_bump.h"
#include "lobb_ffi.h"
#include "obb_math.h"

static obb_bump_rect rect_of(double x, double y, double w, double h) {
  obb_bump_rect r;
  r.x.v = x;
  r.y.v = y;
  r.w.v = w;
  r.h.v = h;
  r.x.isint = r.y.isint = r.w.isint = r.h.isint = 0;
  return r;
}

int lobb_ffi_bump_rect(void *world, double id, double x, double y, double w,
                       double h) {
  int k;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  obb_bump_rect rect = rect_of(x, y, w, h);
  if (lw == NULL) return 0;
  return lobb_bump_set(lw, k, &rect);
}

int lobb_ffi_bump_update(void *world, double id, double x, double y,
                         double w, double h) {
  int k;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  obb_bump_rect rect = rect_of(x, y, w, h);
  return lw != NULL && lobb_bump_update(lw, k, &rect);
}

static void put_num(double *d, obb_bump_num n) { *d = n.v; }

static void put_ask(double *d, const bask *a) {
  d[0] = a->other;
  d[1] = a->kind;
  d[2] = a->step;
  d[3] = a->hit;
  if (!a->hit) return;
  d[4] = a->h.overlaps;
  put_num(d + 5, a->h.ti);
  put_num(d + 6, a->h.nx);
  put_num(d + 7, a->h.ny);
  put_num(d + 8, a->h.tx);
  put_num(d + 9, a->h.ty);
  put_num(d + 10, a->o.x);
  put_num(d + 11, a->o.y);
  put_num(d + 12, a->o.w);
  put_num(d + 13, a->o.h);
}

int lobb_ffi_bump_check(void *world, double id, const double *in, int all,
                        int nfixed, int commit, double *asks, int ask_cap,
                        double *cols, int col_cap, double *out) {
  int k, rc, i;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  obb_bump_rect r;
  obb_bump_num goal[2];
  brun res;
  lbump *b;
  if (lw == NULL || !lobb_bump_runnable(lw, all, nfixed) || nfixed > ask_cap)
    return -1;
  b = lw->bump;
  for (i = 0; i < nfixed; i++) {
    const double *a = asks + (size_t)LOBB_FFI_BUMP_ASK * i;
    if (!(a[1] >= OBB_BUMP_NONE && a[1] <= OBB_BUMP_OTHER)) return -3;
    b->fixed[2 * i] = lobb_bump_id(a[0]);
    b->fixed[2 * i + 1] = (int)a[1];
  }
  r = rect_of(in[0], in[1], in[2], in[3]);
  goal[0].v = in[4];
  goal[1].v = in[5];
  goal[0].isint = goal[1].isint = 0;
  if (!lobb_bump_good(&r) || !obb_finite(goal[0].v) || !obb_finite(goal[1].v))
    return -1;
  rc = lobb_bump_run(lw, k, &r, goal, all, nfixed, &res);
  out[0] = goal[0].v;
  out[1] = goal[1].v;
  out[2] = (double)res.nasks;
  out[3] = (double)res.ncols;
  out[4] = 0;
  if (rc < 0) return rc;
  if (res.nasks > (size_t)ask_cap || res.ncols > (size_t)col_cap) return -2;
  if (commit) out[4] = lobb_bump_commit(lw, k, &r, goal, rc, &res);
  for (i = nfixed; (size_t)i < res.nasks; i++)
    put_ask(asks + (size_t)LOBB_FFI_BUMP_ASK * i, &b->asks[i]);
  for (i = 0; (size_t)i < res.ncols; i++) {
    double *c = cols + (size_t)LOBB_FFI_BUMP_COL * i;
    const bcol *bc = &b->cols[i];
    c[0] = bc->ask;
    c[1] = bc->has_goal;
    c[2] = bc->g[0].v;
    c[3] = bc->g[1].v;
  }
  return rc;
}
