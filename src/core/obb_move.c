/*
** obb_move.c: moving an item through its world (bump.lua's world:move,
** for turned boxes), and pushing an item out of what it overlaps.
**
** A move is a series of legs. On each, the item (its box at the leg's
** start, moved by the remainder r) is swept against every other the
** broad phase finds along the leg, by the separating-axis test over time
** (as obb_sweep.c), with the touching rule turned around: an other blocks
** only from the first time the two overlap by more than the band B on
** every axis, so a box that merely touches a floor, a wall or the seam
** between two flush tiles (within B) is never stopped by it. The item
** then stops where it first meets the blocker exactly (the band plays no
** part), so it ends touching, never overlapping by more than rounding.
** An other the item overlaps by more than B when a leg starts is no
** blocker (the item could not move at all): its penetration normal is a
** plane the item may not go deeper along.
**
** Every leg tests every other again (an other met on an earlier leg can
** block again: that is how a box comes to rest in a V), and the remainder
** is clipped against every plane met in the move (Quake's slide move): in
** 2D a box stops in a crease, in 3D it slides along the crease line.
**
** A turning move (obb_world_move_turning) turns the item about its center
** at a constant rate while its center moves, each leg by what remains of
** the turn over what remains of the translation: the motion of
** obbN_sweep_turning, whose certified advancement finds what a turning
** leg meets, never later than the first contact. The touching rule turned
** around holds there too: an other blocks only where the item could go
** deeper than the band into it (obbN_sweep_turning_within,
** obb_sweep_turning.h), whether the leg starts apart from it or touching
** it, so a car scraping a wall goes on along it and a crate turning as it
** slides crosses the seams of a floor of tiles; a flat pair, which cannot
** overlap that much, blocks where it first touches (obbN_sweep_turning).
** The rotation's rule at a slide or bounce: when
** the leg's translation did not go into the blocker's normal, or the
** blocker already stopped a turning leg of this move (the translation
** was clipped against it), the turn is what drove the item in, and
** turning stops there for the rest of the move (the translation slides
** on); otherwise the translation is clipped and the turn goes on, the
** next leg telling whether it drives the item in. A touch stops both. An
** item as deep in an other as the band allows, or deeper, does not turn
** while it touches it (its sweep stops it at once). A leg with no turn
** left is a translation, as obb_world_move's; a move with no turn at all
** is obb_world_move.
*/
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "obb_bounds.h"
#include "obb_events_impl.h"
#include "obb_mover.h"

/* ---- the moves' bookkeeping -------------------------------------------- */

/* The world's scratch buffer k at twice *cap records of size bytes, its
** records kept (it grows as realloc does); NULL, with m->oom set, when
** memory runs out. */
static void *grow(mover *m, int k, int *cap, size_t size) {
  int n = *cap * 2;
  void *p = n > 0 && (size_t)n < ((size_t)-1) / size
      ? obb_world_scratch(m->w, k, (size_t)n * size) : NULL;
  if (p == NULL) m->oom = 1;
  else *cap = n;
  return p;
}

/* The first slot of id in the met index. */
static unsigned slot_of(const mover *m, int id) {
  return ((unsigned)id * 2654435761u) & m->slot_mask;
}

static inline met *find_met(mover *m, int id) {
  unsigned s;
  if (m->slot == NULL) {
    int i;
    for (i = 0; i < m->nmet; i++)
      if (m->met[i].id == id) return &m->met[i];
    return NULL;
  }
  s = slot_of(m, id);
  while (m->slot[s] != 0) { /* never full: twice the met's capacity */
    met *e = &m->met[m->slot[s] - 1];
    if (e->id == id) return e;
    s = (s + 1) & m->slot_mask;
  }
  return NULL;
}

static void index_met(mover *m, int i) {
  unsigned s = slot_of(m, m->met[i].id);
  while (m->slot[s] != 0) s = (s + 1) & m->slot_mask;
  m->slot[s] = i + 1;
}

/* The met index at twice the met's capacity, filled again. */
static int reindex_met(mover *m) {
  size_t n = 2 * (size_t)m->met_cap;
  int i, *p = (int *)obb_world_scratch(m->w, OBB_SCRATCH_MET_INDEX, n * sizeof(int));
  if (p == NULL) {
    m->oom = 1;
    return 0;
  }
  m->slot = p;
  m->slot_mask = (unsigned)n - 1;
  memset(p, 0, n * sizeof(int));
  for (i = 0; i < m->nmet; i++) index_met(m, i);
  return 1;
}

static met *add_met(mover *m, int id) {
  if (m->nmet == m->met_cap) {
    met *p = (met *)grow(m, OBB_SCRATCH_MET, &m->met_cap, sizeof(met));
    if (p == NULL) return NULL;
    m->met = p;
    if (m->slot != NULL && !reindex_met(m)) return NULL;
  }
  m->met[m->nmet].id = id;
  m->met[m->nmet].reported = 0;
  m->met[m->nmet].plane = 0;
  m->met[m->nmet].slid = 0;
  m->nmet++;
  if (m->slot != NULL) index_met(m, m->nmet - 1);
  else if (m->nmet > LINEAR_MET && !reindex_met(m)) return NULL;
  return &m->met[m->nmet - 1];
}

/* What the filter and the report are told of candidate c. */
static void hit_of(const mover *m, const cand *c, int response,
                   obb_move_hit *hit) {
  hit->other = c->id;
  hit->response = response;
  hit->t = c->t;
  hit->depth = c->depth;
  memcpy(hit->n, c->n, sizeof hit->n);
  hit->p[0] = m->pos[0] + c->t * m->r[0];
  hit->p[1] = m->pos[1] + c->t * m->r[1];
  hit->p[2] = m->pos[2] + c->t * m->r[2];
}

