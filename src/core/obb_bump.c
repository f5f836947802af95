/*
** obb_bump.c: bump.lua's move for axis-aligned rectangles over an obb
** world's broad phase (obb_bump.h).
**
** bump.lua (kikito's, 3.1, MIT) moves a rectangle in a loop: it projects
** the move (asks the filter about every other near it, then tests each
** answered one with its narrow phase), resolves the first collision (by
** ti, then by the squared distance between the centers, then the order
** found) with its response, and projects again from where the response
** leaves the rectangle toward the goal it gives, never meeting an other
** twice. obb.bump follows that algorithm by default, its arithmetic
** included, so that its answers are bump's bit for bit (spec/
** bump_faithful_spec.lua). lua/obb/bump.lua holds it in Lua (its
** projectFirst, consider and detect); this file is the same loop in C,
** so that a move is one call and its filter's answers are asked after,
** in Lua (src/binding/lobb_bump.h): the two must agree on every number, which is why
** each expression below is written in the order its Lua twin evaluates,
** and why each number carries Lua's integer subtype (obb_bump_num).
*/
#include <math.h>
#include <string.h>

#include "obb_bump.h"
#include "obb_math.h"
#include "obb_world_impl.h"

/* bump's margin (DELTA in bump.lua): how far inside a point must be, how
** far apart the entry and exit of a segment. */
#define DELTA 1e-10

/* The others met in a move are found by a scan up to this many; beyond,
** by a hashed set (a crowd of crossed others would make a scan cubic). */
#define LINEAR_SEEN 16

/* ---- numbers as Lua keeps them ----------------------------------------- */

static obb_bump_num num(double v, int isint) {
  obb_bump_num n;
  n.v = isint && v == 0 ? 0.0 : v; /* an integer has no -0 */
  n.isint = isint;
  return n;
}

static obb_bump_num add(obb_bump_num a, obb_bump_num b) {
  return num(a.v + b.v, a.isint && b.isint);
}

static obb_bump_num sub(obb_bump_num a, obb_bump_num b) {
  return num(a.v - b.v, a.isint && b.isint);
}

static obb_bump_num mul(obb_bump_num a, obb_bump_num b) {
  return num(a.v * b.v, a.isint && b.isint);
}

static obb_bump_num neg(obb_bump_num a) { return num(-a.v, a.isint); }

static obb_bump_num absn(obb_bump_num a) { return num(fabs(a.v), a.isint); }

/* math.min(a, b) and math.max(a, b): the first unless the second is less
** (greater), as Lua 5.4 picks. */
static obb_bump_num minn(obb_bump_num a, obb_bump_num b) {
  return b.v < a.v ? b : a;
}

static const obb_bump_num ZERO = {0.0, 1}, ONE = {1.0, 1}, MINUS_ONE = {-1.0, 1};

/* ---- the narrow phase (bump.rect) -------------------------------------- */

/* The one of a, b nearer v (b on a tie). */
static obb_bump_num nearest(obb_bump_num v, obb_bump_num a, obb_bump_num b) {
  return fabs(a.v - v.v) < fabs(b.v - v.v) ? a : b;
}

/* The Minkowski difference of b and a (rect.getDiff). */
static obb_bump_rect diff(const obb_bump_rect *a, const obb_bump_rect *b) {
  obb_bump_rect d;
  d.x = sub(sub(b->x, a->x), a->w);
  d.y = sub(sub(b->y, a->y), a->h);
  d.w = add(a->w, b->w);
  d.h = add(a->h, b->h);
  return d;
}

/* The origin strictly inside d, by more than DELTA (rect.containsPoint). */
static int holds_origin(const obb_bump_rect *d) {
  return 0 - d->x.v > DELTA && 0 - d->y.v > DELTA &&
         d->x.v + d->w.v - 0 > DELTA && d->y.v + d->h.v - 0 > DELTA;
}

