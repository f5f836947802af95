/*
** obb_character.c: the character kit (include/obb_world.h, "the character
** kit"): what an item stands on (obb_world_ground), and the moves of a
** character, which keep it on the ground by the world's up (its options
** and state are obb_character_store.c's).
**
** A character's move is a few moves of the mover (obb_move_probe, which
** starts from any pose and works out no events) chained here, as
** Godot's move_and_slide chains its move_and_collide:
**   1. stop on slope turns a move that only goes down into the floor;
**   2. the move itself, cut where a slide would climb a steep face
**      (block on wall: the part into that face across up is dropped and
**      the rest goes on from there);
**   3. corner correction and the step up try a way past what blocked it;
**   4. snap puts an item that walked off its floor back onto one below.
** Each part runs only with its option set, so a character with every
** option off moves as any item, bit for bit. The filter is asked once per
** other and move, as by a single move, and each other is reported once
** (a bounce once per bounce); the events are worked out once, from the
** whole path.
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "obb_world.h"
#include "obb_world_impl.h"
#include "obb_events_impl.h"
#include "obb_bounds.h"
#include "obb_math.h"
#include "obb_character_impl.h"

typedef union anybox {
  obb2 b2;
  obb3 b3;
} anybox;

/* ---- a character's move: what its parts share ----------------------------- */

#define KIT_ASKED 64     /* answers kept (beyond: asked again) */
#define KIT_REPORTED 64  /* others reported (beyond: not told apart) */
#define KIT_PATH 64      /* poses of the path, for the events */
#define KIT_BUFFER 16    /* records held while a try is decided */

/* How the kit answers the mover: a part of the move with the caller's
** responses (MAIN), or a probe where whatever blocks stops (PROBE). */
enum { MAIN, PROBE };

/* The others whose bounds touch the item's (a character's floor), by id,
** found before any is asked about (a filter may query the world). */
#define KIT_NEAR 32
typedef struct near_scan {
  int n, more;
  int id[KIT_NEAR];
} near_scan;

typedef struct kit {
  obb_world *w;
  int id, dim;
  const obb_move_calls *calls;
  double up[3];
  int mode;
  int aborted;
  /* block on wall, in MAIN: the move's way, and a steep face turned into
  ** a stop where a slide along it would climb */
  int block;
  double dir[3];
  int steep;
  double steep_n[3];
  /* what the last part met that blocked: the last wall or ceiling, else
  ** the last floor, and its face */
  int blocker;
  double blocker_n[3], blocker_p[3]; /* its face, the center at contact */
  int floor_met, wall_met, ceiling_met;
  int floor_other; /* the last floor a part of the move met (-1: none) */
  /* PROBE: the blocker met most nearly up */
  int best;
  double best_n[3], best_t, best_up;
  /* the others the last part could reach, and where it ended: a floor
  ** there is among them (nnear -1: not known, the world is asked) */
  int nnear;
  double near_at[3];
  /* records: told to the caller at once, or held (hold) for a try */
  int hold, nheld, held_lost;
  int nasked, nrep, nreported, npath;
  /* from here on, read only up to the counts above */
  int asked_id[KIT_ASKED];  /* the answers asked so far */
  unsigned char asked_r[KIT_ASKED];
  int reported[KIT_REPORTED];
  obb_move_hit held[KIT_BUFFER];
  double path[KIT_PATH][3];
  int near[KIT_NEAR];
} kit;

static double dot(const kit *k, const double *a, const double *b) {
  return k->dim == 2 ? a[0] * b[0] + a[1] * b[1] : obb_dot3(a, b);
}

static void copy(const kit *k, double *to, const double *from) {
  to[0] = from[0];
  to[1] = from[1];
  if (k->dim == 3) to[2] = from[2];
}

static int same_point(const kit *k, const double *a, const double *b) {
  return a[0] == b[0] && a[1] == b[1] && (k->dim == 2 || a[2] == b[2]);
}

/* Whether the unit normal n faces up within the slope (a floor), or down
** within it (a ceiling). */
static int is_floor(const kit *k, const double *n) {
  double m[3] = {n[0], n[1], k->dim == 3 ? n[2] : 0};
  return obb_world_is_floor(k->w, m);
}

static int is_ceiling(const kit *k, const double *n) {
  double m[3] = {-n[0], -n[1], k->dim == 3 ? -n[2] : 0};
  return obb_world_is_floor(k->w, m);
}