/* The other's response, asking the filter the first time it is met (c
** holds what is reported to it). NULL: out of memory or aborted. */
static met *respond(mover *m, const cand *c) {
  met *e = find_met(m, c->id);
  obb_move_hit hit;
  int resp;
  if (e != NULL) return e;
  e = add_met(m, c->id);
  if (e == NULL) return NULL;
  e->response = OBB_SLIDE;
  if (m->sensors != NULL && m->sensors[c->id]) { /* never blocks */
    e->response = OBB_CROSS;
    return e;
  }
  if (m->responses != NULL) { /* a response set, by the other's class */
    size_t k = (size_t)c->id;
    resp = m->responses[k < m->nclasses ? m->classes[k] : 0];
    e->response = resp > OBB_BOUNCE ? OBB_SLIDE : resp;
    return e;
  }
  if (m->filter == NULL) return e;
  hit_of(m, c, OBB_SLIDE, &hit);
  resp = m->filter(m->ctx, m->self, &hit);
  if (resp == OBB_ASK && m->asks) { /* answered by obb_world_move_resume */
    m->question = hit;
    m->asked = 1;
    m->asked_met = (int)(e - m->met);
    return NULL;
  }
  if (resp < 0) {
    m->aborted = 1;
    return NULL;
  }
  e->response = resp > OBB_BOUNCE ? OBB_SLIDE : resp;
  return e;
}

/* Reports candidate c of other e: once per move, but a bounce once per
** bounce (again, when again is set: a blocker met on a later leg). */
static inline void report(mover *m, met *e, const cand *c, int again) {
  obb_move_hit hit;
  if (e->response == OBB_IGNORE) return;
  if (e->reported && !(again && e->response == OBB_BOUNCE)) return;
  e->reported = 1;
  m->nreported++;
  if (m->report == NULL) return;
  hit_of(m, c, e->response, &hit);
  m->report(m->report_ctx, &hit);
}

/* ---- what remains of the move (obb_clip.c) ----------------------------- */

static inline void aim(mover *m) {
  m->r[0] = m->dest[0] - m->pos[0];
  m->r[1] = m->dest[1] - m->pos[1];
  m->r[2] = m->dim == 3 ? m->dest[2] - m->pos[2] : 0;
  m->wl = m->turn_goal - m->turned;
}

/* The rest of the turn dropped (the translation goes on). */
static void stop_turning(mover *m) {
  m->turn_goal = m->turned;
  m->wl = 0;
}

static void stop(mover *m) {
  memcpy(m->dest, m->pos, sizeof m->dest);
  aim(m);
}

/* The remainder to a dest just clipped or mirrored. One that overflows (a
** bounce's mirror of a move near DBL_MAX) ends the move where it is: a
** non-finite remainder would give NaN times, which no loop may wait on. */
static void retarget(mover *m) {
  aim(m);
  if (!obb_all_finite(m->dest, 3) || !obb_all_finite(m->r, 3)) stop(m);
}

/* The remainder less its part into the planes met (Quake's slide move,
** never turning back against the move's direction); else nothing. */
static void clip(mover *m) {
  if (obb_clip_planes(m->dim, m->pos, m->dest,
                      (const double(*)[3])m->planes, m->nplanes, m->primal))
    retarget(m);
  else
    stop(m);
}

static int add_plane(mover *m, const double n[3]) {
  if (m->nplanes == MAX_PLANES) return 0;
  memcpy(m->planes[m->nplanes++], n, 3 * sizeof(double));
  return 1;
}

/* ---- one leg --------------------------------------------------------- */

/* [*lo, *hi] joined with itself moved by d. */
static void reach(double *lo, double *hi, double d) {
  double a = *lo + d, b = *hi + d;
  if (a < *lo) *lo = a;
  if (b > *hi) *hi = b;
}

/* The bounds of the item's box at pos (obbN_bounds: a call of its own,
** item_bounds's copy being the common case). */
static void box_bounds(const mover *m, double out[6]) {
  if (m->dim == 2) obb2_bounds(&m->item.b2, out);
  else obb3_bounds(&m->item.b3, out);
}

/* The item's bounds at pos: the world's until the item has moved (a
** translation's first leg and the search for what it may meet). */
static inline void item_bounds(const mover *m, double out[6]) {
  if (m->at_start && !m->turning) memcpy(out, m->bounds0, 6 * sizeof(double));
  else box_bounds(m, out);
}

/* The leg's bounds: the item's at both ends of the leg (a turning leg:
** all the item can reach, at any rotation). */
static void leg_bounds(mover *m, double out[6]) {
  if (m->wl != 0) {
    obb_turning_bounds(m->dim, m->pos, extents(m->dim, &m->item), m->r, out);
    return;
  }
  item_bounds(m, out);
  reach(&out[0], &out[3], m->r[0]);
  reach(&out[1], &out[4], m->r[1]);
  if (m->dim == 3) reach(&out[2], &out[5], m->r[2]); /* 2D: r[2] is 0 */
}

/* Appends c to the leg's candidates. */
static inline void keep(mover *m, const cand *c) {
  if (m->ncands == m->cand_cap) {
    cand *p = (cand *)grow(m, OBB_SCRATCH_CANDS, &m->cand_cap, sizeof(cand));
    if (p == NULL) return;
    m->cands = p;
  }
  m->cands[m->ncands++] = *c;
}

/* Collects the others within reach of the whole move: a slide or bounce
** never lengthens what remains of it, so every leg stays within |r| of
** the start, and one search of the tree serves every leg. */
static void on_near(void *ctx, int id) {
  mover *m = (mover *)ctx;
  if (m->oom) return; /* (never the item itself: query_others) */
  if (m->sensors != NULL && m->sensors[id]) m->sensed++;
  if (m->nnear == m->near_cap) {
    int *p = (int *)grow(m, OBB_SCRATCH_NEAR, &m->near_cap, sizeof(int));
    if (p == NULL) return;
    m->near = p;
  }
  m->near[m->nnear++] = id;
}

