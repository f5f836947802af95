/*
** obb_events.c: sensors and the events of their overlaps (obb_events.h).
**
** A world gets an events state when a sensor is first marked; until then
** every hook (obb_events_impl.h) is a pointer test. The state keeps, by
** id: the caller's sensor flags, whether the id is dirty (changed since
** the last look) and queued, held (removed, named by an event not yet
** taken), how many queued events name it, its first pair, and a sensor's
** leaf in the sensors' own tree (a broad phase of the sensors alone, so
** that a moved item asks only them).
**
** The pairs (a sensor and an item that overlap, as obbN_intersects says)
** live in one pool, each linked into its sensor's list and its item's
** list: an id is one or the other, so one head per id serves, and an
** item's list (a few sensors) is where a pair is looked up. Every pair
** keeps a place in the queue for its end, so that a remove or a sensor
** unmarked, which cannot fail, never needs memory to end its pairs.
**
** Changes are seen three ways:
**   - a committed move's path (obb_events_moved, at the move's end, kept
**     until its commit): each leg swept against each sensor near it
**     (obbN_sweep, obbN_sweep_turning; a turning sweep that cannot decide
**     goes on by samples and bisection), forward for where the item
**     starts to touch, backward from the leg's end for where it stops;
**   - anything else marks the id dirty, and obb_world_events looks at
**     each dirty id once: its pairs then against its pairs before;
**   - a remove ends the id's pairs at once.
*/
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "obb_bounds.h"
#include "obb_events_impl.h"
#include "obb_math.h"
#include "obb_tree.h"
#include "obb_world_impl.h"

/* The bits of st, by id. */
enum { QUEUED = 1, DIRTY = 2, HELD = 4 };

/* Path points a move may give: its start and each leg's end. */
#define PATH_MAX_POINTS 16

typedef union ev_box {
  obb2 b2;
  obb3 b3;
} ev_box;

/* A pair of the pool: s the sensor, o the other; a free one has s = -1
** and its next free in s_next. */
typedef struct ev_pair {
  int s, o;
  int s_next, s_prev; /* the sensor's list */
  int o_next, o_prev; /* the other's list */
} ev_pair;

/* A pair a move's commit looks at: the other, the stored pair (-1: none),
** whether they overlap where the move starts (a0) and where it ends (a1). */
typedef struct pend_pair {
  int other, p;
  int a0, a1;
} pend_pair;

/* An event along a move's path, before its commit. */
typedef struct pend_event {
  int other, kind, seq;
  double t;
} pend_event;

struct obb_events {
  obb_alloc alloc;
  void *ud;
  int dim;
  size_t box_size;
  int cap; /* ids the arrays below have room for */
  /* by id, one block: */
  int *head, *refs, *leaf, *dirty;
  unsigned char *flags, *st;
  int ndirty;
  ev_pair *pairs;
  int pair_cap, npairs, free_pair;
  unsigned pair_serial; /* counts every pair made or dropped */
  obb_event *queue;
  int nq, qcap;
  int nsensors, nheld;
  obb_tree tree; /* the sensors' leaves */
  /* scratch */
  int *ids, nids, ids_cap;
  int *ids2, nids2, ids2_cap;
  pend_pair *pp;
  int npp, pp_cap;
  pend_event *pe;
  int npe, pe_cap;
  unsigned epoch; /* counts the changes the hooks are told of */
  /* the last move's events, until its commit */
  int pend_valid, pend_id;
  int pend_center; /* 1: the commit's box is the item's with its center at
                   ** pend_c; 0: it is pend_box */
  unsigned pend_serial, pend_epoch;
  double pend_c[3];
  ev_box pend_box;
};

/* ---- memory -------------------------------------------------------------- */

/* p, an array of cap elements of elem bytes, with room for need: p, or a
** larger copy (cap updated); NULL when memory runs out (p kept). */
static void *room(obb_events *ev, void *p, size_t elem, int *cap, int need) {
  int n = *cap < 16 ? 16 : *cap;
  void *q;
  if (need <= *cap) return p;
  while (n < need) {
    if (n > INT_MAX / 2) return NULL;
    n *= 2;
  }
  if ((size_t)n > ((size_t)-1) / elem) return NULL;
  q = ev->alloc(ev->ud, p, (size_t)*cap * elem, (size_t)n * elem);
  if (q != NULL) *cap = n;
  return q;
}

static int room_ints(obb_events *ev, int **a, int *cap, int need) {
  void *p;
  if (need <= *cap) return 1;
  p = room(ev, *a, sizeof(int), cap, need);
  if (p == NULL) return 0;
  *a = (int *)p;
  return 1;
}

