/*
** obb_character_store.c: the world's characters (include/obb_world.h,
** "the character kit"): each one's options and the state its last
** committed move left it, kept by id; and the last move of each solid
** (obb_world_move_solid), for the motion of what stands on it. Their
** moves are obb_character.c's.
*/
#include <string.h>

#include "obb_world.h"
#include "obb_world_impl.h"
#include "obb_events_impl.h"
#include "obb_math.h"
#include "obb_character_impl.h"

typedef union anybox {
  obb2 b2;
  obb3 b3;
} anybox;

/* A character: its options and the state of its last move. */
typedef struct centry {
  int id;
  obb_character o;
  obb_character_state st;
} centry;

/* A solid's last move (obb_world_move_solid): its box before and after. */
typedef struct smotion {
  int id;
  anybox b0, b1;
} smotion;

struct obb_chars {
  int *index;   /* by id: 1 + its character in e, 0: none */
  size_t nindex;
  centry *e;
  int n, cap;
  smotion *s;   /* solids are few: a list */
  int ns, scap;
  /* the state of the last character's move, until its commit: the item,
  ** where it ends, the world's changes when it ended (-1: none) */
  int pending;
  anybox pending_box;
  double pending_changes;
  obb_character_state pending_state;
};

/* ---- the world's characters --------------------------------------------- */

static void *realloc_of(obb_world *w, void *p, size_t osize, size_t nsize) {
  void *ud;
  obb_alloc alloc = obb_world_allocator(w, &ud);
  return alloc(ud, p, osize, nsize);
}

static struct obb_chars *chars_of(obb_world *w, int make) {
  struct obb_chars **slot = obb_world_chars_slot(w);
  if (*slot == NULL && make) {
    *slot = (struct obb_chars *)realloc_of(w, NULL, 0, sizeof **slot);
    if (*slot != NULL) {
      memset(*slot, 0, sizeof **slot);
      (*slot)->pending = -1;
    }
  }
  return *slot;
}

static centry *entry_of(obb_world *w, int id) {
  struct obb_chars *c = chars_of(w, 0);
  if (c == NULL || id < 0 || (size_t)id >= c->nindex || c->index[id] == 0)
    return NULL;
  return &c->e[c->index[id] - 1];
}

/* Grows *p (of *cap elements of size bytes) to hold need: 0 when memory
** runs out (nothing changed). */
static int grow(obb_world *w, void **p, int *cap, int need, size_t size) {
  int n = *cap < 8 ? 8 : *cap;
  void *q;
  if (need <= *cap) return 1;
  while (n < need) n *= 2;
  q = realloc_of(w, *p, (size_t)*cap * size, (size_t)n * size);
  if (q == NULL) return 0;
  *p = q;
  *cap = n;
  return 1;
}

static int valid_options(const obb_character *o) {
  return obb_finite(o->snap) && o->snap >= 0 && obb_finite(o->step) &&
         o->step >= 0 && obb_finite(o->corner) && o->corner >= 0 &&
         (o->stop_on_slope == 0 || o->stop_on_slope == 1) &&
         (o->block_on_wall == 0 || o->block_on_wall == 1) &&
         o->leave >= OBB_LEAVE_ALL && o->leave <= OBB_LEAVE_NONE;
}

static void drop_character(struct obb_chars *c, int id) {
  int k = c->index[id] - 1;
  c->index[id] = 0;
  if (k != --c->n) { /* the last takes its place */
    c->e[k] = c->e[c->n];
    c->index[c->e[k].id] = k + 1;
  }
}

int obb_world_set_character(obb_world *w, int id, const obb_character *o) {
  struct obb_chars *c;
  centry *e;
  if (obb_world_box(w, id) == NULL) return -1;
  if (o == NULL) {
    c = chars_of(w, 0);
    if (c != NULL && entry_of(w, id) != NULL) drop_character(c, id);
    return 0;
  }
  if (!valid_options(o)) return -1;
  e = entry_of(w, id);
  if (e == NULL) {
    size_t need = (size_t)id + 1, n;
    c = chars_of(w, 1);
    if (c == NULL || !grow(w, (void **)&c->e, &c->cap, c->n + 1, sizeof(centry)))
      return -1;
    if (need > c->nindex) {
      int *p;
      n = c->nindex < 64 ? 64 : c->nindex;
      while (n < need) n *= 2;
      p = (int *)realloc_of(w, c->index, c->nindex * sizeof(int),
                            n * sizeof(int));
      if (p == NULL) return -1;
      memset(p + c->nindex, 0, (n - c->nindex) * sizeof(int));
      c->index = p;
      c->nindex = n;
    }
    e = &c->e[c->n++];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->st.ground.other = -1;
    c->index[id] = c->n;
  }
  e->o = *o;
  return 0;
}

int obb_world_character(const obb_world *w, int id, obb_character *o) {
  const centry *e = entry_of((obb_world *)w, id);
  if (e != NULL && o != NULL) *o = e->o;
  return e != NULL;
}

int obb_world_character_state(const obb_world *w, int id,
                              obb_character_state *s) {
  const centry *e = entry_of((obb_world *)w, id);
  if (e == NULL) {
    memset(s, 0, sizeof *s);
    s->ground.other = -1;
    return 0;
  }
  *s = e->st;
  return 1;
}