static int find_near(mover *m) {
  static const double zero[3] = {0, 0, 0};
  double b[6], reach = sqrt(obb_dot3(m->r, m->r));
  if (m->turning) /* at any rotation */
    obb_turning_bounds(m->dim, m->pos, extents(m->dim, &m->item), zero, b);
  else item_bounds(m, b);
  b[0] -= reach; /* written out, as copy_point */
  b[1] -= reach;
  b[3] += reach;
  b[4] += reach;
  if (m->dim == 3) {
    b[2] -= reach;
    b[5] += reach;
  }
  m->nnear = 0;
  if (obb_world_query_others(m->w, b, m->self, on_near, m) != 0) m->oom = 1;
  return !m->oom;
}

/* Other id of the near (never the item itself), as a leg finds it in
** its bounds (the leg stops at the first out of memory). */
static void on_candidate(mover *m, int id) {
  const met *e;
  cand c;
  e = find_met(m, id);
  if (e != NULL && (e->response == OBB_IGNORE || e->response == OBB_CROSS))
    return;
  if (m->wl != 0 && !m->point) {
    cand c2;
    int k;
    c.id = id;
    c.limit = c.inside = 0;
    k = obb_move_classify_turning(m, box_of(m, id), &c, &c2);
    if (k > 0) keep(m, &c);
    if (k > 1) keep(m, &c2);
  } else if (m->ncands < m->cand_cap) { /* classified in place */
    cand *p = &m->cands[m->ncands];
    p->id = id;
    p->limit = p->inside = 0;
    if (obb_move_classify(m, box_of(m, id), p) != NONE) m->ncands++;
  } else {
    c.id = id;
    c.limit = c.inside = 0;
    if (obb_move_classify(m, box_of(m, id), &c) != NONE) keep(m, &c);
  }
}

/* Met order: by time, overlaps first, then nearer centers, then ids. */
static int cmp_cand(const void *a, const void *b) {
  const cand *x = (const cand *)a, *y = (const cand *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->kind != y->kind) return x->kind == OVERLAP ? -1 : 1;
  if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* The leg's candidates in met order. cmp_cand is a total order (ids
** differ), so any sort gives the same order: a few (a leg meets one or
** two) are sorted by insertion, without qsort's setup. */
static void sort_cands(mover *m) {
  int i, j;
  if (m->ncands > 8) {
    qsort(m->cands, (size_t)m->ncands, sizeof(cand), cmp_cand);
    return;
  }
  for (i = 1; i < m->ncands; i++) {
    cand c;
    if (cmp_cand(&m->cands[i - 1], &m->cands[i]) <= 0) continue;
    c = m->cands[i];
    for (j = i; j > 0 && cmp_cand(&m->cands[j - 1], &c) > 0; j--)
      m->cands[j] = m->cands[j - 1];
    m->cands[j] = c;
  }
}

/* The item's box turned by angle from the move's start (as obbN_rotate
** turns it: one rotation from item0's, renormalised), into b. */
static void turned_box(const mover *m, double angle, anybox *b) {
  *b = m->item0;
  if (m->dim == 2) {
    obb2_rotate(&b->b2, angle);
  } else {
    double q[4], sn, cs;
    int i;
    obb_sincos(0.5 * angle, &sn, &cs);
    for (i = 0; i < 3; i++) q[i] = m->axis[i] * sn;
    q[3] = cs;
    obb3_rotate(&b->b3, q);
  }
}

/* The item's axes, turned by m->turned from the move's start. */
static void pose_axes(mover *m) {
  anybox b;
  if (m->posed == m->turned) return;
  m->posed = m->turned;
  turned_box(m, m->turned, &b);
  if (m->dim == 2) memcpy(m->item.b2.u, b.b2.u, sizeof b.b2.u);
  else memcpy(m->item.b3.u, b.b3.u, sizeof b.b3.u);
}

/* How far the item's box, turned by angle from the move's start, reaches
** along the unit direction d from its center. */
static double reach_along(const mover *m, double angle, const double d[3]) {
  anybox b;
  turned_box(m, angle, &b);
  if (m->dim == 2) {
    const double *u = b.b2.u;
    return b.b2.e[0] * fabs(u[0] * d[0] + u[1] * d[1]) +
           b.b2.e[1] * fabs(u[0] * d[1] - u[1] * d[0]);
  }
  return b.b3.e[0] * fabs(obb_dot3(b.b3.u[0], d)) +
         b.b3.e[1] * fabs(obb_dot3(b.b3.u[1], d)) +
         b.b3.e[2] * fabs(obb_dot3(b.b3.u[2], d));
}

/* d/dx |x| at x = a, x moving at b: one-sided where a = 0. */
static double abs_rate(double a, double b) {
  return a > 0 ? b : a < 0 ? -b : fabs(b);
}

/* How fast reach_along grows, per unit of the leg's time, as the item
** turns by m->wl over the leg from its pose now (a turn of w moves an
** axis u by w perp(u) in 2D, by w (axis x u) in 3D). */
static double reach_rate(const mover *m, const double d[3]) {
  double x = 0, du[3];
  int i;
  if (m->dim == 2) {
    const double *u = m->item.b2.u, *e = m->item.b2.e;
    double ud = u[0] * d[0] + u[1] * d[1], vd = u[0] * d[1] - u[1] * d[0];
    return e[0] * abs_rate(ud, m->wl * vd) + e[1] * abs_rate(vd, -m->wl * ud);
  }
  for (i = 0; i < 3; i++) {
    const double *u = m->item.b3.u[i];
    obb_cross3(m->axis, u, du);
    x += m->item.b3.e[i] * abs_rate(obb_dot3(u, d), m->wl * obb_dot3(du, d));
  }
  return x;
}