/* The caller's answer about other (asked once per move). */
static int answer(kit *k, int item, const obb_move_hit *hit) {
  int i, r;
  for (i = 0; i < k->nasked; i++)
    if (k->asked_id[i] == hit->other) return k->asked_r[i];
  if (k->calls->responses != NULL) {
    r = k->calls->responses[obb_world_class(k->w, hit->other)];
    if (r > OBB_BOUNCE) r = OBB_SLIDE;
  } else if (k->calls->filter != NULL) {
    r = k->calls->filter(k->calls->filter_ctx, item, hit);
    if (r < 0) {
      k->aborted = 1;
      return r;
    }
    if (r > OBB_BOUNCE) r = OBB_SLIDE;
  } else {
    r = OBB_SLIDE;
  }
  if (k->nasked < KIT_ASKED) {
    k->asked_id[k->nasked] = hit->other;
    k->asked_r[k->nasked++] = (unsigned char)r;
  }
  return r;
}

/* Whether a slide of the way dir along the face n goes up more than dir
** does (and up at all): what block on wall forbids on a steep face. */
static int climbs(const kit *k, const double *n) {
  double s[3], a = dot(k, k->dir, n), lift, own;
  int q;
  for (q = 0; q < k->dim; q++) s[q] = k->dir[q] - a * n[q];
  if (k->dim == 2) s[2] = 0;
  lift = dot(k, s, k->up);
  own = dot(k, k->dir, k->up);
  return a < 0 && lift > 0 && lift > own;
}

static int kit_filter(void *ctx, int item, const obb_move_hit *hit) {
  kit *k = (kit *)ctx;
  int r = answer(k, item, hit);
  if (r < 0) return r;
  if (k->mode == PROBE)
    return r == OBB_IGNORE || r == OBB_CROSS ? OBB_IGNORE : OBB_TOUCH;
  if (k->block && r == OBB_SLIDE && !is_floor(k, hit->n) &&
      !is_ceiling(k, hit->n) && climbs(k, hit->n)) {
    k->steep = 1;
    copy(k, k->steep_n, hit->n);
    return OBB_TOUCH;
  }
  return r;
}

/* A record told to the caller (each other once, a bounce once per
** bounce), or held while a try is decided. */
static void tell(kit *k, const obb_move_hit *hit) {
  int i;
  if (hit->response != OBB_BOUNCE) {
    for (i = 0; i < k->nrep; i++)
      if (k->reported[i] == hit->other) return;
    if (k->nrep < KIT_REPORTED) k->reported[k->nrep++] = hit->other;
  }
  k->nreported++;
  if (k->calls->report != NULL) k->calls->report(k->calls->report_ctx, hit);
}

static void kit_report(void *ctx, const obb_move_hit *hit) {
  kit *k = (kit *)ctx;
  int blocks = hit->response != OBB_CROSS, i;
  obb_move_hit h;
  if (blocks && (k->blocker < 0 || !is_floor(k, hit->n))) {
    k->blocker = hit->other; /* a wall or a ceiling before a floor */
    copy(k, k->blocker_n, hit->n);
    copy(k, k->blocker_p, hit->p);
  }
  if (k->mode == PROBE) {
    double u = dot(k, hit->n, k->up);
    if (blocks && (k->best < 0 || u > k->best_up)) {
      k->best = hit->other;
      copy(k, k->best_n, hit->n);
      k->best_t = hit->t;
      k->best_up = u;
    }
    return;
  }
  if (blocks) {
    if (is_floor(k, hit->n)) k->floor_met = 1, k->floor_other = hit->other;
    else if (is_ceiling(k, hit->n)) k->ceiling_met = 1;
    else k->wall_met = 1;
  }
  h = *hit;
  if (h.response == OBB_TOUCH) /* maybe a steep face's stop: its answer */
    for (i = 0; i < k->nasked; i++)
      if (k->asked_id[i] == h.other) h.response = k->asked_r[i];
  if (!k->hold) tell(k, &h);
  else if (k->nheld < KIT_BUFFER) k->held[k->nheld++] = h;
  else k->held_lost = 1;
}

/* Appends a probe's path (its first pose is where the path is). */
static void add_path(kit *k, const obb_probe_path *p) {
  int i;
  for (i = 1; i < p->n && k->npath < KIT_PATH; i++)
    memcpy(k->path[k->npath++], p->pos[i], sizeof k->path[0]);
}

static void add_pose(kit *k, const double *c) {
  if (k->npath < KIT_PATH) {
    k->path[k->npath][2] = 0;
    copy(k, k->path[k->npath++], c);
  }
}

