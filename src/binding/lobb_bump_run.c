/*
** lobb_bump_run.c: obb.bump's rectangles beside a world's boxes, and runs
** of bump's loop (src/core/obb_bump.c) with the filter's answers guessed
** (lobb_bump.h says how they serve obb.bump).
*/
#include <string.h>

#include "lobb_bump.h"
#include "obb_math.h"

/* Integers larger than this leave the loop to Lua (obb_bump.h). */
#define MAX_INT 67108864.0 /* 2^26 */

#define HAS_RECT 0x80 /* in lbump.tag: the rectangle is set */
#define GUESS 0x07    /* in lbump.tag: the last answer + 1 (0: none) */

/* ---- the store --------------------------------------------------------- */

static void *resize(lworld *lw, void *p, size_t *cap, size_t want,
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

static lbump *bump_of(lworld *lw) {
  if (lw->bump == NULL) {
    lw->bump = (lbump *)lw->alloc(lw->ud, NULL, 0, sizeof(lbump));
    if (lw->bump != NULL) memset(lw->bump, 0, sizeof(lbump));
  }
  return lw->bump;
}

/* Room for id in the store: 0 when memory runs out. */
static int reach(lworld *lw, lbump *b, int id) {
  size_t want = (size_t)id + 1, n = b->n;
  obb_bump_rect *r;
  unsigned char *t;
  if (want <= n) return 1;
  r = (obb_bump_rect *)resize(lw, b->rects, &b->rect_cap, want, sizeof *r);
  if (r == NULL) return 0;
  b->rects = r;
  t = (unsigned char *)resize(lw, b->tag, &b->n, want, 1);
  if (t == NULL) return 0;
  memset(t + n, 0, b->n - n);
  b->tag = t;
  return 1;
}

void lobb_bump_forget(lworld *lw, int id) {
  lbump *b = lw->bump;
  if (b != NULL && id >= 0 && (size_t)id < b->n) b->tag[id] &= GUESS;
}

void lobb_bump_free(lworld *lw) {
  lbump *b = lw->bump;
  if (b == NULL) return;
  if (b->rects != NULL)
    lw->alloc(lw->ud, b->rects, b->rect_cap * sizeof(obb_bump_rect), 0);
  if (b->tag != NULL) lw->alloc(lw->ud, b->tag, b->n, 0);
  if (b->asks != NULL) lw->alloc(lw->ud, b->asks, b->ask_cap * sizeof(bask), 0);
  if (b->cols != NULL) lw->alloc(lw->ud, b->cols, b->col_cap * sizeof(bcol), 0);
  if (b->fixed != NULL)
    lw->alloc(lw->ud, b->fixed, b->fixed_cap * sizeof(int), 0);
  lw->alloc(lw->ud, b, sizeof *b, 0);
  lw->bump = NULL;
}

size_t lobb_bump_memory(const lworld *lw) {
  const lbump *b = lw->bump;
  if (b == NULL) return 0;
  return sizeof *b + b->rect_cap * sizeof(obb_bump_rect) + b->n +
         b->ask_cap * sizeof(bask) + b->col_cap * sizeof(bcol) +
         b->fixed_cap * sizeof(int);
}

int lobb_bump_good(const obb_bump_rect *r) {
  const obb_bump_num *v = &r->x;
  int i;
  for (i = 0; i < 4; i++)
    if (!obb_finite(v[i].v) || (v[i].isint && !(v[i].v <= MAX_INT &&
                                                 v[i].v >= -MAX_INT)))
      return 0;
  return r->w.v > 0 && r->h.v > 0;
}

int lobb_bump_put(lworld *lw, int id, const obb_bump_rect *r) {
  lbump *b = bump_of(lw);
  if (b == NULL || !reach(lw, b, id)) {
    lobb_bump_forget(lw, id);
    return 0;
  }
  b->rects[id] = *r;
  b->tag[id] |= HAS_RECT;
  return 1;
}

int lobb_bump_set(lworld *lw, int id, const obb_bump_rect *r) {
  if (!lobb_bump_good(r)) {
    lobb_bump_forget(lw, id);
    return 0;
  }
  return lobb_bump_put(lw, id, r);
}

/* The box obb.bump gives a rectangle: center x + w / 2, half extents
** w / 2 (its arithmetic), rotation kept (bump's rules: none); 0 for a
** center that overflows (w:update refuses it). */
static int box_of(const obb_bump_rect *r, const obb2 *old, obb2 *box) {
  *box = *old;
  box->c[0] = r->x.v + r->w.v / 2;
  box->c[1] = r->y.v + r->h.v / 2;
  box->e[0] = r->w.v / 2;
  box->e[1] = r->h.v / 2;
  return obb_finite(box->c[0]) && obb_finite(box->c[1]);
}

int lobb_bump_update(lworld *lw, int id, const obb_bump_rect *r) {
  obb2 box;
  if (!lobb_bump_good(r) ||
      !box_of(r, (const obb2 *)obb_world_box(lw->w, id), &box))
    return 0;
  obb_world_update(lw->w, id, &box);
  lobb_bump_put(lw, id, r);
  return 1;
}

/* ---- a run ------------------------------------------------------------- */


static const obb_bump_rect *on_rect(void *ctx, int id) {
  const lbump *b = ((brun *)ctx)->b;
  return (size_t)id < b->n && (size_t)id < b->rect_cap &&
         (b->tag[id] & HAS_RECT) ? &b->rects[id] : NULL;
}

static int guessed(const lbump *b, int other) {
  int g = (size_t)other < b->n ? b->tag[other] & GUESS : 0;
  return g == 0 ? OBB_BUMP_SLIDE : g - 1;
}

static void remember(lbump *b, int other, int kind) {
  if ((size_t)other < b->n)
    b->tag[other] = (unsigned char)((b->tag[other] & HAS_RECT) | (kind + 1));
}

static int on_ask(void *ctx, const obb_bump_step *p, int other,
                  const obb_bump_hit *hit) {
  brun *r = (brun *)ctx;
  lbump *b = r->b;
  size_t i = r->nasks;
  bask *a;
  if (i >= LOBB_BUMP_MAX_ASKS) return -1;
  a = (bask *)resize(r->lw, b->asks, &b->ask_cap, i + 1, sizeof *a);
  if (a == NULL) {
    r->oom = 1;
    return -1;
  }
  b->asks = a;
  a += i;
  if (r->all >= 0) a->kind = r->all;
  else if ((int)i < r->nfixed) {
    if (b->fixed[2 * i] != other) {
      r->wrong = 1;
      return -1;
    }
    a->kind = b->fixed[2 * i + 1];
    remember(b, other, a->kind);
  } else a->kind = guessed(b, other);
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

static int on_col(void *ctx, const obb_bump_step *p, int ask, int kind,
                  const obb_bump_num *goal) {
  brun *r = (brun *)ctx;
  lbump *b = r->b;
  bcol *c;
  (void)kind;
  (void)p;
  c = (bcol *)resize(r->lw, b->cols, &b->col_cap, r->ncols + 1, sizeof *c);
  if (c == NULL) {
    r->oom = 1;
    return -1;
  }
  b->cols = c;
  c += r->ncols++;
  c->ask = ask;
  c->has_goal = goal != NULL;
  if (goal != NULL) {
    c->g[0] = goal[0];
    c->g[1] = goal[1];
  }
  return 0;
}

/* The fixed answers' room (nfixed pairs): 0 when memory runs out. */
static int fixed_room(lworld *lw, lbump *b, int nfixed) {
  int *f = (int *)resize(lw, b->fixed, &b->fixed_cap, 2 * (size_t)nfixed + 2,
                         sizeof(int));
  if (f == NULL) return 0;
  b->fixed = f;
  return 1;
}

int lobb_bump_run(lworld *lw, int id, const obb_bump_rect *r,
                  obb_bump_num goal[2], int all, int nfixed, brun *out) {
  obb_bump_io io;
  int rc;
  memset(out, 0, sizeof *out);
  out->lw = lw;
  out->b = lw->bump;
  out->all = all;
  out->nfixed = nfixed;
  io.rect = on_rect;
  io.ask = on_ask;
  io.col = on_col;
  io.ctx = out;
  rc = obb_bump_check(lw->w, &io, id, r, goal);
  if (out->wrong) return -3;
  return rc == -2 ? -1 : rc;
}

int lobb_bump_commit(lworld *lw, int id, const obb_bump_rect *r,
                     const obb_bump_num goal[2], int rc, const brun *res) {
  obb_bump_rect to = *r;
  if (rc != OBB_BUMP_DONE || (res->all < 0 && res->nasks > 0) ||
      (goal[0].v == r->x.v && goal[1].v == r->y.v))
    return 0;
  to.x = goal[0];
  to.y = goal[1];
  return lobb_bump_update(lw, id, &to);
}

int lobb_bump_id(double v) {
  return v >= 0 && v < (double)(1 << 30) && v == (int)v ? (int)v : -1;
}

int lobb_bump_runnable(lworld *lw, int all, int nfixed) {
  return lw->bump != NULL && all >= -1 && all <= OBB_BUMP_OTHER &&
         nfixed >= 0 && nfixed <= LOBB_BUMP_MAX_ASKS &&
         fixed_room(lw, lw->bump, nfixed);
}