/* Makes room for the rest of the leg's turn at a slide the turn drove the
** item into (normal n, the item's way out): moves the goal out along n so
** that, over the leg, the center leaves the other at least as fast as the
** turn swings the item into it (its rate now, and its mean rate to each
** eighth of the turn; the next leg's sweep stops a turn that needs more).
** So a car flush against a wall steers away from it, or toward it, pushed
** off it as far as its corner swings in. */
static void make_room(mover *m, const double n[3]) {
  double into[3], now, most;
  int k, q;
  for (q = 0; q < 3; q++) into[q] = -n[q];
  pose_axes(m); /* the item as it is now, for reach_rate */
  now = reach_along(m, m->turned, into);
  most = reach_rate(m, into);
  for (k = 1; k <= 8; k++)
    most = obb_fmax(most, (reach_along(m, m->turned + 0.125 * k * m->wl, into) -
                           now) * (8.0 / k));
  if (!(most > 0)) return;
  most *= 1 + 0x1p-20;
  for (q = 0; q < m->dim; q++) m->dest[q] += most * n[q];
  retarget(m);
  /* the rest is longer now: the others near are found again for it */
  if (!find_near(m)) stop(m);
}

static inline void set_center(mover *m) {
  copy_point(m->dim, center(m), m->pos);
  if (m->turning) pose_axes(m);
}

/* Keeps where the item is (its center, the turn done) in the path, for
** the events of a world with sensors (obb_events_moved). */
static void note_pose(mover *m) {
  if (m->npath >= PATH_POINTS) {
    m->npath = PATH_POINTS + 1; /* never: one pose per leg */
    return;
  }
  memcpy(m->ppos[m->npath], m->pos, sizeof m->pos);
  m->pturn[m->npath++] = m->turned;
}

/* The item's box at path point k into b: as conclude gives it where the
** move ends, bit for bit, so that the commit is recognised. */
static void path_box(mover *m, int k, anybox *b) {
  if (m->dim == 2) b->b2 = m->turning ? m->item0.b2 : *(const obb2 *)box_of(m, m->self);
  else b->b3 = m->turning ? m->item0.b3 : *(const obb3 *)box_of(m, m->self);
  copy_point(m->dim, m->dim == 2 ? b->b2.c : b->b3.c, m->ppos[k]);
  if (m->turning && m->pturn[k] != 0) {
    anybox t;
    turned_box(m, m->pturn[k], &t);
    if (m->dim == 2) memcpy(b->b2.u, t.b2.u, sizeof t.b2.u);
    else memcpy(b->b3.u, t.b3.u, sizeof t.b3.u);
  }
}

/* A move of a world with sensors ends: its events (obb_events_impl.h),
** worked out only when a sensor was near it, or it is one, or it pairs
** with one; else only where it ends is kept, for the commit. Returns 0,
** or -1 when memory runs out. */
static int sense(mover *m) {
  anybox path[PATH_POINTS];
  int k, n = m->npath;
  if (n < 1 || n > PATH_POINTS) return 0;
  if (m->quiet && m->sensed == 0) { /* no event: only where it ends */
    if (!m->turning) {
      obb_events_pass(m->events, m->self, m->ppos[n - 1], NULL);
    } else {
      path_box(m, n - 1, &path[n - 1]);
      obb_events_pass(m->events, m->self, NULL, &path[n - 1]);
    }
    return 0;
  }
  for (k = 0; k < n; k++) path_box(m, k, &path[k]);
  return obb_events_moved(m->w, m->self, path, sizeof(anybox), m->pturn, n,
                          m->axis);
}

/* The item to time t of the leg (t = 1: to dest itself). */
static inline void advance(mover *m, double t) {
  m->at_start = 0;
  if (t >= 1) {
    memcpy(m->pos, m->dest, sizeof m->pos);
    m->turned = m->turn_goal;
  } else {
    m->pos[0] += t * m->r[0];
    m->pos[1] += t * m->r[1];
    if (m->dim == 3) m->pos[2] += t * m->r[2];
    if (m->wl != 0) m->turned += t * m->wl;
  }
  aim(m);
  if (m->track) note_pose(m);
}

/* What a leg did. */
enum { LEG_DONE, LEG_NEXT, LEG_AGAIN, LEG_FAILED };

/* The normal of a blocker met corner first: the one of its touching axes
** that is already a plane of the move, or the normal of a blocker in the
** same group met face first (the seams of a floor of tiles, of a wall of
** tiles: the tile ahead is touched at its corner, and its face level
** with the others' is the one that counts); else the blocking axis. */
static void choose_normal(const mover *m, cand *c, int from, int to) {
  int a, i, j;
  for (a = 0; a < c->ncorner; a++) {
    for (i = 0; i < m->nplanes; i++)
      if (parallel(c->corner[a], m->planes[i])) goto found;
    for (j = from; j < to; j++)
      if (m->cands[j].ncorner == 1 && parallel(c->corner[a], m->cands[j].n))
        goto found;
  }
  return;
found:
  memcpy(c->n, c->corner[a], sizeof c->n);
}