/* One part of the move, from to goal, in the mode given; the center where
** it ends into at. Returns as obb_world_move. */
static int part(kit *k, int mode, const double *from, const double *goal,
                double *at, int keep_path) {
  obb_move_calls calls;
  obb_probe_path path;
  int n, q;
  memset(&calls, 0, sizeof calls);
  calls.filter = kit_filter;
  calls.filter_ctx = k;
  calls.report = kit_report;
  calls.report_ctx = k;
  k->mode = mode;
  k->steep = 0;
  k->blocker = -1;
  k->best = -1;
  for (q = 0; q < k->dim; q++) k->dir[q] = goal[q] - from[q];
  if (k->dim == 2) k->dir[2] = 0;
  n = obb_move_probe(k->w, k->id, from, goal, &calls, at, &path);
  if (k->aborted) return -2;
  if (n >= 0 && keep_path) add_path(k, &path);
  k->nnear = -1;
  if (n >= 0 && path.nnear <= KIT_NEAR) { /* a copy: a filter may move */
    memcpy(k->near, path.near, (size_t)path.nnear * sizeof(int));
    k->nnear = path.nnear;
    copy(k, k->near_at, at);
  }
  return n;
}

/* A straight probe down (against up) by dist from c: 1 with the blocker
** met most nearly up into k->best (its face k->best_n, met at k->best_t),
** where the probe ended into at; 0 when nothing stopped it; < 0 as
** obb_world_move. */
static int probe_down(kit *k, const double *c, double dist, double *at) {
  double g[3];
  int q, n;
  for (q = 0; q < k->dim; q++) g[q] = c[q] - dist * k->up[q];
  n = part(k, PROBE, c, g, at, 0);
  if (n < 0) return n;
  return k->best >= 0;
}

/* A length small against the item's size and place, far above the band:
** what a look at the ground "now" probes. */
static double tiny_of(const kit *k, const void *box, const double *c) {
  const double *e = k->dim == 2 ? ((const obb2 *)box)->e : ((const obb3 *)box)->e;
  double s = 0;
  int q;
  for (q = 0; q < k->dim; q++) s += fabs(c[q]) + e[q];
  return 0x1p-20 * s + 0x1p-1000;
}

/* The item's box with its center at c. */
static void box_at(const kit *k, const void *box, const double *c,
                   anybox *out) {
  if (k->dim == 2) {
    out->b2 = *(const obb2 *)box;
    memcpy(out->b2.c, c, sizeof out->b2.c);
  } else {
    out->b3 = *(const obb3 *)box;
    memcpy(out->b3.c, c, sizeof out->b3.c);
  }
}

static int touching(const kit *k, const anybox *a, int other) {
  const void *b = obb_world_box(k->w, other);
  return k->dim == 2 ? obb2_intersects(&a->b2, (const obb2 *)b)
                     : obb3_intersects(&a->b3, (const obb3 *)b);
}

/* What the item, its box at c, stands on within dist (0: touching), into
** g. 1 found, 0 none, < 0 as obb_world_move. */
static int ground_at(kit *k, const void *box, const double *c, double dist,
                     obb_ground *g) {
  /* a little further than dist: a probe meets nothing at its very end
  ** (it only comes to touch it), and a floor exactly dist below is within */
  double at[3], over = 0x1p-16 * tiny_of(k, box, c);
  double len = dist > 0 ? dist + over : tiny_of(k, box, c);
  anybox b;
  int rc = probe_down(k, c, len, at);
  memset(g, 0, sizeof *g);
  g->other = -1;
  if (rc <= 0) return rc;
  box_at(k, box, c, &b);
  g->gap = touching(k, &b, k->best) ? 0 : k->best_t * len;
  if (dist == 0 ? g->gap > 0 : g->gap > dist + over) return 0;
  g->other = k->best;
  g->floor = is_floor(k, k->best_n);
  copy(k, g->n, k->best_n);
  obb_character_motion(k->w, g->other, c, g->motion);
  return 1;
}

