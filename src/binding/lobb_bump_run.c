/*
** lobb_bump_run.c: bump.lua's move for axis-aligned rectangles over an obb
** world's broad phase, run with the filter's answers guessed, and its
** records (lobb_bump.h).
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
** in Lua: the two must agree on every number, which is why each
** expression below is written in the order its Lua twin evaluates, and
** why each number carries Lua's integer subtype (lobb_bump_num).
*/
#include <math.h>
#include <string.h>

#include "lobb_bump.h"
#include "obb_math.h"

/* bump's margin (DELTA in bump.lua): how far inside a point must be, how
** far apart the entry and exit of a segment. */
#define DELTA 1e-10

/* The others met in a move are found by a scan up to this many; beyond,
** by a hashed set (a crowd of crossed others would make a scan cubic). */
#define LINEAR_SEEN 16

typedef lobb_bump_num num_t;
typedef lobb_bump_rect rect_t;
typedef lobb_bump_hit hit_t;

/* ---- numbers as Lua keeps them ----------------------------------------- */

static num_t num(double v, int isint) {
  num_t n;
  n.v = isint && v == 0 ? 0.0 : v; /* an integer has no -0 */
  n.isint = isint;
  return n;
}

static num_t add(num_t a, num_t b) { return num(a.v + b.v, a.isint && b.isint); }

static num_t sub(num_t a, num_t b) { return num(a.v - b.v, a.isint && b.isint); }

static num_t mul(num_t a, num_t b) { return num(a.v * b.v, a.isint && b.isint); }

static num_t neg(num_t a) { return num(-a.v, a.isint); }

static num_t absn(num_t a) { return num(fabs(a.v), a.isint); }

/* math.min(a, b): the first unless the second is less, as Lua 5.4 picks. */
static num_t minn(num_t a, num_t b) { return b.v < a.v ? b : a; }

static const num_t ZERO = {0.0, 1}, ONE = {1.0, 1}, MINUS_ONE = {-1.0, 1};

/* ---- the narrow phase (bump.rect) -------------------------------------- */

/* The one of a, b nearer v (b on a tie). */
static num_t nearest(num_t v, num_t a, num_t b) {
  return fabs(a.v - v.v) < fabs(b.v - v.v) ? a : b;
}

/* The Minkowski difference of b and a (rect.getDiff). */
static rect_t diff(const rect_t *a, const rect_t *b) {
  rect_t d;
  d.x = sub(sub(b->x, a->x), a->w);
  d.y = sub(sub(b->y, a->y), a->h);
  d.w = add(a->w, b->w);
  d.h = add(a->h, b->h);
  return d;
}

/* The origin strictly inside d, by more than DELTA (rect.containsPoint). */
static int holds_origin(const rect_t *d) {
  return 0 - d->x.v > DELTA && 0 - d->y.v > DELTA &&
         d->x.v + d->w.v - 0 > DELTA && d->y.v + d->h.v - 0 > DELTA;
}