/* The responses and reports of cands[j0 .. end) of the group that starts at
** from, into g (what the members before j0 answered, for a leg that goes
** on where it asked). A candidate
** whose sweep could not decide is not met (neither asked nor reported):
** it only stops the turn at its safe time. The rotation's rule: the turn
** drove the item into a slide or bounce that the leg's translation did
** not go into, or that already blocked a turning leg of this move (the
** translation was clipped against it, and only its normal turning with
** the item makes it go in again): that stops the turn. Returns 0 on
** failure. */
static int respond_group(mover *m, int from, int end, int j0, group *g) {
  double tol = INTO_TOL * sqrt(obb_dot3(m->r, m->r));
  int j;
  for (j = j0; j < end; j++) {
    const cand *c = &m->cands[j];
    met *e;
    if (c->limit) {
      g->undecided = 1;
      continue;
    }
    if (m->first_of_ties && j > from) continue; /* tested again next leg */
    e = respond(m, c);
    if (e == NULL) {
      if (m->asked) { /* to go on from this member once answered */
        m->at_j = j;
        m->at_g = *g;
      }
      return 0;
    }
    report(m, e, c, 1);
    switch (e->response) {
    case OBB_IGNORE: case OBB_CROSS: break;
    case OBB_TOUCH: g->touch = g->solid = 1; break;
    case OBB_BOUNCE:
      if (!g->bounced) memcpy(g->bounce, c->n, sizeof g->bounce);
      g->bounced = g->solid = 1;
      break;
    default:
      g->solid = 1;
      if (!add_plane(m, c->n)) g->touch = 1;
      break;
    }
    if (m->wl != 0 && !m->point && e->response >= OBB_SLIDE) {
      if (e->slid || c->inside) {
        g->turn_again = 1;
      } else if (!(obb_dot3(m->r, c->n) < -tol)) {
        if (g->turn_in && !parallel(g->away, c->n)) g->turn_again = 1;
        memcpy(g->away, c->n, sizeof g->away);
        g->turn_in = 1;
      }
      e->slid = 1;
    }
  }
  return 1;
}

/* OBB_TIES_FIRST: moves the first blocker of cands[from .. end) to from,
** the others keeping their order: the most head-on (the move's remainder
** r most against its normal), then the nearest center, then the lower id.
** Blockers a turning sweep could not decide are never first. */
static void first_to_front(mover *m, int from, int end) {
  int j, best = -1;
  double hb = 0;
  cand c;
  for (j = from; j < end; j++) {
    const cand *k = &m->cands[j];
    double h = -obb_dot3(m->r, k->n);
    if (k->limit) continue;
    if (best < 0 || h > hb ||
        (h == hb && (k->dist < m->cands[best].dist ||
                     (k->dist == m->cands[best].dist && k->id < m->cands[best].id)))) {
      best = j;
      hb = h;
    }
  }
  if (best <= from) return;
  c = m->cands[best];
  memmove(&m->cands[from + 1], &m->cands[from],
          (size_t)(best - from) * sizeof(cand));
  m->cands[from] = c;
}

/* The blockers that tie with cands[i] (at its time, within their bands),
** starting at i: their responses and reports (OBB_TIES_FIRST: the first's
** only), then the item's move to the contact and what it does there.
** Returns LEG_NEXT, or LEG_AGAIN when every one answered lets the item
** through (*i then past them; OBB_TIES_FIRST: past the first only, the
** others still to meet). */
static int meet_blockers(mover *m, int *i, int again) {
  double t = m->cands[*i].t;
  group g;
  int j, end, j0 = *i;
  if (again) { /* the group asked: its normals and order are set */
    end = m->at_end;
    j0 = m->at_j;
    g = m->at_g;
  } else {
    memset(&g, 0, sizeof g);
    /* cands[*i] is in its own group whatever t is: the leg's loop always
    ** moves on (a NaN time, were one to come, would tie with nothing) */
    for (end = *i + 1; end < m->ncands && m->cands[end].kind == BLOCK &&
         m->cands[end].t <= t + m->cands[end].tie; end++) {}
    for (j = *i; j < end; j++)
      if (m->cands[j].ncorner > 1) choose_normal(m, &m->cands[j], *i, end);
    if (m->first_of_ties) {
      first_to_front(m, *i, end);
      t = m->cands[*i].t;
    }
  }
  if (!respond_group(m, *i, end, j0, &g)) {
    if (m->asked) {
      m->at = AT_GROUP;
      m->at_i = *i;
      m->at_end = end;
    }
    return LEG_FAILED;
  }
  if (!g.solid && !g.undecided) {
    *i = m->first_of_ties ? *i + 1 : end;
    return LEG_AGAIN;
  }
  advance(m, t);
  if (g.touch) {
    stop(m);
    stop_turning(m);
    return LEG_NEXT;
  }
  if (g.turn_again || g.undecided) stop_turning(m);
  else if (g.turn_in) make_room(m, g.away);
  if (!g.solid) return LEG_NEXT;
  if (g.bounced && obb_clip_goal(m->dim, m->pos, m->dest, g.bounce, 2)) {
    retarget(m); /* the mirrored rest is the move's direction now */
    memcpy(m->primal, m->r, sizeof m->primal);
  }
  clip(m);
  return LEG_NEXT;
}

/* The leg's candidates, met in order. */
static void find_candidates(mover *m) {
  double bounds[6];
  int i;
  set_center(m);
  m->ncands = 0;
  if (m->nnear > 0) leg_bounds(m, bounds); /* else nothing to meet */
  for (i = 0; i < m->nnear && !m->oom; i++)
    if (obb_box_overlap(bounds_of(m, m->near[i]), bounds))
      on_candidate(m, m->near[i]);
  if (!m->oom) sort_cands(m);
}

/* One leg from pos by r; or the rest of one that stopped to ask (m->at),
** its candidates still in cands: nothing of the leg is done twice. */
static int leg(mover *m) {
  int i = 0, at = m->at;
  m->at = AT_NONE;
  if (at == AT_NONE) {
    find_candidates(m);
    if (m->oom) return LEG_FAILED;
  } else {
    i = m->at_i;
  }
  while (i < m->ncands) {
    const cand *c = &m->cands[i];
    met *e;
    if (c->kind == BLOCK) {
      int st = meet_blockers(m, &i, at == AT_GROUP);
      at = AT_NONE;
      if (st != LEG_AGAIN) return st;
      continue;
    }
    at = AT_NONE;
    e = respond(m, c); /* an overlapped other */
    if (e == NULL) {
      if (m->asked) {
        m->at = AT_OVERLAP;
        m->at_i = i;
      }
      return LEG_FAILED;
    }
    report(m, e, c, 0);
    i++;
    if (e->response == OBB_IGNORE || e->response == OBB_CROSS) continue;
    if (e->response == OBB_TOUCH) {
      stop(m);
      stop_turning(m);
      return LEG_NEXT;
    }
    if (e->plane) continue;
    e->plane = 1;
    if (!add_plane(m, c->n)) {
      stop(m);
      stop_turning(m);
      return LEG_NEXT;
    }
    if (obb_dot3(m->r, c->n) < 0) {
      clip(m);
      return LEG_AGAIN; /* the blockers were found for the old remainder */
    }
  }
  advance(m, 1);
  return LEG_DONE;
}