/* The arrays by id at room for cap ids, in one block (one allocation:
** it grows whole or not at all); new ids start clear. */
static int reserve_ids(obb_events *ev, int cap) {
  size_t n = (size_t)cap, old = (size_t)ev->cap, per = 4 * sizeof(int) + 2;
  unsigned char *blk;
  int *head;
  size_t i;
  if (cap <= ev->cap) return 1;
  if (n > ((size_t)-1) / per) return 0;
  blk = (unsigned char *)ev->alloc(ev->ud, NULL, 0, n * per);
  if (blk == NULL) return 0;
  head = (int *)blk;
  if (old > 0) {
    memcpy(head, ev->head, old * sizeof(int));
    memcpy(head + n, ev->refs, old * sizeof(int));
    memcpy(head + 2 * n, ev->leaf, old * sizeof(int));
    memcpy(head + 3 * n, ev->dirty, (size_t)ev->ndirty * sizeof(int));
    memcpy(blk + 4 * n * sizeof(int), ev->flags, old);
    memcpy(blk + 4 * n * sizeof(int) + n, ev->st, old);
    ev->alloc(ev->ud, ev->head, old * per, 0);
  }
  ev->head = head;
  ev->refs = head + n;
  ev->leaf = head + 2 * n;
  ev->dirty = head + 3 * n;
  ev->flags = blk + 4 * n * sizeof(int);
  ev->st = ev->flags + n;
  for (i = old; i < n; i++) {
    ev->head[i] = -1;
    ev->refs[i] = 0;
    ev->leaf[i] = OBB_TREE_NULL;
    ev->flags[i] = 0;
    ev->st[i] = 0;
  }
  ev->cap = cap;
  return 1;
}

static obb_events *state(obb_world *w) { return *obb_world_events_slot(w); }

static obb_events *create(obb_world *w) {
  void *ud;
  obb_alloc alloc = obb_world_allocator(w, &ud);
  obb_events *ev = (obb_events *)alloc(ud, NULL, 0, sizeof(obb_events));
  if (ev == NULL) return NULL;
  memset(ev, 0, sizeof *ev);
  ev->alloc = alloc;
  ev->ud = ud;
  ev->dim = obb_world_dim(w);
  ev->box_size = ev->dim == 2 ? sizeof(obb2) : sizeof(obb3);
  ev->head = ev->refs = ev->leaf = ev->dirty = NULL;
  ev->flags = ev->st = NULL;
  ev->pairs = NULL;
  ev->queue = NULL;
  ev->ids = ev->ids2 = NULL;
  ev->pp = NULL;
  ev->pe = NULL;
  ev->free_pair = -1;
  obb_tree_init(&ev->tree, alloc, ud);
  if (!reserve_ids(ev, obb_world_capacity(w))) {
    alloc(ud, ev, sizeof(obb_events), 0);
    return NULL;
  }
  *obb_world_events_slot(w) = ev;
  return ev;
}

/* p (cap elements of size bytes), freed. */
static void release(obb_events *ev, void *p, int cap, size_t size) {
  if (p != NULL) ev->alloc(ev->ud, p, (size_t)cap * size, 0);
}

void obb_events_free(obb_world *w) {
  obb_events **slot = obb_world_events_slot(w), *ev = *slot;
  if (ev == NULL) return;
  if (ev->head != NULL)
    ev->alloc(ev->ud, ev->head, (size_t)ev->cap * (4 * sizeof(int) + 2), 0);
  release(ev, ev->pairs, ev->pair_cap, sizeof(ev_pair));
  release(ev, ev->queue, ev->qcap, sizeof(obb_event));
  release(ev, ev->ids, ev->ids_cap, sizeof(int));
  release(ev, ev->ids2, ev->ids2_cap, sizeof(int));
  release(ev, ev->pp, ev->pp_cap, sizeof(pend_pair));
  release(ev, ev->pe, ev->pe_cap, sizeof(pend_event));
  obb_tree_free(&ev->tree);
  ev->alloc(ev->ud, ev, sizeof(obb_events), 0);
  *slot = NULL;
}

size_t obb_events_memory(const obb_world *w) {
  const obb_events *ev = *obb_world_events_slot((obb_world *)w);
  if (ev == NULL) return 0;
  return sizeof(obb_events) + (size_t)ev->cap * (4 * sizeof(int) + 2) +
         (size_t)ev->pair_cap * sizeof(ev_pair) +
         (size_t)ev->qcap * sizeof(obb_event) +
         (size_t)(ev->ids_cap + ev->ids2_cap) * sizeof(int) +
         (size_t)ev->pp_cap * sizeof(pend_pair) +
         (size_t)ev->pe_cap * sizeof(pend_event) + obb_tree_memory(&ev->tree);
}

int obb_events_reserve(obb_world *w, int cap) {
  obb_events *ev = state(w);
  return ev == NULL || reserve_ids(ev, cap);
}

/* Room for more_q more events and more_pairs more pairs, each pair also
** keeping a place in the queue for its end. */
static int reserve(obb_events *ev, int more_q, int more_pairs) {
  int need_p = ev->npairs + more_pairs, old = ev->pair_cap, i;
  if (more_q < 0 || more_pairs < 0 || need_p < 0 ||
      more_q > INT_MAX - ev->nq - need_p)
    return 0;
  if (need_p > ev->pair_cap) {
    void *p = room(ev, ev->pairs, sizeof(ev_pair), &ev->pair_cap, need_p);
    if (p == NULL) return 0;
    ev->pairs = (ev_pair *)p;
    for (i = ev->pair_cap - 1; i >= old; i--) {
      ev->pairs[i].s = -1;
      ev->pairs[i].s_next = ev->free_pair;
      ev->free_pair = i;
    }
  }
  if (ev->nq + more_q + need_p > ev->qcap) {
    void *p = room(ev, ev->queue, sizeof(obb_event), &ev->qcap,
                   ev->nq + more_q + need_p);
    if (p == NULL) return 0;
    ev->queue = (obb_event *)p;
  }
  return 1;
}

