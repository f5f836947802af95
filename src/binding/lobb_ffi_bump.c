/*
** lobb_ffi_bump.c: obb.bump's entry points for LuaJIT's FFI fast path
** (lobb_ffi.h, lua/obb/jit_bump.lua): the classic obb._bump's
** (lobb_bump.c) on plain numbers, its records written into the caller's
** doubles. No Lua runs in any of them.
*/
#include "lobb_bump.h"
#include "lobb_ffi.h"
#include "obb_math.h"

static lobb_bump_rect rect_from(double x, double y, double w, double h) {
  lobb_bump_rect r;
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
  lobb_bump_rect rect = rect_from(x, y, w, h);
  if (lw == NULL) return 0;
  return lobb_bump_set(lw, k, &rect);
}

int lobb_ffi_bump_update(void *world, double id, double x, double y,
                         double w, double h) {
  int k;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  lobb_bump_rect rect = rect_from(x, y, w, h);
  return lw != NULL && lobb_bump_update(lw, k, &rect);
}

/* Record k of n numbers v into d (stride numbers each). */
static void put_record(double *d, size_t k, int stride,
                       const lobb_bump_num *v, int n) {
  int j;
  d += (size_t)stride * k;
  for (j = 0; j < n; j++) d[j] = v[j].v;
}

int lobb_ffi_bump_check(void *world, double id, const double *in, int all,
                        int nfixed, int commit, double *asks, int ask_cap,
                        double *cols, int col_cap, double *out) {
  int k, rc, i;
  lworld *lw = lobb_world_usableid(world, 2, id, &k);
  lobb_bump_rect r;
  lobb_bump_num goal[2], v[LOBB_FFI_BUMP_ASK];
  lobb_bump_run res;
  size_t j;
  if (lw == NULL || !lobb_bump_runnable(lw, all, nfixed) || nfixed > ask_cap)
    return -1;
  for (i = 0; i < nfixed; i++) {
    const double *a = asks + (size_t)LOBB_FFI_BUMP_ASK * i;
    if (!lobb_bump_fix(lw->bump, i, a[0], a[1])) return -3;
  }
  r = rect_from(in[0], in[1], in[2], in[3]);
  goal[0].v = in[4];
  goal[1].v = in[5];
  goal[0].isint = goal[1].isint = 0;
  if (!lobb_bump_good(&r) || !obb_finite(goal[0].v) || !obb_finite(goal[1].v))
    return -1;
  rc = lobb_bump_check(lw, k, &r, goal, all, nfixed, &res);
  out[0] = goal[0].v;
  out[1] = goal[1].v;
  out[2] = (double)res.nasks;
  out[3] = (double)res.ncols;
  out[4] = 0;
  if (rc < 0) return rc;
  if (res.nasks > (size_t)ask_cap || res.ncols > (size_t)col_cap) return -2;
  if (commit) out[4] = lobb_bump_commit(lw, k, &r, goal, rc, &res);
  for (j = (size_t)nfixed; j < res.nasks; j++)
    put_record(asks, j, LOBB_FFI_BUMP_ASK, v,
               lobb_bump_ask_values(lw->bump, j, v));
  for (j = 0; j < res.ncols; j++)
    put_record(cols, j, LOBB_FFI_BUMP_COL, v,
               lobb_bump_col_values(lw->bump, j, v));
  return rc;
}