/* ---- the public movers ------------------------------------------------ */

/* The mover of item id, at its start (inline: every move starts). */
static inline int start(mover *m, obb_world *w, int id,
                        obb_move_filter_fn filter, void *ctx) {
  /* scratch buffers 0 .. 2, in the order of their names */
  static const size_t sizes[3] = {64 * sizeof(cand), 64 * sizeof(met),
                                  64 * sizeof(int)};
  const obb_world_view *v = &m->view;
  obb_world_view_move(w, id, sizes, &m->view);
  memset(m, 0, offsetof(mover, pos));
  m->pos[2] = m->dest[2] = 0;
  if (v->box == NULL) return 0;
  m->w = w;
  m->dim = v->dim;
  m->self = id;
  if (m->dim == 2) m->item.b2 = *(const obb2 *)v->box;
  else m->item.b3 = *(const obb3 *)v->box;
  copy_point(m->dim, m->pos, center(m));
  m->bounds0 = bounds_of(m, id);
  m->at_start = 1;
  m->filter = filter;
  m->ctx = m->report_ctx = ctx;
  m->sensors = obb_events_sensors(w, id, &m->events, &m->quiet);
  m->first_of_ties = v->ties == OBB_TIES_FIRST;
  m->cands = (cand *)v->scratch[OBB_SCRATCH_CANDS];
  m->met = (met *)v->scratch[OBB_SCRATCH_MET];
  m->near = (int *)v->scratch[OBB_SCRATCH_NEAR];
  m->cand_cap = m->met_cap = m->near_cap = 64;
  return m->cands != NULL && m->met != NULL && m->near != NULL;
}

/* The center where the move ends into actual (where it started when it
** failed); the count of collisions, or -1 (memory), -2 (the filter
** aborted). */
static int finish(mover *m, double *actual) {
  if (m->untracked) {
    /* a probe: its caller works out the events */
  } else if (m->unseen && !m->oom && !m->aborted)
    obb_events_pass(m->events, m->self, m->pos, NULL);
  else if (m->track && !m->oom && !m->aborted && sense(m) != 0)
    m->oom = 1;
  if (m->oom || m->aborted) {
    copy_point(m->dim, actual, m->from);
    return m->aborted ? -2 : -1;
  }
  copy_point(m->dim, actual, m->pos);
  return m->nreported;
}

/* Why the move ended, and what was left of it, for obb_world_move_end: its
** legs ran out with some of it left (out), its turn stopped short, what
** it met changed where it ends, or it went all the way (to goal with the
** whole turn). */
static void note_end(mover *m, int out) {
  double rest[4] = {0, 0, 0, 0};
  int why;
  if (out) {
    why = OBB_END_LEGS;
    memcpy(rest, m->r, sizeof m->r);
    rest[3] = m->wl;
  } else if (m->turned != m->turn0) {
    why = OBB_END_TURN;
  } else if (memcmp(m->pos, m->goal, (size_t)m->dim * sizeof(double)) != 0) {
    why = OBB_END_BLOCKED;
  } else {
    why = OBB_END_GOAL;
  }
  obb_world_set_move_end(m->w, why, rest);
}

/* Sets the move toward goal up: 0, -1 (memory: the others near) or -3
** (goal - start overflows). */
static int begin(mover *m, const double *goal) {
  memcpy(m->from, m->pos, sizeof m->from);
  copy_point(m->dim, m->goal, goal);
  m->goal[2] = m->dim == 3 ? goal[2] : 0;
  copy_point(m->dim, m->dest, goal);
  aim(m);
  memcpy(m->primal, m->r, sizeof m->primal);
  if (!obb_all_finite(m->r, 3)) return -3;
  /* a move of no length still looks where the item stands (one leg): it
  ** reports what it overlaps there, as a move of any length does */
  m->still = m->r[0] == 0 && m->r[1] == 0 && m->r[2] == 0 && m->wl == 0;
  if (!find_near(m)) return -1;
  if (m->sensors != NULL && m->untracked) { /* the caller's events */
    m->track = 1;
    note_pose(m);
  } else if (m->sensors != NULL) { /* keep the path, unless it cannot meet one */
    m->unseen = !m->turning && m->quiet && m->sensed == 0;
    m->track = !m->unseen;
    if (m->track) note_pose(m);
  }
  return 0;
}

/* The move's legs until it ends, then why it ended; OBB_MOVE_ASKING
** (the leg undone) when a filter answered OBB_ASK. */
static int run_legs(mover *m) {
  int st = LEG_DONE;
  for (;;) {
    if (m->r[0] == 0 && m->r[1] == 0 && m->r[2] == 0 && m->wl == 0 &&
        !m->still)
      break;
    if (m->legs == OBB_MOVE_MAX_LEGS) break;
    st = leg(m);
    if (st == LEG_FAILED && m->asked) return OBB_MOVE_ASKING;
    m->still = 0;
    if (st == LEG_FAILED || st == LEG_DONE) break;
    if (st == LEG_AGAIN) {
      if (++m->restarts > MAX_RESTARTS) break;
    } else {
      m->legs++;
    }
  }
  if (st != LEG_FAILED && !m->oom && !m->aborted)
    note_end(m, m->r[0] != 0 || m->r[1] != 0 || m->r[2] != 0 || m->wl != 0);
  return 0;
}