void obb_character_updated(obb_world *w, int id, const void *box) {
  struct obb_chars *c = chars_of(w, 0);
  centry *e;
  int match;
  if (c->pending < 0) return;
  match = c->pending == id &&
          c->pending_changes == obb_world_changes(w) &&
          memcmp(box, &c->pending_box,
                 obb_world_dim(w) == 2 ? sizeof(obb2) : sizeof(obb3)) == 0;
  c->pending = -1;
  if (match && (e = entry_of(w, id)) != NULL) e->st = c->pending_state;
}

void obb_character_removed(obb_world *w, int id) {
  struct obb_chars *c = chars_of(w, 0);
  int i;
  if (c == NULL) return;
  if (entry_of(w, id) != NULL) drop_character(c, id);
  for (i = 0; i < c->ns; i++)
    if (c->s[i].id == id) {
      c->s[i] = c->s[--c->ns];
      break;
    }
}

void obb_character_free(obb_world *w) {
  struct obb_chars *c = chars_of(w, 0);
  if (c == NULL) return;
  if (c->index != NULL) realloc_of(w, c->index, c->nindex * sizeof(int), 0);
  if (c->e != NULL) realloc_of(w, c->e, (size_t)c->cap * sizeof(centry), 0);
  if (c->s != NULL) realloc_of(w, c->s, (size_t)c->scap * sizeof(smotion), 0);
  realloc_of(w, c, sizeof *c, 0);
  *obb_world_chars_slot(w) = NULL;
}

size_t obb_character_memory(const obb_world *w) {
  const struct obb_chars *c = *obb_world_chars_slot((obb_world *)w);
  if (c == NULL) return 0;
  return sizeof *c + c->nindex * sizeof(int) +
         (size_t)c->cap * sizeof(centry) + (size_t)c->scap * sizeof(smotion);
}

/* ---- the ground's motion ------------------------------------------------ */

void obb_character_solid_moved(obb_world *w, int id, const void *b0,
                               const void *b1) {
  struct obb_chars *c = chars_of(w, 1);
  size_t size = obb_world_dim(w) == 2 ? sizeof(obb2) : sizeof(obb3);
  smotion *m = NULL;
  int i;
  if (c == NULL) return; /* memory: its ground motion reads as none */
  for (i = 0; i < c->ns && m == NULL; i++)
    if (c->s[i].id == id) m = &c->s[i];
  if (m == NULL) {
    if (!grow(w, (void **)&c->s, &c->scap, c->ns + 1, sizeof(smotion)))
      return;
    m = &c->s[c->ns++];
    m->id = id;
  }
  memcpy(&m->b0, b0, size);
  memcpy(&m->b1, b1, size);
}

/* The displacement solid other's last move gave the point that it left at
** p (dim numbers): p less where that point was, c0 + R0 R1^T (p - c1), R
** the boxes' axes. Zeros for an other never moved as a solid. */
void obb_character_motion(obb_world *w, int other, const double *p,
                          double out[3]) {
  struct obb_chars *c = chars_of(w, 0);
  int i, j, q, dim = obb_world_dim(w);
  out[0] = out[1] = out[2] = 0;
  if (c == NULL) return;
  for (i = 0; i < c->ns; i++) {
    const smotion *m = &c->s[i];
    double was[3], d[3];
    if (m->id != other) continue;
    if (dim == 2) {
      const obb2 *a = &m->b0.b2, *b = &m->b1.b2;
      double a1[2], b1[2], k0, k1;
      a1[0] = -a->u[1];
      a1[1] = a->u[0];
      b1[0] = -b->u[1];
      b1[1] = b->u[0];
      d[0] = p[0] - b->c[0];
      d[1] = p[1] - b->c[1];
      k0 = b->u[0] * d[0] + b->u[1] * d[1];
      k1 = b1[0] * d[0] + b1[1] * d[1];
      for (q = 0; q < 2; q++) {
        was[q] = a->c[q] + (a->u[q] * k0 + a1[q] * k1);
        out[q] = p[q] - was[q];
      }
    } else {
      const obb3 *a = &m->b0.b3, *b = &m->b1.b3;
      for (q = 0; q < 3; q++) d[q] = p[q] - b->c[q];
      for (q = 0; q < 3; q++) was[q] = a->c[q];
      for (j = 0; j < 3; j++) {
        double k = obb_dot3(b->u[j], d);
        for (q = 0; q < 3; q++) was[q] += a->u[j][q] * k;
      }
      for (q = 0; q < 3; q++) out[q] = p[q] - was[q];
    }
    return;
  }
}

/* ---- for the kit's moves (obb_character_impl.h) ------------------------- */

int obb_character_moves(obb_world *w, int id) {
  double up[3], slope;
  return *obb_world_chars_slot(w) != NULL && entry_of(w, id) != NULL &&
         obb_world_up(w, up, &slope);
}

int obb_character_get(obb_world *w, int id, obb_character *o,
                      obb_character_state *st) {
  const centry *e = entry_of(w, id);
  if (e == NULL) return 0;
  *o = e->o;
  *st = e->st;
  return 1;
}

void obb_character_pending(obb_world *w, int id, const void *box,
                           const obb_character_state *st) {
  struct obb_chars *c = chars_of(w, 0);
  if (c == NULL) return; /* (a character's world has them) */
  c->pending = id;
  memcpy(&c->pending_box, box,
         obb_world_dim(w) == 2 ? sizeof(obb2) : sizeof(obb3));
  c->pending_changes = obb_world_changes(w);
  c->pending_state = *st;
}