/* Liang-Barsky: the segment from the origin by (dx, dy) against d, in
** [*t1, *t2]: narrows them to where it enters and leaves and sets the
** entry's normal, or returns 0 when it misses
** (rect.getSegmentIntersectionIndices; sides left, right, top, bottom). */
static int segment(const obb_bump_rect *d, double dx, double dy, double *t1,
                   double *t2, int n1[2]) {
  double p[4], q[4];
  static const int nx[4] = {-1, 1, 0, 0}, ny[4] = {0, 0, -1, 1};
  int k;
  p[0] = -dx; q[0] = 0 - d->x.v;
  p[1] = dx;  q[1] = d->x.v + d->w.v - 0;
  p[2] = -dy; q[2] = 0 - d->y.v;
  p[3] = dy;  q[3] = d->y.v + d->h.v - 0;
  n1[0] = n1[1] = 0;
  for (k = 0; k < 4; k++) {
    double r;
    if (p[k] == 0) {
      if (q[k] <= 0) return 0;
      continue;
    }
    r = q[k] / p[k];
    if (p[k] < 0) { /* going in through this side */
      if (r > *t2) return 0;
      if (r > *t1) {
        *t1 = r;
        n1[0] = nx[k];
        n1[1] = ny[k];
      }
    } else { /* going out */
      if (r < *t1) return 0;
      if (r < *t2) *t2 = r;
    }
  }
  return 1;
}

/* bump's measure of an overlap: minus the area of a that the nearest
** corner of the difference cuts out. */
static obb_bump_num overlap_ti(const obb_bump_rect *a,
                               const obb_bump_rect *d) {
  obb_bump_num px = nearest(ZERO, d->x, add(d->x, d->w));
  obb_bump_num py = nearest(ZERO, d->y, add(d->y, d->h));
  return neg(mul(minn(a->w, absn(px)), minn(a->h, absn(py))));
}

static obb_bump_num sign_of(obb_bump_num v) {
  return v.v > 0 ? ONE : v.v < 0 ? MINUS_ONE : ZERO;
}

/* An overlap with no move: the shorter way out along an axis. */
static void way_out(const obb_bump_rect *a, const obb_bump_rect *d,
                    obb_bump_hit *hit) {
  obb_bump_num px = nearest(ZERO, d->x, add(d->x, d->w));
  obb_bump_num py = nearest(ZERO, d->y, add(d->y, d->h));
  if (fabs(px.v) < fabs(py.v)) py = ZERO;
  else px = ZERO;
  hit->nx = sign_of(px);
  hit->ny = sign_of(py);
  hit->tx = add(a->x, px);
  hit->ty = add(a->y, py);
}

/* The touch at t along the move (x1 + dx * t: a float, t being one). */
static void touch_at(const obb_bump_rect *a, obb_bump_num dx, obb_bump_num dy,
                     double t, const int n[2], obb_bump_hit *hit) {
  hit->nx = num(n[0], 1);
  hit->ny = num(n[1], 1);
  hit->tx = num(a->x.v + dx.v * t, 0);
  hit->ty = num(a->y.v + dy.v * t, 0);
}

int obb_bump_detect(const obb_bump_rect *a, const obb_bump_rect *b,
                    obb_bump_num gx, obb_bump_num gy, obb_bump_hit *hit) {
  obb_bump_num dx = sub(gx, a->x), dy = sub(gy, a->y);
  obb_bump_rect d = diff(a, b);
  double t1, t2;
  int n[2];
  if (holds_origin(&d)) {
    hit->overlaps = 1;
    hit->ti = overlap_ti(a, &d);
    if (dx.v == 0 && dy.v == 0) {
      way_out(a, &d, hit);
      return 1;
    }
    t1 = -HUGE_VAL; /* back along the move */
    t2 = 1;
    if (!segment(&d, dx.v, dy.v, &t1, &t2, n)) return 0;
    touch_at(a, dx, dy, t1, n, hit);
    return 1;
  }
  t1 = -HUGE_VAL;
  t2 = HUGE_VAL;
  /* entering before the goal, not through a corner only, not behind */
  if (!segment(&d, dx.v, dy.v, &t1, &t2, n) || !(t1 < 1) ||
      !(fabs(t1 - t2) >= DELTA) || !(0 < t1 + DELTA || (t1 == 0 && t2 > 0)))
    return 0;
  hit->overlaps = 0;
  hit->ti = num(t1, 0);
  touch_at(a, dx, dy, t1, n, hit);
  return 1;
}