/* A failed start: the item's center (zeros for a dead id) into actual. */
static int failed_start(obb_world *w, int id, double *actual) {
  const void *box = obb_world_box(w, id);
  int q;
  for (q = 0; q < obb_world_dim(w); q++)
    actual[q] = box != NULL ? center_of(obb_world_dim(w), box)[q] : 0;
  return -1;
}

/* A move starts with the status of one that went all the way (a move that
** fails keeps it). */
static void clear_end(obb_world *w) {
  static const double none[4] = {0, 0, 0, 0};
  obb_world_set_move_end(w, OBB_END_GOAL, none);
}

int obb_world_move(obb_world *w, int id, const double *goal,
                   obb_move_filter_fn filter, obb_move_report_fn report,
                   void *ctx, double *actual) {
  mover m;
  int rc;
  clear_end(w);
  if (!start(&m, w, id, filter, ctx)) return failed_start(w, id, actual);
  m.report = report;
  rc = begin(&m, goal);
  if (rc == -3) {
    copy_point(m.dim, actual, m.from);
    return -3;
  }
  if (rc == 0) run_legs(&m);
  return finish(&m, actual);
}

/* box with its center at c (the world's dimension) into out. */
static void box_at(int dim, const void *box, const double *c, void *out) {
  if (dim == 2) {
    obb2 *b = (obb2 *)out;
    *b = *(const obb2 *)box;
    memcpy(b->c, c, sizeof b->c);
  } else {
    obb3 *b = (obb3 *)out;
    *b = *(const obb3 *)box;
    memcpy(b->c, c, sizeof b->c);
  }
}

/* Whether the turn (the world's dimension's numbers) is none at all. */
static int no_turn(int dim, const double *turn) {
  return turn == NULL ||
         (turn[0] == 0 && (dim == 2 || (turn[1] == 0 && turn[2] == 0)));
}

/* The turn's angle (2D: turn[0]; 3D: |turn|, its axis into m->axis) for a
** turning move; 0 when it is not finite. */
static int set_turn(mover *m, const double *turn) {
  int q;
  m->turning = 1;
  m->item0 = m->item;
  m->point = is_point(m->dim, extents(m->dim, &m->item));
  if (m->dim == 2) {
    m->turn_goal = turn[0];
  } else {
    double big = fmax(fabs(turn[0]), fmax(fabs(turn[1]), fabs(turn[2])));
    if (!obb_finite(big)) return 0;
    for (q = 0; q < 3; q++) m->axis[q] = turn[q] / big;
    m->turn_goal = big * sqrt(obb_dot3(m->axis, m->axis));
    obb_normalize3(m->axis);
  }
  m->turn0 = m->turn_goal;
  return obb_finite(m->turn_goal);
}

/* The box where a move started at m's start ends into end (as it started
** when it failed), and the move's answer. */
static int conclude(mover *m, void *end) {
  double actual[3];
  int n = finish(m, actual);
  if (n >= 0 && m->turning) {
    set_center(m); /* the axes at the turn done */
    box_at(m->dim, &m->item, actual, end);
  } else {
    box_at(m->dim, box_of(m, m->self), actual, end);
  }
  return n;
}

/* The move of m (started) toward goal, turning by turn (NULL or none: a
** translation), to its end or its first OBB_ASK; -3 for a goal or a turn
** that is not finite (end: the item's box). */
static int move_from(mover *m, const double *goal, const double *turn,
                     void *end) {
  int rc;
  if (!no_turn(m->dim, turn) && !set_turn(m, turn)) {
    box_at(m->dim, box_of(m, m->self), center(m), end);
    return -3;
  }
  rc = begin(m, goal);
  if (rc == -3) {
    box_at(m->dim, box_of(m, m->self), m->from, end);
    return -3;
  }
  if (rc == 0 && run_legs(m) == OBB_MOVE_ASKING) return OBB_MOVE_ASKING;
  return conclude(m, end);
}

int obb_world_move_turning(obb_world *w, int id, const double *goal,
                           const double *turn, obb_move_filter_fn filter,
                           obb_move_report_fn report, void *ctx, void *end) {
  mover m;
  const void *box = obb_world_box(w, id);
  double actual[3] = {0, 0, 0};
  int dim = obb_world_dim(w), n;
  clear_end(w);
  if (no_turn(dim, turn) || box == NULL) { /* obb_world_move's, exactly */
    n = obb_world_move(w, id, goal, filter, report, ctx, actual);
    if (box != NULL) box_at(dim, box, actual, end);
    return n;
  }
  if (!start(&m, w, id, filter, ctx)) {
    box_at(dim, box, center_of(dim, box), end);
    return -1;
  }
  m.report = report;
  return move_from(&m, goal, turn, end);
}

int obb_world_move_with(obb_world *w, int id, const double *goal,
                        const double *turn, const obb_move_calls *calls,
                        void *end) {
  static const obb_move_calls none = {NULL, NULL, NULL, NULL, NULL, 0};
  mover m;
  anybox own;
  const void *box;
  int n;
  if (calls == NULL) calls = &none;
  if (end == NULL) end = &own;
  if (no_turn(obb_world_dim(w), turn) && obb_character_moves(w, id))
    return obb_character_move(w, id, goal, calls, end);
  clear_end(w);
  if (!start(&m, w, id, calls->filter, calls->filter_ctx)) {
    box = obb_world_box(w, id); /* NULL: no such item */
    if (box == NULL) return -1;
    box_at(obb_world_dim(w), box, center_of(obb_world_dim(w), box), end);
    return -1;
  }
  box = m.view.box;
  m.report = calls->report;
  m.report_ctx = calls->report_ctx;
  m.responses = calls->responses;
  if (m.responses != NULL) {
    unsigned char *const *classes;
    const size_t *count;
    obb_world_class_store(w, &classes, &count);
    m.classes = *classes;
    m.nclasses = *count;
  }
  if (no_turn(m.dim, turn)) { /* obb_world_move's, in line */
    double actual[3];
    int rc = begin(&m, goal);
    if (rc == -3) {
      copy_point(m.dim, actual, m.from);
      n = -3;
    } else {
      if (rc == 0) run_legs(&m);
      n = finish(&m, actual);
    }
    box_at(m.dim, box, actual, end);
  } else {
    n = move_from(&m, goal, turn, end);
  }
  if (n >= 0 && calls->commit) obb_world_update(w, id, end);
  return n;
}