/* The ground where a character's move ends, without a probe when it can
** be told at once: other (a floor the move met, or the one it stood on)
** touches the item there, the filter does not let it through, and the
** face it touches (their penetration normal) is a floor. 1 with g set,
** 0 when the probe must tell (ground_at), < 0 as obb_world_move. */
static int ground_known(kit *k, const void *box, const double *c, int other,
                        obb_ground *g) {
  const void *ob = other >= 0 ? obb_world_box(k->w, other) : NULL;
  obb_move_hit h;
  anybox b;
  double n[3] = {0, 0, 0}, depth;
  int r;
  if (ob == NULL) return 0;
  box_at(k, box, c, &b);
  if (!(k->dim == 2 ? obb2_penetration(&b.b2, (const obb2 *)ob, n, &depth)
                    : obb3_penetration(&b.b3, (const obb3 *)ob, n, &depth)) ||
      !is_floor(k, n))
    return 0;
  memset(&h, 0, sizeof h);
  h.other = other;
  copy(k, h.n, n);
  copy(k, h.p, c);
  h.depth = depth;
  r = answer(k, k->id, &h); /* as the probe would ask it */
  if (r < 0) return -2;
  if (r == OBB_IGNORE || r == OBB_CROSS) return 0;
  memset(g, 0, sizeof *g);
  g->other = other;
  g->floor = 1;
  copy(k, g->n, n);
  obb_character_motion(k->w, other, c, g->motion);
  return 1;
}

static void on_near(void *ctx, int id) {
  near_scan *s = (near_scan *)ctx;
  if (s->n < KIT_NEAR) s->id[s->n++] = id;
  else s->more = 1;
}

/* The floor the item, its box at c, touches: of the others it touches
** (by the touching rule) on a face that is a floor (their penetration
** normal), sensors and what the filter ignores or crosses left out, the
** one most nearly up, then the lowest id. 1 with g set, 0 for none, < 0
** as obb_world_move; -4 when too many are near (the probe tells). */
static int floor_touching(kit *k, const void *box, const double *c,
                          obb_ground *g) {
  near_scan s;
  anybox b;
  double bounds[6], best_up = 0, best_n[3] = {0, 0, 0};
  const unsigned char *sensors;
  obb_events *ev;
  int quiet, i, j, best = -1;
  box_at(k, box, c, &b);
  s.n = s.more = 0;
  if (k->nnear >= 0 && same_point(k, k->near_at, c)) { /* the last part's */
    memcpy(s.id, k->near, (size_t)k->nnear * sizeof(int));
    s.n = k->nnear;
  } else {
    if (k->dim == 2) obb2_bounds(&b.b2, bounds);
    else obb3_bounds(&b.b3, bounds);
    if (obb_world_query_others(k->w, bounds, k->id, on_near, &s) != 0)
      return -1;
    if (s.more) return -4;
  }
  for (i = 1; i < s.n; i++) /* by id: the filter asked in a fixed order */
    for (j = i; j > 0 && s.id[j - 1] > s.id[j]; j--) {
      int t = s.id[j];
      s.id[j] = s.id[j - 1];
      s.id[j - 1] = t;
    }
  sensors = obb_events_sensors(k->w, k->id, &ev, &quiet);
  for (i = 0; i < s.n; i++) {
    const void *ob = obb_world_box(k->w, s.id[i]);
    double n[3] = {0, 0, 0}, depth, u;
    obb_move_hit h;
    int r;
    if (sensors != NULL && sensors[s.id[i]]) continue;
    if (!(k->dim == 2 ? obb2_penetration(&b.b2, (const obb2 *)ob, n, &depth)
                      : obb3_penetration(&b.b3, (const obb3 *)ob, n, &depth)) ||
        !is_floor(k, n))
      continue;
    u = dot(k, n, k->up);
    if (best >= 0 && !(u > best_up)) continue; /* ids ascend: the lower */
    memset(&h, 0, sizeof h);
    h.other = s.id[i];
    copy(k, h.n, n);
    copy(k, h.p, c);
    h.depth = depth;
    r = answer(k, k->id, &h);
    if (r < 0) return -2;
    if (r == OBB_IGNORE || r == OBB_CROSS) continue;
    best = s.id[i];
    best_up = u;
    copy(k, best_n, n);
  }
  memset(g, 0, sizeof *g);
  g->other = best;
  if (best < 0) return 0;
  g->floor = 1;
  copy(k, g->n, best_n);
  obb_character_motion(k->w, best, c, g->motion);
  return 1;
}

/* The floor a character's move leaves it on, its box at c: a or b (the
** floors it met or stood on) when it still touches one of them on a
** floor face, else floor_touching's, else (a crowd near) the probe's
** when a floor. 1 with g set, 0 for none (g->other -1), < 0 as
** obb_world_move. */
static int floor_at(kit *k, const void *box, const double *c, int a, int b,
                    obb_ground *g) {
  int n = ground_known(k, box, c, a, g);
  if (n == 0 && b != a) n = ground_known(k, box, c, b, g);
  if (n == 0) n = floor_touching(k, box, c, g);
  if (n == -4) {
    n = ground_at(k, box, c, 0, g);
    if (n > 0 && !g->floor) {
      memset(g, 0, sizeof *g);
      g->other = -1;
      n = 0;
    }
  }
  if (n == 0) {
    memset(g, 0, sizeof *g);
    g->other = -1;
  }
  return n;
}