/* ---- the loop ---------------------------------------------------------- */

/* A step's first col so far. */
typedef struct first {
  int other, ask, kind;
  obb_bump_hit hit;
  const obb_bump_rect *rect;
} first;

typedef struct mover {
  obb_world *w;
  const obb_bump_io *io;
  int self, nasks, oom;
  obb_bump_rect item; /* at the step's start; w, h the mover's */
  int *found;         /* a step's others, in the order found */
  int nfound, found_cap;
  int *seen;          /* the others met: a list, then a hashed set */
  int nseen, seen_cap;
  unsigned seen_mask; /* 0: a list */
} mover;

/* ---- the others met: a list, then a set -------------------------------- */

static unsigned slot_of(const mover *m, int id) {
  return ((unsigned)id * 2654435761u) & m->seen_mask;
}

static int was_seen(const mover *m, int id) {
  unsigned s;
  int i;
  if (m->seen_mask == 0) {
    for (i = 0; i < m->nseen; i++)
      if (m->seen[i] == id) return 1;
    return 0;
  }
  for (s = slot_of(m, id); m->seen[s] >= 0; s = (s + 1) & m->seen_mask)
    if (m->seen[s] == id) return 1;
  return 0;
}

static void put_seen(mover *m, int id) {
  unsigned s = slot_of(m, id);
  while (m->seen[s] >= 0) s = (s + 1) & m->seen_mask;
  m->seen[s] = id;
}

/* The set at four times the count's room, every id met put in again. */
static int grow_seen(mover *m) {
  size_t n = 64;
  int *old = m->seen, i, *p, count = m->nseen;
  int kept[LINEAR_SEEN];
  unsigned mask = m->seen_mask;
  while (n < 4 * (size_t)count + 4) n *= 2;
  if (mask == 0) memcpy(kept, old, (size_t)count * sizeof(int));
  p = (int *)obb_world_scratch(m->w, OBB_SCRATCH_BUMP_SEEN, 2 * n * sizeof(int));
  if (p == NULL) return 0;
  /* the old set, if any, is moved to the upper half first */
  if (mask != 0) {
    memmove(p + n, p, (size_t)(mask + 1) * sizeof(int));
    old = p + n;
  }
  m->seen = p;
  m->seen_mask = (unsigned)n - 1;
  m->seen_cap = (int)(n / 2);
  for (i = 0; i < (int)n; i++) p[i] = -1;
  if (mask == 0) {
    for (i = 0; i < count; i++) put_seen(m, kept[i]);
  } else {
    for (i = 0; i <= (int)mask; i++)
      if (old[i] >= 0) put_seen(m, old[i]);
  }
  return 1;
}

static int mark_seen(mover *m, int id) {
  if (m->nseen == m->seen_cap && !grow_seen(m)) return 0;
  if (m->seen_mask == 0) m->seen[m->nseen] = id;
  else put_seen(m, id);
  m->nseen++;
  return 1;
}

/* ---- one step ---------------------------------------------------------- */

static void on_found(void *ctx, int id) {
  mover *m = (mover *)ctx;
  if (m->oom) return;
  if (m->nfound == m->found_cap) {
    int *p = (int *)obb_world_scratch(m->w, OBB_SCRATCH_BUMP_FOUND,
                                      2 * (size_t)m->found_cap * sizeof(int));
    if (p == NULL) {
      m->oom = 1;
      return;
    }
    m->found = p;
    m->found_cap *= 2;
  }
  m->found[m->nfound++] = id;
}