/* ---- a probe: a translation from any pose, for the character kit ------ */

int obb_move_probe(obb_world *w, int id, const double *from,
                   const double *goal, const obb_move_calls *calls,
                   double *actual, obb_probe_path *path) {
  mover m;
  int n;
  if (!start(&m, w, id, calls->filter, calls->filter_ctx))
    return failed_start(w, id, actual);
  m.report = calls->report;
  m.report_ctx = calls->report_ctx;
  m.untracked = 1;
  if (from != NULL) { /* the item where from puts it: its bounds its own */
    copy_point(m.dim, center(&m), from);
    copy_point(m.dim, m.pos, from);
    m.at_start = 0;
  }
  n = begin(&m, goal);
  if (n == -3) {
    copy_point(m.dim, actual, m.from);
    return -3;
  }
  if (n == 0) run_legs(&m);
  n = finish(&m, actual);
  if (path != NULL) {
    int k;
    path->n = m.track && m.npath <= PATH_POINTS ? m.npath : 0;
    for (k = 0; k < path->n; k++)
      copy_point(3, path->pos[k], m.ppos[k]);
    path->near = n >= 0 ? m.near : NULL;
    path->nnear = n >= 0 ? m.nnear : 0;
  }
  return n;
}

/* ---- moves that ask: a filter answered from outside C ----------------- */

/* The state of a move that may ask: its mover. */
typedef struct move_state {
  mover m;
} move_state;

size_t obb_move_state_size(void) { return sizeof(move_state); }

int obb_world_move_start(void *state, obb_world *w, int id,
                         const double *goal, const double *turn,
                         obb_move_filter_fn filter, obb_move_report_fn report,
                         void *ctx, void *end) {
  move_state *s = (move_state *)state;
  mover *m = &s->m;
  const void *box = obb_world_box(w, id);
  clear_end(w);
  m->asked = 0;
  if (box == NULL) return -1;
  if (!start(m, w, id, filter, ctx)) {
    box_at(obb_world_dim(w), box, center_of(obb_world_dim(w), box), end);
    return -1;
  }
  m->report = report;
  m->asks = 1;
  return move_from(m, goal, turn, end);
}

int obb_world_move_resume(void *state, int response, void *ctx, void *end) {
  mover *m = &((move_state *)state)->m;
  met *e;
  if (!m->asked) return -1;
  m->asked = 0;
  m->ctx = m->report_ctx = ctx;
  if (response < 0) {
    m->aborted = 1;
    return conclude(m, end);
  }
  e = &m->met[m->asked_met];
  e->response = response > OBB_BOUNCE ? OBB_SLIDE : response;
  if (run_legs(m) == OBB_MOVE_ASKING) return OBB_MOVE_ASKING;
  return conclude(m, end);
}

int obb_world_move_question(const void *state, obb_move_hit *hit) {
  const mover *m = &((const move_state *)state)->m;
  if (!m->asked) return -1;
  *hit = m->question;
  return m->nreported;
}

/* ---- push ------------------------------------------------------------- */

static void on_overlap(void *ctx, int id) {
  mover *m = (mover *)ctx;
  cand c;
  if (m->oom) return; /* (never the item itself: query_others) */
  c.id = id;
  if (obb_move_classify(m, box_of(m, id), &c) == OVERLAP) keep(m, &c);
}

/* Deepest first, then as cmp_cand. */
static int cmp_depth(const void *a, const void *b) {
  const cand *x = (const cand *)a, *y = (const cand *)b;
  if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
  return cmp_cand(a, b);
}

int obb_world_push(obb_world *w, int id, double max_dist,
                   obb_move_filter_fn filter, void *ctx, double *actual,
                   double *moved, int *inside) {
  mover m;
  double done = 0;
  int steps, q;
  *moved = 0;
  *inside = 0;
  if (!start(&m, w, id, filter, ctx)) return failed_start(w, id, actual);
  memcpy(m.from, m.pos, sizeof m.from);
  if (!(max_dist >= 0)) max_dist = 0; /* NaN pushes nothing */
  for (steps = 0;; steps++) {
    double bounds[6], step;
    const cand *deepest = NULL;
    int i;
    set_center(&m);
    box_bounds(&m, bounds);
    m.ncands = 0;
    if (obb_world_query_others(w, bounds, m.self, on_overlap, &m) != 0)
      m.oom = 1;
    if (m.oom) break;
    if (m.ncands > 1)
      qsort(m.cands, (size_t)m.ncands, sizeof(cand), cmp_depth);
    for (i = 0; i < m.ncands && deepest == NULL; i++) {
      met *e = respond(&m, &m.cands[i]);
      if (e == NULL) break;
      if (e->response != OBB_IGNORE && e->response != OBB_CROSS)
        deepest = &m.cands[i];
    }
    if (m.oom || m.aborted || deepest == NULL) break;
    if (steps == OBB_PUSH_MAX_STEPS || done >= max_dist) {
      *inside = 1;
      break;
    }
    step = obb_fmin(deepest->depth, max_dist - done);
    for (q = 0; q < m.dim; q++) m.pos[q] += deepest->n[q] * step;
    done += step;
  }
  q = finish(&m, actual);
  if (q < 0) return q;
  *moved = done;
  return steps;
}