static int kit_init(kit *k, obb_world *w, int id, const obb_move_calls *calls) {
  double slope;
  memset(k, 0, offsetof(kit, asked_id));
  k->w = w;
  k->id = id;
  k->dim = obb_world_dim(w);
  k->calls = calls;
  k->blocker = k->best = k->floor_other = k->nnear = -1;
  return obb_world_up(w, k->up, &slope);
}

int obb_world_ground(obb_world *w, int id, double distance,
                     obb_move_filter_fn filter, void *ctx, obb_ground *g) {
  obb_move_calls calls;
  const void *box = obb_world_box(w, id);
  kit k;
  int rc;
  memset(g, 0, sizeof *g);
  g->other = -1;
  memset(&calls, 0, sizeof calls);
  calls.filter = filter;
  calls.filter_ctx = ctx;
  if (box == NULL || !obb_finite(distance) || distance < 0 ||
      !kit_init(&k, w, id, &calls))
    return -1;
  rc = ground_at(&k, box, obb_world_dim(w) == 2 ? ((const obb2 *)box)->c
                                                : ((const obb3 *)box)->c,
                 distance, g);
  return rc == -3 ? -1 : rc;
}

/* ---- a character's move ------------------------------------------------- */

/* Stop on slope: the goal g of a move from c to goal by an item that
** stands on a floor. A move that only goes down (its part across up
** nothing, to rounding) stays where it is; one with a part across up goes
** by that part, its part down turned into the floor's normal, which the
** slide takes away: it never creeps down the slope. */
static void stop_on_slope(const kit *k, const obb_character_state *prev,
                          const double *c, const double *goal, double *g) {
  double v[3] = {0, 0, 0}, l[3] = {0, 0, 0}, a, big = 0, across = 0;
  int q;
  copy(k, g, goal);
  if (!prev->on_floor || !prev->ground.floor) return;
  for (q = 0; q < k->dim; q++) v[q] = goal[q] - c[q];
  a = dot(k, v, k->up);
  if (!(a <= 0)) return;
  for (q = 0; q < k->dim; q++) {
    l[q] = v[q] - a * k->up[q];
    big = obb_fmax(big, fabs(v[q]));
    across = obb_fmax(across, fabs(l[q]));
  }
  if (across <= 0x1p-40 * big) {
    copy(k, g, c);
    return;
  }
  if (same_point(k, prev->ground.n, k->up)) return; /* level: as it is */
  for (q = 0; q < k->dim; q++) g[q] = c[q] + (l[q] + a * prev->ground.n[q]);
}

/* The move itself, from c0 toward g (block on wall: cut where a slide
** would climb a steep face, its part into that face across up dropped);
** where it ends into pos. Returns as obb_world_move. */
static int main_parts(kit *k, int block, const double *c0, const double *g,
                      double *pos) {
  double target[3] = {0, 0, 0}, at[3] = {0, 0, 0};
  int i, q, n = 0;
  copy(k, pos, c0);
  copy(k, target, g);
  for (i = 0; i < 4; i++) {
    double h[3] = {0, 0, 0}, r[3] = {0, 0, 0}, d;
    k->block = block;
    n = part(k, MAIN, pos, target, at, 1);
    k->block = 0;
    if (n < 0) return n;
    copy(k, pos, at);
    if (!k->steep) break;
    d = dot(k, k->steep_n, k->up);
    for (q = 0; q < k->dim; q++) h[q] = k->steep_n[q] - d * k->up[q];
    if (!(k->dim == 2 ? obb_normalize2(h) : obb_normalize3(h))) break;
    for (q = 0; q < k->dim; q++) r[q] = target[q] - pos[q];
    d = dot(k, r, h);
    if (d < 0)
      for (q = 0; q < k->dim; q++) target[q] = pos[q] + (r[q] - d * h[q]);
  }
  return n;
}

/* What a try (a corner pass, a step) may undo: the path's length and
** what the move had met. */
typedef struct trymark {
  int npath, floor_met, wall_met, ceiling_met, floor_other;
} trymark;

/* Starts holding the records of a try, its path kept from here; the
** blocker it tries to get past (its face n) no longer counts as met
** (wall or ceiling) unless the try meets it too. */
static void try_begin(kit *k, const double *n, trymark *m) {
  m->npath = k->npath;
  m->floor_met = k->floor_met;
  m->wall_met = k->wall_met;
  m->ceiling_met = k->ceiling_met;
  m->floor_other = k->floor_other;
  if (is_ceiling(k, n)) k->ceiling_met = 0;
  else if (!is_floor(k, n)) k->wall_met = 0;
  k->hold = 1;
  k->nheld = 0;
  k->held_lost = 0;
}