/* ---- pairs and the queue ------------------------------------------------- */

/* The pair of sensor s and other o, looked up in o's list; -1: none. */
static int find_pair(const obb_events *ev, int s, int o) {
  int p;
  for (p = ev->head[o]; p >= 0; p = ev->pairs[p].o_next)
    if (ev->pairs[p].s == s) return p;
  return -1;
}

/* A pair of s and o, from the room reserve made. */
static void new_pair(obb_events *ev, int s, int o) {
  int p = ev->free_pair;
  ev_pair *e = &ev->pairs[p];
  ev->free_pair = e->s_next;
  e->s = s;
  e->o = o;
  e->s_prev = -1;
  e->s_next = ev->head[s];
  if (e->s_next >= 0) ev->pairs[e->s_next].s_prev = p;
  ev->head[s] = p;
  e->o_prev = -1;
  e->o_next = ev->head[o];
  if (e->o_next >= 0) ev->pairs[e->o_next].o_prev = p;
  ev->head[o] = p;
  ev->npairs++;
  ev->pair_serial++;
}

static void drop_pair(obb_events *ev, int p) {
  ev_pair *e = &ev->pairs[p];
  if (e->s_prev >= 0) ev->pairs[e->s_prev].s_next = e->s_next;
  else ev->head[e->s] = e->s_next;
  if (e->s_next >= 0) ev->pairs[e->s_next].s_prev = e->s_prev;
  if (e->o_prev >= 0) ev->pairs[e->o_prev].o_next = e->o_next;
  else ev->head[e->o] = e->o_next;
  if (e->o_next >= 0) ev->pairs[e->o_next].o_prev = e->o_prev;
  e->s = -1;
  e->s_next = ev->free_pair;
  ev->free_pair = p;
  ev->npairs--;
  ev->pair_serial++;
}

/* An event into the queue, in the room kept for it. */
static void emit(obb_events *ev, int s, int o, int kind, double t) {
  obb_event *e;
  if (ev->nq >= ev->qcap) return; /* never: every change reserves first */
  e = &ev->queue[ev->nq++];
  e->sensor = s;
  e->other = o;
  e->kind = kind;
  e->t = t;
  ev->refs[s]++;
  ev->refs[o]++;
}

static int cmp_event(const void *a, const void *b) {
  const obb_event *x = (const obb_event *)a, *y = (const obb_event *)b;
  if (x->sensor != y->sensor) return x->sensor < y->sensor ? -1 : 1;
  return (x->other > y->other) - (x->other < y->other);
}

/* Ends every pair of id at once (in the places the pairs keep), by the
** other's id. */
static void end_pairs(obb_events *ev, int id) {
  int start = ev->nq, p;
  while ((p = ev->head[id]) >= 0) {
    emit(ev, ev->pairs[p].s, ev->pairs[p].o, OBB_EVENT_END, -1);
    drop_pair(ev, p);
  }
  if (ev->nq - start > 1)
    qsort(ev->queue + start, (size_t)(ev->nq - start), sizeof(obb_event),
          cmp_event);
}

static void mark(obb_events *ev, int id) {
  ev->st[id] |= DIRTY;
  if (!(ev->st[id] & QUEUED)) {
    ev->st[id] |= QUEUED;
    ev->dirty[ev->ndirty++] = id; /* each id at most once: room for all */
  }
}

/* ---- geometry ------------------------------------------------------------ */

static int meets(int dim, const void *a, const void *b) {
  return dim == 2 ? obb2_intersects((const obb2 *)a, (const obb2 *)b)
                  : obb3_intersects((const obb3 *)a, (const obb3 *)b);
}

static void bounds_of(int dim, const void *b, double out[6]) {
  if (dim == 2) obb2_bounds((const obb2 *)b, out);
  else obb3_bounds((const obb3 *)b, out);
}

static const double *center_of(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->c : ((const obb3 *)b)->c;
}

static const double *extents_of(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->e : ((const obb3 *)b)->e;
}

/* Box a moved to time s of a leg that moves it by d and turns it by w
** (about axis in 3D), into out. */
static void pose_at(int dim, const void *a, const double d[3], double w,
                    const double axis[3], double s, ev_box *out) {
  int q;
  if (dim == 2) {
    out->b2 = *(const obb2 *)a;
    if (w != 0) obb2_rotate(&out->b2, s * w);
    for (q = 0; q < 2; q++) out->b2.c[q] = ((const obb2 *)a)->c[q] + s * d[q];
  } else {
    out->b3 = *(const obb3 *)a;
    if (w != 0) {
      double r[4], sn, cs;
      obb_sincos(0.5 * (s * w), &sn, &cs);
      for (q = 0; q < 3; q++) r[q] = axis[q] * sn;
      r[3] = cs;
      obb3_rotate(&out->b3, r);
    }
    for (q = 0; q < 3; q++) out->b3.c[q] = ((const obb3 *)a)->c[q] + s * d[q];
  }
}

