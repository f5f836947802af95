/*
** obb_cast.c: casting a box through a world: every item it touches as it
** moves (obb_world_cast), or as it moves and turns (obb_world_cast_turning),
** each with its time of first contact and normal. Queries of the world,
** beside obb_world_raycast; the movers (obb_move.c) resolve what they meet,
** a cast only reports it.
*/
#include <math.h>

#include "obb_world.h"
#include "obb_bounds.h"
#include "obb_world_impl.h"

static const double *extents(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->e : ((const obb3 *)b)->e;
}

static const double *center_of(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->c : ((const obb3 *)b)->c;
}

/* ---- cast ------------------------------------------------------------- */

typedef struct caster {
  obb_world *w;
  const void *box;
  double d[3];
  double turn[3]; /* cast_turning: 2D the angle in turn[0], 3D the vector */
  int limits;     /* cast_turning: items answered OBB_SWEEP_LIMIT */
  obb_world_sweep_fn f;
  void *ctx;
} caster;

static void on_cast(void *ctx, int id) {
  caster *c = (caster *)ctx;
  const void *other = obb_world_box(c->w, id);
  double zero[3] = {0, 0, 0}, t, n[3] = {0, 0, 0};
  int hit = obb_world_dim(c->w) == 2
      ? obb2_sweep((const obb2 *)c->box, (const obb2 *)other, c->d, zero, &t, n)
      : obb3_sweep((const obb3 *)c->box, (const obb3 *)other, c->d, zero, &t, n);
  if (hit) c->f(c->ctx, id, t, n);
}

int obb_world_cast(obb_world *w, const void *box, const double *d,
                   obb_world_sweep_fn f, void *ctx) {
  caster c;
  double bounds[6];
  int q, dim = obb_world_dim(w);
  c.w = w; c.box = box; c.f = f; c.ctx = ctx;
  c.d[0] = d[0]; c.d[1] = d[1]; c.d[2] = dim == 3 ? d[2] : 0;
  if (dim == 2) obb2_bounds((const obb2 *)box, bounds);
  else obb3_bounds((const obb3 *)box, bounds);
  for (q = 0; q < 3; q++) {
    if (c.d[q] < 0) bounds[q] += c.d[q];
    else bounds[q + 3] += c.d[q];
  }
  return obb_world_query_bounds(w, bounds, on_cast, &c);
}

/* ---- cast, turning ---------------------------------------------------- */

static void on_cast_turning(void *ctx, int id) {
  caster *c = (caster *)ctx;
  const void *other = obb_world_box(c->w, id);
  double zero[3] = {0, 0, 0}, t, n[3] = {0, 0, 0};
  int r = obb_world_dim(c->w) == 2
      ? obb2_sweep_turning((const obb2 *)c->box, (const obb2 *)other, c->d,
                           zero, c->turn[0], 0.0, &t, n)
      : obb3_sweep_turning((const obb3 *)c->box, (const obb3 *)other, c->d,
                           zero, c->turn, zero, &t, n);
  if (r == OBB_SWEEP_NONE) return;
  if (r == OBB_SWEEP_LIMIT) c->limits++;
  c->f(c->ctx, id, t, n);
}

int obb_world_cast_turning(obb_world *w, const void *box, const double *d,
                           const double *turn, obb_world_sweep_fn f,
                           void *ctx) {
  caster c;
  double bounds[6];
  int q, dim = obb_world_dim(w), turns = dim == 2 ? 1 : 3, still = 1;
  for (q = 0; q < turns; q++)
    if (turn[q] != 0) still = 0;
  if (still) /* no turn: the translational cast, bit for bit */
    return obb_world_cast(w, box, d, f, ctx) != 0 ? -1 : 0;
  c.w = w; c.box = box; c.f = f; c.ctx = ctx; c.limits = 0;
  for (q = 0; q < 3; q++) {
    c.d[q] = q < dim ? d[q] : 0;
    c.turn[q] = q < turns ? turn[q] : 0;
  }
  obb_turning_bounds(dim, center_of(dim, box), extents(dim, box), c.d, bounds);
  if (obb_world_query_bounds(w, bounds, on_cast_turning, &c) != 0) return -1;
  return c.limits;
}