/* Ends a try: its records told (kept), or dropped with its path and what
** it met. */
static void try_end(kit *k, int keep, const trymark *m) {
  int i, n = k->nheld;
  k->hold = 0;
  k->nheld = 0;
  if (!keep) {
    k->npath = m->npath;
    k->floor_met = m->floor_met;
    k->wall_met = m->wall_met;
    k->ceiling_met = m->ceiling_met;
    k->floor_other = m->floor_other;
    return;
  }
  for (i = 0; i < n; i++) tell(k, &k->held[i]);
}

/* Whether a held record blocked on other's face n again (met on another
** face of it, as the top of the ledge its feet clipped, it is passed). */
static int held_blocked(const kit *k, int other, const double *n) {
  int i;
  for (i = 0; i < k->nheld; i++)
    if (k->held[i].other == other && k->held[i].response != OBB_CROSS &&
        dot(k, k->held[i].n, n) > 1 - 0x1p-20)
      return 1;
  return 0;
}

/* The item's extent along the unit t (half its width that way), box b. */
static double reach_along(int dim, const void *b, const double *t) {
  if (dim == 2) {
    const obb2 *o = (const obb2 *)b;
    return o->e[0] * fabs(o->u[0] * t[0] + o->u[1] * t[1]) +
           o->e[1] * fabs(-o->u[1] * t[0] + o->u[0] * t[1]);
  } else {
    const obb3 *o = (const obb3 *)b;
    return o->e[0] * fabs(obb_dot3(o->u[0], t)) +
           o->e[1] * fabs(obb_dot3(o->u[1], t)) +
           o->e[2] * fabs(obb_dot3(o->u[2], t));
  }
}

/* Corner correction: the move toward goal was blocked by k->blocker on
** its face k->blocker_n (a wall or a ceiling: a floor under the feet is
** no corner), the item's center at k->blocker_p when they met. From
** there, along each axis of the blocker across that face, the least way
** (within corner) that takes the item clear of the blocker; nudged that
** way (stopping at nothing), the rest of the move from where they met
** goes on from there. 1 when it did (pos moved), 0 when not, < 0 as
** obb_world_move. */
static int corner_pass(kit *k, double corner, const void *box,
                       const double *goal, double *pos) {
  int blocker = k->blocker, dim = k->dim, a, q, n;
  trymark mark;
  const void *ob = obb_world_box(k->w, blocker);
  double best = corner, way[3] = {0, 0, 0}, n0[3] = {0, 0, 0};
  double nudged[3] = {0, 0, 0}, target[3] = {0, 0, 0}, at[3] = {0, 0, 0};
  double blk_n[3] = {0, 0, 0}, base[3] = {0, 0, 0};
  if (ob == NULL || is_floor(k, k->blocker_n)) return 0;
  copy(k, blk_n, k->blocker_n);
  copy(k, base, k->blocker_p);
  for (a = 0; a < dim; a++) {
    double t[3] = {0, 0, 0}, ri, ro, ci, co, plus, minus;
    if (dim == 2) {
      const obb2 *o = (const obb2 *)ob;
      t[0] = a == 0 ? o->u[0] : -o->u[1];
      t[1] = a == 0 ? o->u[1] : o->u[0];
    } else {
      copy(k, t, ((const obb3 *)ob)->u[a]);
    }
    if (fabs(dot(k, t, blk_n)) > 0x1p-20) continue; /* not across the face */
    ri = reach_along(dim, box, t);
    ro = reach_along(dim, ob, t);
    ci = dot(k, base, t);
    co = dot(k, dim == 2 ? ((const obb2 *)ob)->c : ((const obb3 *)ob)->c, t);
    plus = (co + ro) - (ci - ri); /* +t by this much: clear of it */
    minus = (ci + ri) - (co - ro);
    if (plus > 0 && plus <= best) {
      best = plus;
      for (q = 0; q < dim; q++) way[q] = plus * t[q];
    }
    if (minus > 0 && minus < best) {
      best = minus;
      for (q = 0; q < dim; q++) way[q] = -minus * t[q];
    }
  }
  if (same_point(k, way, n0)) return 0;
  for (q = 0; q < dim; q++) {
    nudged[q] = base[q] + way[q];
    target[q] = nudged[q] + (goal[q] - base[q]);
  }
  n = part(k, PROBE, base, nudged, at, 0);
  if (n < 0) return n;
  if (!same_point(k, at, nudged)) return 0; /* no room to be nudged */
  try_begin(k, blk_n, &mark);
  add_pose(k, base);
  add_pose(k, nudged);
  n = part(k, MAIN, nudged, target, at, 1);
  if (n < 0) {
    try_end(k, 0, &mark);
    return n;
  }
  if (held_blocked(k, blocker, blk_n) || k->held_lost) {
    try_end(k, 0, &mark);
    return 0;
  }
  try_end(k, 1, &mark);
  copy(k, pos, at);
  return 1;
}