/* Where a turning sweep could not decide (no contact before t0): the first
** of 64 samples from t0 on at which the item meets b, then bisection to
** the first time it does; 0 when no sample meets it. */
static int sampled(int dim, const void *a, const void *b, const double d[3],
                   double w, const double axis[3], double t0, double *t) {
  ev_box p;
  double prev, lo, hi, mid;
  int i, j;
  if (!(t0 >= 0)) t0 = 0;
  if (!(t0 <= 1)) return 0;
  prev = t0;
  for (i = 0; i <= 64; i++) {
    double s = i == 64 ? 1.0 : t0 + (1 - t0) * (i / 64.0);
    pose_at(dim, a, d, w, axis, s, &p);
    if (!meets(dim, &p, b)) {
      prev = s;
      continue;
    }
    lo = prev;
    hi = s;
    for (j = 0; i > 0 && j < 60; j++) {
      mid = lo + (hi - lo) * 0.5;
      if (!(mid > lo && mid < hi)) break;
      pose_at(dim, a, d, w, axis, mid, &p);
      if (meets(dim, &p, b)) hi = mid;
      else lo = mid;
    }
    *t = hi;
    return 1;
  }
  return 0;
}

/* The first time in [0, 1] at which box a, moved by d and turned by w
** (about axis in 3D), meets b standing still: 1 and *t, or 0. The sweeps'
** time is one at which obbN_intersects holds for the boxes as they pose
** them, and never later than the first contact. */
static int first_meet(int dim, const void *a, const void *b,
                      const double d[3], double w, const double axis[3],
                      double *t) {
  static const double zero[3] = {0, 0, 0};
  double n[3], rv[3];
  int r, q;
  if (w == 0) {
    r = dim == 2 ? obb2_sweep((const obb2 *)a, (const obb2 *)b, d, zero, t, n)
                 : obb3_sweep((const obb3 *)a, (const obb3 *)b, d, zero, t, n);
    if (r && !(*t >= 0 && *t <= 1)) *t = *t < 0 ? 0 : 1;
    return r;
  }
  if (dim == 2) {
    r = obb2_sweep_turning((const obb2 *)a, (const obb2 *)b, d, zero, w, 0.0,
                           t, n);
  } else {
    for (q = 0; q < 3; q++) rv[q] = axis[q] * w;
    r = obb3_sweep_turning((const obb3 *)a, (const obb3 *)b, d, zero, rv, zero,
                           t, n);
  }
  if (r == OBB_SWEEP_HIT) return 1;
  if (r == OBB_SWEEP_NONE) return 0;
  return sampled(dim, a, b, d, w, axis, *t, t);
}

/* ---- looking again at one id ----------------------------------------------- */

typedef struct collect {
  obb_world *w;
  obb_events *ev;
  const void *box; /* NULL: bounds only */
  int self, oom;
} collect;

static void push_id(collect *c, int id) {
  obb_events *ev = c->ev;
  if (c->oom) return;
  if (!room_ints(ev, &ev->ids, &ev->ids_cap, ev->nids + 1)) {
    c->oom = 1;
    return;
  }
  ev->ids[ev->nids++] = id;
}

/* A sensor of the sensors' tree whose bounds the query's overlap. */
static void on_sensor(void *ctx, int id) {
  collect *c = (collect *)ctx;
  if (id == c->self) return;
  if (c->box == NULL ||
      meets(c->ev->dim, c->box, obb_world_box(c->w, id)))
    push_id(c, id);
}