/* The others near step p: every item whose box meets the box around the
** whole sweep, a hair larger (projectFirst's box, in its arithmetic). */
static int find_others(mover *m, const obb_bump_step *p) {
  double l = minn(p->gx, p->x).v, t = minn(p->gy, p->y).v;
  double wv = m->item.w.v, hv = m->item.h.v;
  double gxw = p->gx.v + wv, xw = p->x.v + wv;
  double gyh = p->gy.v + hv, yh = p->y.v + hv;
  double hw = ((gxw < xw ? xw : gxw) - l) / 2;
  double hh = ((gyh < yh ? yh : gyh) - t) / 2;
  double pad = 1e-9 * (fabs(l) + fabs(t) + hw + hh);
  obb2 box;
  box.c[0] = l + hw;
  box.c[1] = t + hh;
  box.e[0] = hw + pad;
  box.e[1] = hh + pad;
  box.u[0] = 1; /* box:set's angle 0: obb_sincos(0) is exactly (0, 1) */
  box.u[1] = 0;
  if (!obb_finite(box.c[0]) || !obb_finite(box.c[1]) ||
      !obb_finite(box.e[0]) || !obb_finite(box.e[1]))
    return 0; /* Lua's loop makes it (its box measured by halves) */
  m->nfound = 0;
  if (obb_world_query_box(m->w, &box, on_found, m) != 0) m->oom = 1;
  return !m->oom;
}

/* bump's squared distance between the centers (rect.getSquareDistance). */
static double square_distance(const obb_bump_rect *a,
                              const obb_bump_rect *b) {
  double dx = a->x.v - b->x.v + (a->w.v - b->w.v) / 2;
  double dy = a->y.v - b->y.v + (a->h.v - b->h.v) / 2;
  return dx * dx + dy * dy;
}

/* Whether a col met with hit against rect comes before f's. */
static int sooner(const mover *m, const first *f, const obb_bump_hit *hit,
                  const obb_bump_rect *rect) {
  if (f->other < 0) return 1;
  if (hit->ti.v != f->hit.ti.v) return hit->ti.v < f->hit.ti.v;
  return square_distance(&m->item, rect) < square_distance(&m->item, f->rect);
}

/* Step p: asks about each other found, in order, and keeps the first col
** in f (f->other -1: none). Returns 0, or obb_bump_check's -1 or -2. */
static int project(mover *m, const obb_bump_step *p, first *f) {
  int i;
  m->item.x = p->x;
  m->item.y = p->y;
  memset(f, 0, sizeof *f);
  f->other = -1;
  if (!find_others(m, p)) return -1;
  for (i = 0; i < m->nfound; i++) {
    int other = m->found[i], hits, kind;
    const obb_bump_rect *rect;
    obb_bump_hit hit;
    if (other == m->self || was_seen(m, other)) continue;
    rect = m->io->rect(m->io->ctx, other);
    if (rect == NULL) return -1;
    hits = obb_bump_detect(&m->item, rect, p->gx, p->gy, &hit);
    kind = m->io->ask(m->io->ctx, p, other, hits ? &hit : NULL);
    if (kind < 0) return -2;
    m->nasks++;
    if (kind == OBB_BUMP_NONE || !hits || !sooner(m, f, &hit, rect)) continue;
    f->other = other;
    f->ask = m->nasks - 1;
    f->kind = kind;
    f->hit = hit;
    f->rect = rect;
  }
  return 0;
}