/* The step up: the move from pos toward goal was blocked by wall (its
** face n) while the item stood on a floor. A wall whose top is higher
** above the item's bottom than step is no ledge; else up by at most step,
** on along the rest of the move across up, then down onto a floor: 1
** when it stepped (pos there), 0 when not, < 0 as obb_world_move. */
static int step_up(kit *k, double step, const void *box, int wall,
                   const double *n, const double *goal, double *pos) {
  const void *wb = obb_world_box(k->w, wall);
  double r[3] = {0, 0, 0}, top[3] = {0, 0, 0}, on[3] = {0, 0, 0};
  double down[3] = {0, 0, 0}, at[3] = {0, 0, 0}, zero[3] = {0, 0, 0};
  double a, rise, high, low;
  int q, rc;
  trymark mark;
  if (wb == NULL) return 0;
  high = dot(k, k->dim == 2 ? ((const obb2 *)wb)->c : ((const obb3 *)wb)->c,
             k->up) + reach_along(k->dim, wb, k->up);
  low = dot(k, pos, k->up) - reach_along(k->dim, box, k->up);
  if (high - low > step + 0x1p-30 * (fabs(high) + fabs(low) + step))
    return 0;
  for (q = 0; q < k->dim; q++) r[q] = goal[q] - pos[q];
  a = dot(k, r, k->up);
  for (q = 0; q < k->dim; q++) {
    r[q] -= a * k->up[q];
    top[q] = pos[q] + step * k->up[q];
  }
  if (same_point(k, r, zero)) return 0;
  rc = part(k, PROBE, pos, top, at, 0);
  if (rc < 0) return rc;
  copy(k, top, at);
  for (q = 0; q < k->dim; q++) at[q] = top[q] - pos[q];
  rise = dot(k, at, k->up);
  if (!(rise > 0)) return 0;
  for (q = 0; q < k->dim; q++) on[q] = top[q] + r[q];
  try_begin(k, n, &mark);
  add_pose(k, top);
  rc = part(k, MAIN, top, on, at, 1);
  if (rc < 0 || k->held_lost) {
    try_end(k, 0, &mark);
    return rc < 0 ? rc : 0;
  }
  copy(k, on, at);
  for (q = 0; q < k->dim; q++) at[q] = on[q] - top[q];
  if (!(dot(k, at, r) > 0)) { /* no way on up there */
    try_end(k, 0, &mark);
    return 0;
  }
  rc = probe_down(k, on, rise, down);
  if (rc <= 0 || !is_floor(k, k->best_n)) {
    try_end(k, 0, &mark);
    return rc < 0 ? rc : 0;
  }
  add_pose(k, down);
  try_end(k, 1, &mark);
  copy(k, pos, down);
  return 1;
}

/* What the item keeps of its ground's motion m on the move that leaves
** it, by the leave option. */
static void kept_motion(const kit *k, int leave, const double *m,
                        double *out) {
  double a = dot(k, m, k->up);
  int q;
  out[0] = out[1] = out[2] = 0;
  if (leave == OBB_LEAVE_ALL)
    for (q = 0; q < k->dim; q++) out[q] = m[q];
  else if (leave == OBB_LEAVE_UP && a > 0)
    for (q = 0; q < k->dim; q++) out[q] = a * k->up[q];
}

/* Works out the events of the whole path (a world with sensors). */
static int path_events(kit *k, const void *box) {
  anybox boxes[KIT_PATH];
  double turns[KIT_PATH], axis[3] = {0, 0, 1};
  obb_events *ev;
  int quiet, i;
  if (obb_events_sensors(k->w, k->id, &ev, &quiet) == NULL) return 0;
  for (i = 0; i < k->npath; i++) {
    box_at(k, box, k->path[i], &boxes[i]);
    turns[i] = 0;
  }
  return obb_events_moved(k->w, k->id, boxes, sizeof(anybox), turns,
                          k->npath, axis);
}