/* An item of the world (obb_world_query_box: overlapping; or
** obb_world_query_bounds: near), not a sensor. */
static void on_item(void *ctx, int id) {
  collect *c = (collect *)ctx;
  if (id != c->self && c->ev->flags[id] == 0) push_id(c, id);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Two ints per entry (an id and a pair), by the id. */
static int cmp_int2(const void *a, const void *b) { return cmp_int(a, b); }

/* ids[0 .. nids), sorted and without repeats. */
static void sort_ids(obb_events *ev) {
  int i, n = 0;
  if (ev->nids > 1) qsort(ev->ids, (size_t)ev->nids, sizeof(int), cmp_int);
  for (i = 0; i < ev->nids; i++)
    if (n == 0 || ev->ids[n - 1] != ev->ids[i]) ev->ids[n++] = ev->ids[i];
  ev->nids = n;
}

/* Item id's partners (the other end of each of its pairs) and their
** pairs into ids2, two ints each, by the partner's id; 0 when memory runs
** out. */
static int partners(obb_events *ev, int id) {
  int p, n = 0;
  for (p = ev->head[id]; p >= 0; n++)
    p = ev->pairs[p].s == id ? ev->pairs[p].s_next : ev->pairs[p].o_next;
  if (!room_ints(ev, &ev->ids2, &ev->ids2_cap, 2 * n + 2)) return 0;
  ev->nids2 = 0;
  for (p = ev->head[id]; p >= 0;) {
    const ev_pair *e = &ev->pairs[p];
    ev->ids2[2 * ev->nids2] = e->s == id ? e->o : e->s;
    ev->ids2[2 * ev->nids2 + 1] = p;
    ev->nids2++;
    p = e->s == id ? e->s_next : e->o_next;
  }
  if (ev->nids2 > 1)
    qsort(ev->ids2, (size_t)ev->nids2, 2 * sizeof(int), cmp_int2);
  return 1;
}

/* Live item id's pairs made what its box says now: the ends of those gone,
** then the begins of those new, each by the other's id. 0, or -1 when
** memory runs out (nothing changed). */
static int refresh(obb_world *w, obb_events *ev, int id) {
  const void *box = obb_world_box(w, id);
  int sensor, i, j, nb = 0, ne = 0;
  collect c;
  if (box == NULL) return 0;
  sensor = ev->flags[id] != 0;
  c.w = w;
  c.ev = ev;
  c.box = box;
  c.self = id;
  c.oom = 0;
  ev->nids = 0;
  if (sensor) {
    if (obb_world_query_box(w, box, on_item, &c) != 0) c.oom = 1;
  } else {
    double b[6];
    bounds_of(ev->dim, box, b);
    if (obb_tree_query(&ev->tree, b, on_sensor, &c) != 0) c.oom = 1;
  }
  if (c.oom || !partners(ev, id)) return -1;
  sort_ids(ev);
  for (i = j = 0; i < ev->nids || j < ev->nids2;) {
    int a = i < ev->nids ? ev->ids[i] : INT_MAX;
    int b = j < ev->nids2 ? ev->ids2[2 * j] : INT_MAX;
    if (a == b) i++, j++;
    else if (a < b) i++, nb++;
    else j++, ne++;
  }
  if (nb + ne == 0) return 0;
  if (!reserve(ev, nb + ne, nb)) return -1;
  for (i = j = 0; j < ev->nids2; j++) { /* the ends */
    int b = ev->ids2[2 * j];
    while (i < ev->nids && ev->ids[i] < b) i++;
    if (i < ev->nids && ev->ids[i] == b) continue;
    if (sensor) emit(ev, id, b, OBB_EVENT_END, -1);
    else emit(ev, b, id, OBB_EVENT_END, -1);
    drop_pair(ev, ev->ids2[2 * j + 1]);
  }
  for (i = j = 0; i < ev->nids; i++) { /* the begins */
    int a = ev->ids[i];
    while (j < ev->nids2 && ev->ids2[2 * j] < a) j++;
    if (j < ev->nids2 && ev->ids2[2 * j] == a) continue;
    if (sensor) {
      emit(ev, id, a, OBB_EVENT_BEGIN, -1);
      new_pair(ev, id, a);
    } else {
      emit(ev, a, id, OBB_EVENT_BEGIN, -1);
      new_pair(ev, a, id);
    }
  }
  return 0;
}

/* Looks again at every dirty id, in the order they first changed. */
static int flush(obb_world *w, obb_events *ev) {
  int i;
  for (i = 0; i < ev->ndirty; i++) {
    int id = ev->dirty[i];
    if ((ev->st[id] & DIRTY) && ev->nsensors > 0 && refresh(w, ev, id) != 0) {
      memmove(ev->dirty, ev->dirty + i, (size_t)(ev->ndirty - i) * sizeof(int));
      ev->ndirty -= i;
      return -1;
    }
    ev->st[id] &= (unsigned char)~(QUEUED | DIRTY);
  }
  ev->ndirty = 0;
  return 0;
}

/* ---- the hooks ----------------------------------------------------------- */

void obb_events_added(obb_world *w, int id) {
  obb_events *ev = state(w);
  if (ev == NULL) return;
  ev->epoch++;
  ev->pend_valid = 0;
  ev->flags[id] = 0;
  ev->head[id] = -1;
  ev->st[id] &= QUEUED; /* still in the queue from an earlier item */
  if (ev->nsensors > 0) mark(ev, id);
}

/* A move's events, committed: first what changed before the move (where
** the pairs stored differ from where the move starts), by the other's
** id, then the events along the path, then the pairs as the move ends. 0,
** or -1 when the pairs changed since the move (events were looked at in
** between) or the room kept for it went: the id is then only dirty. */
static int commit(obb_events *ev, int id) {
  int xs = ev->flags[id] != 0, i;
  if (ev->pend_serial != ev->pair_serial ||
      ev->pair_cap - ev->npairs < ev->npp ||
      ev->qcap - ev->nq - ev->npairs < ev->npe + 2 * ev->npp)
    return -1;
  for (i = 0; i < ev->npp; i++) {
    const pend_pair *q = &ev->pp[i];
    if ((q->p >= 0) != q->a0) {
      int kind = q->a0 ? OBB_EVENT_BEGIN : OBB_EVENT_END;
      if (xs) emit(ev, id, q->other, kind, -1);
      else emit(ev, q->other, id, kind, -1);
    }
  }
  for (i = 0; i < ev->npe; i++) {
    const pend_event *e = &ev->pe[i];
    if (xs) emit(ev, id, e->other, e->kind, e->t);
    else emit(ev, e->other, id, e->kind, e->t);
  }
  for (i = 0; i < ev->npp; i++) {
    const pend_pair *q = &ev->pp[i];
    if (q->a1 && q->p < 0) {
      if (xs) new_pair(ev, id, q->other);
      else new_pair(ev, q->other, id);
    } else if (!q->a1 && q->p >= 0) {
      drop_pair(ev, q->p);
    }
  }
  return 0;
}

/* Whether box is old with its center at c (the commit of a move that did
** not turn), in the world's dimension. */
static int moved_to(int dim, const void *box, const void *old,
                    const double *c) {
  if (dim == 2) {
    const obb2 *a = (const obb2 *)box, *b = (const obb2 *)old;
    return a->c[0] == c[0] && a->c[1] == c[1] && a->u[0] == b->u[0] &&
           a->u[1] == b->u[1] && a->e[0] == b->e[0] && a->e[1] == b->e[1];
  }
  return ((const obb3 *)box)->c[0] == c[0] &&
         ((const obb3 *)box)->c[1] == c[1] &&
         ((const obb3 *)box)->c[2] == c[2] &&
         memcmp(((const obb3 *)box)->u, ((const obb3 *)old)->u,
                sizeof(obb3) - offsetof(obb3, u)) == 0;
}

/* An update that is no quiet move's commit (obb_events_updated). */
static void updated(obb_events *ev, int id, const void *box, const void *old,
                    unsigned epoch) {
  int match = 0;
  if (ev->flags[id] != 0) {
    double b[6];
    bounds_of(ev->dim, box, b);
    obb_tree_move(&ev->tree, ev->leaf[id], b);
  }
  if (ev->pend_valid && ev->pend_id == id && ev->pend_epoch == epoch)
    match = ev->pend_center
                ? moved_to(ev->dim, box, old, ev->pend_c)
                : memcmp(box, &ev->pend_box, ev->box_size) == 0;
  ev->pend_valid = 0;
  if (ev->nsensors == 0) return;
  if (match && (ev->npp + ev->npe == 0 ? ev->pend_serial == ev->pair_serial
                                       : commit(ev, id) == 0)) {
    ev->st[id] &= (unsigned char)~DIRTY; /* its pairs are what it is now */
    return;
  }
  mark(ev, id);
}

/* The common case first, in few instructions: the commit of a quiet move
** that did not turn (no event, the pairs as they were: the item is the
** box it was, its center moved where the move ended). */
void obb_events_updated(obb_events *ev, int id, const void *box,
                        const void *old) {
  unsigned epoch = ev->epoch++;
  if (ev->pend_id == id && ev->pend_valid && ev->pend_center &&
      ev->pend_epoch == epoch && ev->npp + ev->npe == 0 &&
      ev->pend_serial == ev->pair_serial && ev->dim == 2) {
    const obb2 *a = (const obb2 *)box, *o = (const obb2 *)old;
    if (a->c[0] == ev->pend_c[0] && a->c[1] == ev->pend_c[1] &&
        a->u[0] == o->u[0] && a->u[1] == o->u[1] && a->e[0] == o->e[0] &&
        a->e[1] == o->e[1]) {
      ev->pend_valid = 0;
      ev->st[id] &= (unsigned char)~DIRTY;
      return;
    }
  }
  updated(ev, id, box, old, epoch);
}

int obb_events_removed(obb_world *w, int id) {
  obb_events *ev = state(w);
  if (ev == NULL) return 0;
  ev->epoch++;
  ev->pend_valid = 0;
  ev->st[id] &= (unsigned char)~DIRTY;
  end_pairs(ev, id);
  if (ev->flags[id] != 0) {
    obb_tree_remove(&ev->tree, ev->leaf[id]);
    ev->leaf[id] = OBB_TREE_NULL;
    ev->nsensors--;
    ev->flags[id] = 0;
  }
  if (ev->refs[id] > 0) {
    ev->st[id] |= HELD;
    ev->nheld++;
    return 1;
  }
  return 0;
}

int obb_events_idle(const obb_world *w) {
  const obb_events *ev = *obb_world_events_slot((obb_world *)w);
  return ev == NULL || (ev->nheld == 0 && ev->nq == 0);
}

const unsigned char *obb_events_sensors(obb_world *w, int id, obb_events **ev,
                                        int *quiet) {
  obb_events *e = state(w);
  *ev = e;
  if (e == NULL || e->nsensors == 0) return NULL;
  *quiet = e->flags[id] == 0 && e->head[id] < 0;
  return e->flags;
}

/* ---- a move's events ----------------------------------------------------- */

static int cmp_pend(const void *a, const void *b) {
  const pend_event *x = (const pend_event *)a, *y = (const pend_event *)b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->other != y->other) return x->other < y->other ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* One leg of a path: from box k to box k + 1, moved by d, turned by w. */
typedef struct leg_of {
  double d[3], w, len, at_len, at_turn;
  double lb[6]; /* all it can reach */
  int moves;
} leg_of;

typedef struct path_of {
  const unsigned char *boxes;
  size_t stride;
  int n; /* points */
  const double *axis;
  double len, turn; /* in all */
  leg_of leg[PATH_MAX_POINTS];
} path_of;

static const void *point(const path_of *P, int k) {
  return P->boxes + (size_t)k * P->stride;
}

/* Time s of leg k as the move's t: by length along the path, by the turn
** for a path of no length. */
static double move_t(const path_of *P, int k, double s) {
  const leg_of *g = &P->leg[k];
  double t = P->len > 0 ? (g->at_len + s * g->len) / P->len
           : P->turn > 0 ? (g->at_turn + s * fabs(g->w)) / P->turn : 0;
  return t > 1 ? 1 : t < 0 ? 0 : t;
}

static int add_event(obb_events *ev, int other, int kind, double t) {
  pend_event *e;
  if (ev->npe == ev->pe_cap) {
    void *p = room(ev, ev->pe, sizeof(pend_event), &ev->pe_cap, ev->npe + 1);
    if (p == NULL) return 0;
    ev->pe = (pend_event *)p;
  }
  e = &ev->pe[ev->npe];
  e->other = other;
  e->kind = kind;
  e->seq = ev->npe++;
  e->t = t;
  return 1;
}

/* The pair of the moved item and other ob (id other) along the path:
** whether they meet at its start (*a0) and its end (returned), and the
** events between; -1 when memory runs out. */
static int along(obb_events *ev, const path_of *P, int other, const void *ob,
                 int *a0) {
  int dim = ev->dim, a, k;
  double bo[6];
  bounds_of(dim, ob, bo);
  a = *a0 = meets(dim, point(P, 0), ob);
  for (k = 0; k + 1 < P->n; k++) {
    const leg_of *g = &P->leg[k];
    double tin, tout, tb, back[3];
    int a1, q;
    if (!g->moves || (!a && !obb_box_overlap(g->lb, bo))) continue;
    a1 = meets(dim, point(P, k + 1), ob);
    for (q = 0; q < 3; q++) back[q] = -g->d[q];
    if (!a) {
      if (first_meet(dim, point(P, k), ob, g->d, g->w, P->axis, &tin)) {
        if (!add_event(ev, other, OBB_EVENT_BEGIN, move_t(P, k, tin)))
          return -1;
        if (!a1) { /* through it within the leg: where it leaves */
          tout = first_meet(dim, point(P, k + 1), ob, back, -g->w, P->axis, &tb)
                     ? 1 - tb : tin;
          if (!(tout >= tin)) tout = tin;
          if (!add_event(ev, other, OBB_EVENT_END, move_t(P, k, tout)))
            return -1;
        }
      } else if (a1 && !add_event(ev, other, OBB_EVENT_BEGIN, move_t(P, k, 1))) {
        return -1;
      }
    } else if (!a1) {
      tout = first_meet(dim, point(P, k + 1), ob, back, -g->w, P->axis, &tb)
                 ? 1 - tb : 0;
      if (!add_event(ev, other, OBB_EVENT_END, move_t(P, k, tout))) return -1;
    }
    a = a1;
  }
  return a;
}

/* The legs of the path, and all they reach into u. */
static void legs(path_of *P, int dim, const double *turns, double u[6]) {
  int k, q;
  bounds_of(dim, point(P, 0), u);
  P->len = P->turn = 0;
  for (k = 0; k + 1 < P->n; k++) {
    leg_of *g = &P->leg[k];
    const double *c0 = center_of(dim, point(P, k)),
                 *c1 = center_of(dim, point(P, k + 1));
    double b[6], l2 = 0;
    for (q = 0; q < 3; q++) {
      g->d[q] = q < dim ? c1[q] - c0[q] : 0;
      l2 += g->d[q] * g->d[q];
    }
    g->w = turns[k + 1] - turns[k];
    g->len = sqrt(l2);
    g->at_len = P->len;
    g->at_turn = P->turn;
    P->len += g->len;
    P->turn += fabs(g->w);
    g->moves = l2 > 0 || g->w != 0;
    if (g->w != 0) {
      obb_turning_bounds(dim, c0, extents_of(dim, point(P, k)), g->d, g->lb);
    } else {
      bounds_of(dim, point(P, k), g->lb);
      bounds_of(dim, point(P, k + 1), b);
      for (q = 0; q < 3; q++) {
        g->lb[q] = obb_fmin(g->lb[q], b[q]);
        g->lb[q + 3] = obb_fmax(g->lb[q + 3], b[q + 3]);
      }
    }
    for (q = 0; q < 3; q++) {
      u[q] = obb_fmin(u[q], g->lb[q]);
      u[q + 3] = obb_fmax(u[q + 3], g->lb[q + 3]);
    }
  }
}

void obb_events_pass(obb_events *ev, int id, const double *center,
                     const void *end) {
  ev->npp = ev->npe = 0;
  ev->pend_valid = 1;
  ev->pend_id = id;
  ev->pend_serial = ev->pair_serial;
  ev->pend_epoch = ev->epoch;
  ev->pend_center = end == NULL;
  if (end != NULL) {
    memcpy(&ev->pend_box, end, ev->box_size);
  } else {
    ev->pend_c[0] = center[0];
    ev->pend_c[1] = center[1];
    ev->pend_c[2] = ev->dim == 3 ? center[2] : 0;
  }
}

int obb_events_moved(obb_world *w, int id, const void *path, size_t stride,
                     const double *turns, int npath, const double axis[3]) {
  obb_events *ev = state(w);
  path_of P;
  collect c;
  double u[6];
  int i, xs, ndiff = 0, pq;
  if (ev == NULL) return 0;
  ev->pend_valid = 0;
  if (ev->nsensors == 0 || npath < 1 || npath > PATH_MAX_POINTS) return 0;
  xs = ev->flags[id] != 0;
  P.boxes = (const unsigned char *)path;
  P.stride = stride;
  P.n = npath;
  P.axis = axis;
  legs(&P, ev->dim, turns, u);
  /* what it may meet: the sensors near its path (an item near it, for a
  ** sensor), and whatever it pairs with now */
  c.w = w;
  c.ev = ev;
  c.box = NULL;
  c.self = id;
  c.oom = 0;
  ev->nids = 0;
  if (!xs) {
    if (obb_tree_query(&ev->tree, u, on_sensor, &c) != 0) return -1;
  } else if (obb_world_query_bounds(w, u, on_item, &c) != 0) {
    return -1;
  }
  for (pq = ev->head[id]; pq >= 0 && !c.oom;) {
    const ev_pair *e = &ev->pairs[pq];
    push_id(&c, xs ? e->o : e->s);
    pq = xs ? e->s_next : e->o_next;
  }
  if (c.oom) return -1;
  sort_ids(ev);
  ev->npp = ev->npe = 0;
  if (!(ev->pp_cap >= ev->nids ||
        (ev->pp = (pend_pair *)room(ev, ev->pp, sizeof(pend_pair), &ev->pp_cap,
                                    ev->nids)) != NULL))
    return -1;
  for (i = 0; i < ev->nids; i++) {
    int other = ev->ids[i], p, a0, a1, before = ev->npe;
    const void *ob = obb_world_box(w, other);
    if (ob == NULL) continue;
    p = xs ? find_pair(ev, id, other) : find_pair(ev, other, id);
    a1 = along(ev, &P, other, ob, &a0);
    if (a1 < 0) return -1;
    if (p < 0 && !a0 && !a1 && ev->npe == before) continue;
    ev->pp[ev->npp].other = other;
    ev->pp[ev->npp].p = p;
    ev->pp[ev->npp].a0 = a0;
    ev->pp[ev->npp].a1 = a1;
    ev->npp++;
    if ((p >= 0) != a0) ndiff++;
  }
  if (ev->npe > 1)
    qsort(ev->pe, (size_t)ev->npe, sizeof(pend_event), cmp_pend);
  (void)ndiff;
  /* the room its commit needs, kept now: a commit cannot fail */
  if (!reserve(ev, ev->npe + ev->npp, ev->npp)) return -1;
  ev->pend_valid = 1;
  ev->pend_id = id;
  ev->pend_center = 0;
  ev->pend_serial = ev->pair_serial;
  ev->pend_epoch = ev->epoch;
  memcpy(&ev->pend_box, point(&P, npath - 1), ev->box_size);
  return 0;
}

/* ---- the API ---------------------------------------------------------------- */

int obb_world_set_sensor(obb_world *w, int id, int flags) {
  obb_events *ev = state(w);
  const void *box = obb_world_box(w, id);
  int was, now;
  if (box == NULL || flags < 0 || flags > 255) return -1;
  if (ev == NULL) {
    if (flags == 0) return 0;
    ev = create(w);
    if (ev == NULL) return -1;
  }
  was = ev->flags[id] != 0;
  now = flags != 0;
  if (was == now) {
    ev->flags[id] = (unsigned char)flags;
    return 0;
  }
  if (now && !obb_tree_reserve(&ev->tree, 2)) return -1;
  ev->epoch++;
  ev->pend_valid = 0;
  end_pairs(ev, id);
  ev->flags[id] = (unsigned char)flags;
  if (now) {
    double b[6];
    bounds_of(ev->dim, box, b);
    ev->leaf[id] = obb_tree_insert(&ev->tree, b, id); /* room reserved */
    ev->nsensors++;
  } else {
    obb_tree_remove(&ev->tree, ev->leaf[id]);
    ev->leaf[id] = OBB_TREE_NULL;
    ev->nsensors--;
  }
  mark(ev, id);
  return 0;
}

int obb_world_sensor(const obb_world *w, int id) {
  const obb_events *ev = *obb_world_events_slot((obb_world *)w);
  return ev != NULL && obb_world_box(w, id) != NULL ? ev->flags[id] : 0;
}

int obb_world_held(const obb_world *w, int id) {
  const obb_events *ev = *obb_world_events_slot((obb_world *)w);
  return ev != NULL && id >= 0 && id < ev->cap && (ev->st[id] & HELD) != 0;
}

int obb_world_events(obb_world *w, const obb_event **events) {
  obb_events *ev = state(w);
  *events = NULL;
  if (ev == NULL) return 0;
  if (flush(w, ev) != 0) return -1;
  *events = ev->queue;
  return ev->nq;
}

int obb_events_queue(obb_world *w, const obb_event **events) {
  obb_events *ev = state(w);
  *events = ev != NULL ? ev->queue : NULL;
  return ev != NULL ? ev->nq : 0;
}

/* One event naming id fewer: a held id named by none goes free. */
static void unref(obb_world *w, obb_events *ev, int id,
                  obb_world_release_fn released, void *ctx) {
  if (--ev->refs[id] == 0 && (ev->st[id] & HELD)) {
    ev->st[id] &= (unsigned char)~HELD;
    ev->nheld--;
    obb_world_unhold(w, id);
    if (released != NULL) released(ctx, id);
  }
}

void obb_world_events_done(obb_world *w, int n, obb_world_release_fn released,
                           void *ctx) {
  obb_events *ev = state(w);
  int i;
  if (ev == NULL || n <= 0) return;
  if (n > ev->nq) n = ev->nq;
  for (i = 0; i < n; i++) {
    unref(w, ev, ev->queue[i].sensor, released, ctx);
    unref(w, ev, ev->queue[i].other, released, ctx);
  }
  memmove(ev->queue, ev->queue + n, (size_t)(ev->nq - n) * sizeof(obb_event));
  ev->nq -= n;
  obb_world_settle(w); /* may free ev: the last thing done */
}
