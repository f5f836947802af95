/*
** lobb_bump_store.c: the rectangles obb.bump keeps beside a world's
** boxes, the filter's last answers, and the room of the loop's records
** (lobb_bump.h says how they serve obb.bump).
*/
#include <string.h>

#include "lobb_bump.h"
#include "obb_math.h"

void *lobb_bump_grow(lworld *lw, void *p, size_t *cap, size_t want,
                     size_t size) {
  size_t n = *cap < 16 ? 16 : *cap;
  void *q;
  if (want <= *cap) return p;
  while (n < want) n *= 2;
  if (n > ((size_t)-1) / size) return NULL;
  q = lw->alloc(lw->ud, p, *cap * size, n * size);
  if (q != NULL) *cap = n;
  return q;
}

static lbump *store_of(lworld *lw) {
  if (lw->bump == NULL) {
    lw->bump = (lbump *)lw->alloc(lw->ud, NULL, 0, sizeof(lbump));
    if (lw->bump != NULL) memset(lw->bump, 0, sizeof(lbump));
  }
  return lw->bump;
}

/* Room for id in the store: 0 when memory runs out. */
static int room_for(lworld *lw, lbump *b, int id) {
  size_t want = (size_t)id + 1, n = b->n;
  lobb_bump_rect *r;
  unsigned char *t;
  if (want <= n) return 1;
  r = (lobb_bump_rect *)lobb_bump_grow(lw, b->rects, &b->rect_cap, want,
                                       sizeof *r);
  if (r == NULL) return 0;
  b->rects = r;
  t = (unsigned char *)lobb_bump_grow(lw, b->tag, &b->n, want, 1);
  if (t == NULL) return 0;
  memset(t + n, 0, b->n - n);
  b->tag = t;
  return 1;
}

void lobb_bump_forget(lworld *lw, int id) {
  lbump *b = lw->bump;
  if (b != NULL && id >= 0 && (size_t)id < b->n)
    b->tag[id] &= LOBB_BUMP_GUESS;
}

/* Frees p, cap elements of size bytes, if any. */
static void free_room(lworld *lw, void *p, size_t cap, size_t size) {
  if (p != NULL) lw->alloc(lw->ud, p, cap * size, 0);
}

void lobb_bump_free(lworld *lw) {
  lbump *b = lw->bump;
  if (b == NULL) return;
  free_room(lw, b->rects, b->rect_cap, sizeof(lobb_bump_rect));
  free_room(lw, b->tag, b->n, 1);
  free_room(lw, b->asks, b->ask_cap, sizeof(lobb_bump_ask));
  free_room(lw, b->cols, b->col_cap, sizeof(lobb_bump_col));
  free_room(lw, b->fixed, b->fixed_cap, sizeof(int));
  free_room(lw, b->found, b->found_cap, sizeof(int));
  free_room(lw, b->seen, b->seen_cap, sizeof(int));
  lw->alloc(lw->ud, b, sizeof *b, 0);
  lw->bump = NULL;
}

size_t lobb_bump_memory(const lworld *lw) {
  const lbump *b = lw->bump;
  if (b == NULL) return 0;
  return sizeof *b + b->rect_cap * sizeof(lobb_bump_rect) + b->n +
         b->ask_cap * sizeof(lobb_bump_ask) +
         b->col_cap * sizeof(lobb_bump_col) +
         (b->fixed_cap + b->found_cap + b->seen_cap) * sizeof(int);
}

int lobb_bump_good(const lobb_bump_rect *r) {
  const lobb_bump_num *v = &r->x;
  int i;
  for (i = 0; i < 4; i++)
    if (!obb_finite(v[i].v) ||
        (v[i].isint && !(v[i].v <= LOBB_BUMP_MAX_INT &&
                         v[i].v >= -LOBB_BUMP_MAX_INT)))
      return 0;
  return r->w.v > 0 && r->h.v > 0;
}

/* Sets item id's rectangle r (lobb_bump_good); 0 (it stays unset) when
** memory runs out. */
static int put(lworld *lw, int id, const lobb_bump_rect *r) {
  lbump *b = store_of(lw);
  if (b == NULL || !room_for(lw, b, id)) {
    lobb_bump_forget(lw, id);
    return 0;
  }
  b->rects[id] = *r;
  b->tag[id] |= LOBB_BUMP_HAS_RECT;
  return 1;
}

int lobb_bump_set(lworld *lw, int id, const lobb_bump_rect *r) {
  if (!lobb_bump_good(r)) {
    lobb_bump_forget(lw, id);
    return 0;
  }
  return put(lw, id, r);
}

/* The box obb.bump gives a rectangle: center x + w / 2, half extents
** w / 2 (its arithmetic), rotation kept (bump's rules: none); 0 for a
** center that overflows (w:update refuses it). */
static int box_of(const lobb_bump_rect *r, const obb2 *old, obb2 *box) {
  *box = *old;
  box->c[0] = r->x.v + r->w.v / 2;
  box->c[1] = r->y.v + r->h.v / 2;
  box->e[0] = r->w.v / 2;
  box->e[1] = r->h.v / 2;
  return obb_finite(box->c[0]) && obb_finite(box->c[1]);
}

int lobb_bump_update(lworld *lw, int id, const lobb_bump_rect *r) {
  obb2 box;
  if (!lobb_bump_good(r) ||
      !box_of(r, (const obb2 *)obb_world_box(lw->w, id), &box))
    return 0;
  lobb_world_setbox(lw, id, &box);
  put(lw, id, r);
  return 1;
}

int lobb_bump_id(double v) {
  return v >= 0 && v < (double)(1 << 30) && v == (int)v ? (int)v : -1;
}

int lobb_bump_fix(lbump *b, int i, double other, double kind) {
  if (!(kind >= OBB_IGNORE && kind <= OBB_BUMP_OTHER)) return 0;
  b->fixed[2 * i] = lobb_bump_id(other);
  b->fixed[2 * i + 1] = (int)kind;
  return 1;
}

int lobb_bump_runnable(lworld *lw, int all, int nfixed) {
  lbump *b = lw->bump;
  int *f;
  if (b == NULL || !(all >= -1 && all <= OBB_BUMP_OTHER) || nfixed < 0 ||
      nfixed > LOBB_BUMP_MAX_ASKS)
    return 0;
  f = (int *)lobb_bump_room(lw, b->fixed, &b->fixed_cap,
                            2 * (size_t)nfixed + 2, sizeof(int));
  if (f == NULL) return 0;
  b->fixed = f;
  return 1;
}