/* The goal a slide or bounce of col f gives, moving from p to its goal
** (bump's slide and bounce, for the axis-aligned normals its narrow
** phase gives); 0 for a normal off the axes (Lua's clip then). */
static int respond(const obb_bump_step *p, const first *f, obb_bump_num g[2]) {
  const obb_bump_hit *h = &f->hit;
  int moving = p->gx.v - p->x.v != 0 || p->gy.v - p->y.v != 0;
  g[0] = p->gx;
  g[1] = p->gy;
  if (h->nx.v != 0 && h->ny.v != 0) return 0;
  if (f->kind == OBB_BUMP_SLIDE) {
    if (!moving) return 1;
    if (h->nx.v != 0) g[0] = h->tx;
    else g[1] = h->ty;
    return 1;
  }
  if (!moving) { /* a bounce without a move stops at the touch */
    g[0] = h->tx;
    g[1] = h->ty;
    return 1;
  }
  {
    obb_bump_num bx = sub(g[0], h->tx), by = sub(g[1], h->ty);
    if (h->nx.v == 0) by = neg(by);
    else bx = neg(bx);
    g[0] = add(h->tx, bx);
    g[1] = add(h->ty, by);
  }
  return 1;
}

static int all_finite(const obb_bump_num *a, const obb_bump_num *b) {
  return obb_finite(a[0].v) && obb_finite(a[1].v) && obb_finite(b[0].v) &&
         obb_finite(b[1].v);
}

static int start(mover *m, obb_world *w, const obb_bump_io *io, int self,
                 const obb_bump_rect *r) {
  memset(m, 0, sizeof *m);
  m->w = w;
  m->io = io;
  m->self = self;
  m->item = *r;
  m->found = (int *)obb_world_scratch(w, OBB_SCRATCH_BUMP_FOUND,
                                      64 * sizeof(int));
  m->found_cap = 64;
  m->seen = (int *)obb_world_scratch(w, OBB_SCRATCH_BUMP_SEEN,
                                     LINEAR_SEEN * sizeof(int));
  m->seen_cap = LINEAR_SEEN;
  return m->found != NULL && m->seen != NULL;
}

int obb_bump_check(obb_world *w, const obb_bump_io *io, int self,
                   const obb_bump_rect *r, obb_bump_num goal[2]) {
  mover m;
  obb_bump_step p;
  obb_bump_num g[2];
  first f;
  int rc;
  if (!start(&m, w, io, self, r)) return -1;
  p.x = r->x;
  p.y = r->y;
  p.gx = goal[0];
  p.gy = goal[1];
  p.index = 0;
  for (;;) {
    if ((rc = project(&m, &p, &f)) != 0) return rc;
    if (f.other < 0) {
      goal[0] = p.gx;
      goal[1] = p.gy;
      return OBB_BUMP_DONE;
    }
    if (!mark_seen(&m, f.other)) return -1;
    switch (f.kind) {
    case OBB_BUMP_TOUCH:
      goal[0] = f.hit.tx;
      goal[1] = f.hit.ty;
      return io->col(io->ctx, &p, f.ask, f.kind, NULL) < 0 ? -2 : OBB_BUMP_DONE;
    case OBB_BUMP_CROSS: /* bump projects a cross from the move's start */
      if (io->col(io->ctx, &p, f.ask, f.kind, NULL) < 0) return -2;
      p.x = r->x;
      p.y = r->y;
      break;
    case OBB_BUMP_SLIDE: case OBB_BUMP_BOUNCE: {
      obb_bump_num from[2];
      from[0] = f.hit.tx;
      from[1] = f.hit.ty;
      if (!respond(&p, &f, g) || !all_finite(from, g)) {
        goal[0] = p.gx;
        goal[1] = p.gy;
        return io->col(io->ctx, &p, f.ask, f.kind, NULL) < 0 ? -2 : OBB_BUMP_HANDOFF;
      }
      if (io->col(io->ctx, &p, f.ask, f.kind, g) < 0) return -2;
      p.x = from[0];
      p.y = from[1];
      p.gx = g[0];
      p.gy = g[1];
      break;
    }
    default: /* a name Lua resolves */
      goal[0] = p.gx;
      goal[1] = p.gy;
      return io->col(io->ctx, &p, f.ask, f.kind, NULL) < 0 ? -2 : OBB_BUMP_HANDOFF;
    }
    p.index++;
  }
}