int obb_character_move(obb_world *w, int id, const double *goal,
                       const obb_move_calls *calls, void *end) {
  static const obb_move_calls none = {NULL, NULL, NULL, NULL, NULL, 0};
  const void *box = obb_world_box(w, id);
  obb_character o;
  obb_character_state prev, st;
  kit k;
  double c0[3] = {0, 0, 0}, g[3] = {0, 0, 0}, pos[3] = {0, 0, 0};
  double v[3] = {0, 0, 0}, rest[4] = {0, 0, 0, 0}, was[3];
  int q, n, why, legs_rest;
  anybox b;
  if (calls == NULL) calls = &none;
  kit_init(&k, w, id, calls);
  obb_character_get(w, id, &o, &prev);
  copy(&k, c0, k.dim == 2 ? ((const obb2 *)box)->c : ((const obb3 *)box)->c);
  add_pose(&k, c0);
  if (!obb_all_finite(goal, (size_t)k.dim)) n = -3;
  else {
    for (q = 0; q < k.dim; q++) v[q] = goal[q] - c0[q];
    if (o.stop_on_slope) stop_on_slope(&k, &prev, c0, goal, g);
    else copy(&k, g, goal);
    n = main_parts(&k, o.block_on_wall, c0, g, pos);
  }
  if (n < 0) {
    box_at(&k, box, c0, (anybox *)end);
    return n;
  }
  why = obb_world_move_end(w, rest);
  legs_rest = why == OBB_END_LEGS;
  if (!legs_rest && !same_point(&k, pos, g) && k.blocker >= 0) {
    int blocker = k.blocker;
    double bn[3] = {0, 0, 0};
    int wall = !is_floor(&k, k.blocker_n) && !is_ceiling(&k, k.blocker_n);
    copy(&k, bn, k.blocker_n);
    n = 0;
    if (o.corner > 0) n = corner_pass(&k, o.corner, box, g, pos);
    if (n == 0 && o.step > 0 && wall && (prev.on_floor || k.floor_met))
      n = step_up(&k, o.step, box, blocker, bn, g, pos);
    if (n < 0) {
      box_at(&k, box, c0, (anybox *)end);
      return n;
    }
  }
  n = floor_at(&k, box, pos, k.floor_other, prev.ground.other, &st.ground);
  if (n >= 0 && o.snap > 0 && prev.on_floor && dot(&k, v, k.up) <= 0 &&
      !(st.ground.other >= 0 && st.ground.floor)) {
    /* a little further than snap: a floor exactly snap below stops it */
    double at[3] = {0, 0, 0}, over = 0x1p-16 * tiny_of(&k, box, pos);
    n = probe_down(&k, pos, o.snap + over, at);
    if (n > 0 && is_floor(&k, k.best_n)) {
      copy(&k, pos, at);
      add_pose(&k, pos);
      n = floor_at(&k, box, pos, k.best, -1, &st.ground);
    }
  }
  if (n < 0) {
    box_at(&k, box, c0, (anybox *)end);
    return n;
  }
  if (!same_point(&k, k.path[k.npath - 1], pos)) { /* the path ends there */
    if (k.npath == KIT_PATH) k.npath--;
    add_pose(&k, pos);
  }
  box_at(&k, box, pos, &b);
  memcpy(end, &b, k.dim == 2 ? sizeof(obb2) : sizeof(obb3));
  if (legs_rest) {
    obb_world_set_move_end(w, OBB_END_LEGS, rest);
  } else {
    double none4[4] = {0, 0, 0, 0};
    obb_world_set_move_end(w, same_point(&k, pos, goal) ? OBB_END_GOAL
                                                        : OBB_END_BLOCKED,
                           none4);
  }
  if (path_events(&k, box) != 0) return -1;
  st.on_floor = st.ground.other >= 0 && st.ground.floor;
  st.on_wall = k.wall_met;
  st.on_ceiling = k.ceiling_met;
  was[0] = was[1] = was[2] = 0;
  if (prev.ground.other >= 0 && obb_world_box(w, prev.ground.other) != NULL)
    obb_character_motion(w, prev.ground.other, c0, was);
  if (st.on_floor)
    memcpy(st.platform, st.ground.motion, sizeof st.platform);
  else if (prev.on_floor)
    kept_motion(&k, o.leave, was, st.platform);
  else
    st.platform[0] = st.platform[1] = st.platform[2] = 0;
  obb_character_pending(w, id, &b, &st); /* the commit's */
  if (calls->commit) obb_world_update(w, id, end);
  return k.nreported;
}