/* Liang-Barsky: the segment from the origin by (dx, dy) against d, in
** [*t1, *t2]: narrows them to where it enters and leaves and sets the
** entry's normal, or returns 0 when it misses
** (rect.getSegmentIntersectionIndices; sides left, right, top, bottom). */
static int segment(const rect_t *d, double dx, double dy, double *t1,
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
static num_t overlap_ti(const rect_t *a, const rect_t *d) {
  num_t px = nearest(ZERO, d->x, add(d->x, d->w));
  num_t py = nearest(ZERO, d->y, add(d->y, d->h));
  return neg(mul(minn(a->w, absn(px)), minn(a->h, absn(py))));
}

static num_t sign_of(num_t v) {
  return v.v > 0 ? ONE : v.v < 0 ? MINUS_ONE : ZERO;
}

/* An overlap with no move: the shorter way out along an axis. */
static void way_out(const rect_t *a, const rect_t *d, hit_t *hit) {
  num_t px = nearest(ZERO, d->x, add(d->x, d->w));
  num_t py = nearest(ZERO, d->y, add(d->y, d->h));
  if (fabs(px.v) < fabs(py.v)) py = ZERO;
  else px = ZERO;
  hit->nx = sign_of(px);
  hit->ny = sign_of(py);
  hit->tx = add(a->x, px);
  hit->ty = add(a->y, py);
}

/* The touch at t along the move (x1 + dx * t: a float, t being one). */
static void touch_at(const rect_t *a, num_t dx, num_t dy, double t,
                     const int n[2], hit_t *hit) {
  hit->nx = num(n[0], 1);
  hit->ny = num(n[1], 1);
  hit->tx = num(a->x.v + dx.v * t, 0);
  hit->ty = num(a->y.v + dy.v * t, 0);
}

/* bump's rect.detectCollision of rectangle a moving to (gx, gy) against
** b: 1 and *hit, or 0 when they do not collide. */
static int detect(const rect_t *a, const rect_t *b, num_t gx, num_t gy,
                  hit_t *hit) {
  num_t dx = sub(gx, a->x), dy = sub(gy, a->y);
  rect_t d = diff(a, b);
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

/* ---- the loop's state -------------------------------------------------- */

/* One projection of the move (bump's world:project): the rectangle from
** (x, y), its size the mover's, toward (gx, gy); index counts them from 0. */
typedef struct step {
  num_t x, y, gx, gy;
  int index;
} step;

/* A step's first col so far (other -1: none). */
typedef struct first_col {
  int other, ask, kind;
  hit_t hit;
  const rect_t *rect;
} first_col;

typedef struct bump_loop {
  lworld *lw;
  lbump *b;            /* its rectangles, guesses, records and buffers */
  lobb_bump_run *run;
  int self, oom;
  rect_t item;         /* at the step's start; w, h the mover's */
  size_t nfound;       /* b->found: a step's others, in the order found */
  size_t nseen, seen_room; /* b->seen: the others met, up to seen_room */
  unsigned seen_mask;  /* 0: a list */
} bump_loop;

/* ---- the others met: a list, then a set -------------------------------- */

static unsigned seen_slot(const bump_loop *m, int id) {
  return ((unsigned)id * 2654435761u) & m->seen_mask;
}

static int was_seen(const bump_loop *m, int id) {
  const int *seen = m->b->seen;
  unsigned s;
  size_t i;
  if (m->seen_mask == 0) {
    for (i = 0; i < m->nseen; i++)
      if (seen[i] == id) return 1;
    return 0;
  }
  for (s = seen_slot(m, id); seen[s] >= 0; s = (s + 1) & m->seen_mask)
    if (seen[s] == id) return 1;
  return 0;
}

static void put_seen(bump_loop *m, int id) {
  int *seen = m->b->seen;
  unsigned s = seen_slot(m, id);
  while (seen[s] >= 0) s = (s + 1) & m->seen_mask;
  seen[s] = id;
}

/* The set at four times the count's room, every id met put in again. */
static int grow_seen(bump_loop *m) {
  lbump *b = m->b;
  size_t n = 64, count = m->nseen, i;
  unsigned mask = m->seen_mask;
  int kept[LINEAR_SEEN], *p, *old;
  while (n < 4 * count + 4) n *= 2;
  if (mask == 0) memcpy(kept, b->seen, count * sizeof(int));
  p = (int *)lobb_bump_room(m->lw, b->seen, &b->seen_cap, 2 * n, sizeof(int));
  if (p == NULL) return 0;
  b->seen = p;
  old = p + n; /* the old set, if any, is moved to the upper half first */
  if (mask != 0) memmove(old, p, (size_t)(mask + 1) * sizeof(int));
  m->seen_mask = (unsigned)n - 1;
  m->seen_room = n / 2;
  for (i = 0; i < n; i++) p[i] = -1;
  if (mask == 0) {
    for (i = 0; i < count; i++) put_seen(m, kept[i]);
  } else {
    for (i = 0; i <= mask; i++)
      if (old[i] >= 0) put_seen(m, old[i]);
  }
  return 1;
}

static int mark_seen(bump_loop *m, int id) {
  if (m->nseen == m->seen_room && !grow_seen(m)) return 0;
  if (m->seen_mask == 0) m->b->seen[m->nseen] = id;
  else put_seen(m, id);
  m->nseen++;
  return 1;
}

/* ---- the records ------------------------------------------------------- */

/* The guess about other: the filter's last answer (OBB_SLIDE before any). */
static int guess_of(const lbump *b, int other) {
  int g = (size_t)other < b->n ? b->tag[other] & LOBB_BUMP_GUESS : 0;
  return g == 0 ? OBB_SLIDE : g - 1;
}

static void keep_answer(lbump *b, int other, int kind) {
  if ((size_t)other < b->n)
    b->tag[other] =
        (unsigned char)((b->tag[other] & LOBB_BUMP_HAS_RECT) | (kind + 1));
}

/* Records the ask about other, met on step p with bump's narrow phase hit
** (NULL: none), and returns its answer: every answer, a fixed one or the
** guess; -1 ends the run (too many asks, no memory, a fixed answer that
** is not for this other). */
static int ask(bump_loop *m, const step *p, int other, const hit_t *hit) {
  lbump *b = m->b;
  lobb_bump_run *r = m->run;
  size_t i = r->nasks;
  lobb_bump_ask *a;
  if (i >= LOBB_BUMP_MAX_ASKS) return -1;
  a = (lobb_bump_ask *)lobb_bump_room(m->lw, b->asks, &b->ask_cap, i + 1,
                                      sizeof *a);
  if (a == NULL) return -1;
  b->asks = a;
  a += i;
  if (r->all >= 0) a->kind = r->all;
  else if ((int)i < r->nfixed) {
    if (b->fixed[2 * i] != other) {
      r->wrong = 1;
      return -1;
    }
    a->kind = b->fixed[2 * i + 1];
    keep_answer(b, other, a->kind);
  } else a->kind = guess_of(b, other);
  a->other = other;
  a->step = p->index;
  a->hit = hit != NULL;
  if (hit != NULL) {
    a->h = *hit;
    a->o = b->rects[other];
  }
  r->nasks++;
  return a->kind;
}

/* Records the col met at ask number n, and the goal its response gives
** (NULL: none); 0, or -1 when memory runs out. */
static int record_col(bump_loop *m, int n, const num_t *goal) {
  lbump *b = m->b;
  lobb_bump_col *c = (lobb_bump_col *)lobb_bump_room(
      m->lw, b->cols, &b->col_cap, m->run->ncols + 1, sizeof *c);
  if (c == NULL) return -1;
  b->cols = c;
  c += m->run->ncols++;
  c->ask = n;
  c->has_goal = goal != NULL;
  if (goal != NULL) {
    c->g[0] = goal[0];
    c->g[1] = goal[1];
  }
  return 0;
}

/* ---- one step ---------------------------------------------------------- */

static void on_found(void *ctx, int id) {
  bump_loop *m = (bump_loop *)ctx;
  lbump *b = m->b;
  int *p;
  if (m->oom) return;
  p = (int *)lobb_bump_room(m->lw, b->found, &b->found_cap, m->nfound + 1,
                            sizeof(int));
  if (p == NULL) {
    m->oom = 1;
    return;
  }
  b->found = p;
  p[m->nfound++] = id;
}

/* The others near step p: every item whose box meets the box around the
** whole sweep, a hair larger (projectFirst's box, in its arithmetic). */
static int find_others(bump_loop *m, const step *p) {
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
  if (obb_world_query_box(m->lw->w, &box, on_found, m) != 0) m->oom = 1;
  return !m->oom;
}

/* bump's squared distance between the centers (rect.getSquareDistance). */
static double square_distance(const rect_t *a, const rect_t *b) {
  double dx = a->x.v - b->x.v + (a->w.v - b->w.v) / 2;
  double dy = a->y.v - b->y.v + (a->h.v - b->h.v) / 2;
  return dx * dx + dy * dy;
}

/* Whether a col met with hit against rect comes before f's. */
static int sooner(const bump_loop *m, const first_col *f, const hit_t *hit,
                  const rect_t *rect) {
  if (f->other < 0) return 1;
  if (hit->ti.v != f->hit.ti.v) return hit->ti.v < f->hit.ti.v;
  return square_distance(&m->item, rect) < square_distance(&m->item, f->rect);
}

/* Item id's rectangle, or NULL. */
static const rect_t *rect_of(const lbump *b, int id) {
  return (size_t)id < b->n && (size_t)id < b->rect_cap &&
                 (b->tag[id] & LOBB_BUMP_HAS_RECT) ? &b->rects[id] : NULL;
}

/* Step p: asks about each other found, in order, and keeps the first col
** in f (f->other -1: none). Returns 0, or -1 to end the run. */
static int project(bump_loop *m, const step *p, first_col *f) {
  size_t i;
  m->item.x = p->x;
  m->item.y = p->y;
  memset(f, 0, sizeof *f);
  f->other = -1;
  if (!find_others(m, p)) return -1;
  for (i = 0; i < m->nfound; i++) {
    int other = m->b->found[i], hits, kind;
    const rect_t *rect;
    hit_t hit;
    if (other == m->self || was_seen(m, other)) continue;
    rect = rect_of(m->b, other);
    if (rect == NULL) return -1;
    hits = detect(&m->item, rect, p->gx, p->gy, &hit);
    kind = ask(m, p, other, hits ? &hit : NULL);
    if (kind < 0) return -1;
    if (kind == OBB_IGNORE || !hits || !sooner(m, f, &hit, rect)) continue;
    f->other = other;
    f->ask = (int)m->run->nasks - 1;
    f->kind = kind;
    f->hit = hit;
    f->rect = rect;
  }
  return 0;
}

/* The goal a slide or bounce of col f gives, moving from p to its goal
** (bump's slide and bounce, for the axis-aligned normals its narrow
** phase gives); 0 for a normal off the axes (Lua's clip then). */
static int builtin_goal(const step *p, const first_col *f, num_t g[2]) {
  const hit_t *h = &f->hit;
  int moving = p->gx.v - p->x.v != 0 || p->gy.v - p->y.v != 0;
  g[0] = p->gx;
  g[1] = p->gy;
  if (h->nx.v != 0 && h->ny.v != 0) return 0;
  if (f->kind == OBB_SLIDE) {
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
    num_t bx = sub(g[0], h->tx), by = sub(g[1], h->ty);
    if (h->nx.v == 0) by = neg(by);
    else bx = neg(bx);
    g[0] = add(h->tx, bx);
    g[1] = add(h->ty, by);
  }
  return 1;
}

static int all_finite(const num_t *a, const num_t *b) {
  return obb_finite(a[0].v) && obb_finite(a[1].v) && obb_finite(b[0].v) &&
         obb_finite(b[1].v);
}

/* ---- the loop ---------------------------------------------------------- */

/* The move past col f of step p, which f's response decides: p set to the
** next step, or the move's end into goal; returns -1 (no more room),
** LOBB_BUMP_DONE or LOBB_BUMP_HANDOFF (the move ended), or 2 (go on). */
static int resolve_col(bump_loop *m, step *p, const first_col *f,
                       const rect_t *r, num_t goal[2]) {
  num_t g[2], from[2];
  switch (f->kind) {
  case OBB_TOUCH:
    goal[0] = f->hit.tx;
    goal[1] = f->hit.ty;
    return record_col(m, f->ask, NULL) < 0 ? -1 : LOBB_BUMP_DONE;
  case OBB_CROSS: /* bump projects a cross from the move's start */
    if (record_col(m, f->ask, NULL) < 0) return -1;
    p->x = r->x;
    p->y = r->y;
    return 2;
  case OBB_SLIDE: case OBB_BOUNCE:
    from[0] = f->hit.tx;
    from[1] = f->hit.ty;
    if (!builtin_goal(p, f, g) || !all_finite(from, g)) break;
    if (record_col(m, f->ask, g) < 0) return -1;
    p->x = from[0];
    p->y = from[1];
    p->gx = g[0];
    p->gy = g[1];
    return 2;
  }
  /* a name Lua resolves, or a goal the loop does not follow */
  goal[0] = p->gx;
  goal[1] = p->gy;
  return record_col(m, f->ask, NULL) < 0 ? -1 : LOBB_BUMP_HANDOFF;
}

static int start_loop(bump_loop *m, lworld *lw, lobb_bump_run *run, int self,
                 const rect_t *r) {
  lbump *b = lw->bump;
  int *found, *seen;
  memset(m, 0, sizeof *m);
  m->lw = lw;
  m->b = b;
  m->run = run;
  m->self = self;
  m->item = *r;
  m->seen_room = LINEAR_SEEN;
  found = (int *)lobb_bump_room(lw, b->found, &b->found_cap, 64, sizeof(int));
  if (found == NULL) return 0;
  b->found = found;
  seen = (int *)lobb_bump_room(lw, b->seen, &b->seen_cap, LINEAR_SEEN,
                               sizeof(int));
  if (seen == NULL) return 0;
  b->seen = seen;
  return 1;
}

/* bump's world:check: project, resolve the first col by its response
** (touch, cross, slide, bounce), project again from there, never meeting
** an other twice. */
static int run_loop(bump_loop *m, const rect_t *r, num_t goal[2]) {
  step p;
  first_col f;
  int rc;
  p.x = r->x;
  p.y = r->y;
  p.gx = goal[0];
  p.gy = goal[1];
  for (p.index = 0;; p.index++) {
    if (project(m, &p, &f) != 0) return -1;
    if (f.other < 0) {
      goal[0] = p.gx;
      goal[1] = p.gy;
      return LOBB_BUMP_DONE;
    }
    if (!mark_seen(m, f.other)) return -1;
    rc = resolve_col(m, &p, &f, r, goal);
    if (rc != 2) return rc;
  }
}

int lobb_bump_check(lworld *lw, int id, const rect_t *r, num_t goal[2],
                    int all, int nfixed, lobb_bump_run *run) {
  bump_loop m;
  int rc;
  memset(run, 0, sizeof *run);
  run->all = all;
  run->nfixed = nfixed;
  if (!start_loop(&m, lw, run, id, r)) return -1;
  rc = run_loop(&m, r, goal);
  return run->wrong ? -3 : rc;
}

int lobb_bump_commit(lworld *lw, int id, const rect_t *r,
                     const num_t goal[2], int rc, const lobb_bump_run *run) {
  rect_t to = *r;
  if (rc != LOBB_BUMP_DONE || (run->all < 0 && run->nasks > 0) ||
      (goal[0].v == r->x.v && goal[1].v == r->y.v))
    return 0;
  to.x = goal[0];
  to.y = goal[1];
  return lobb_bump_update(lw, id, &to);
}
