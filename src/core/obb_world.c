/*
** obb_world.c: many boxes behind a broad phase, queried exactly.
**
** Each item has an id (a small integer, reused after removal), its box, its
** tight bounding box and a leaf in the dynamic tree (obb_tree.c) holding
** the fat bounding box. A query walks the tree, rejects candidates whose
** tight bounding box misses, and decides the rest with the exact test on
** the boxes themselves, so a world answers exactly what testing every item
** one by one would. A world with cells files its small items in a
** uniform hash grid instead of the tree (obb_cells.c), and every query
** visits both, with the same exact tests behind them: cells of a size the
** caller set (obb_world_set_cell), or, by default, of a size the world
** chooses from its items' sizes and chooses again when they change
** (choose_cells, below). All pairs at once come from a hierarchical grid
** built afresh from the tight bounding boxes (obb_grid.c) instead: when
** every item moves each frame, that is linear and needs no tree upkeep.
*/
#include <limits.h>
#include <math.h>
#include <string.h>

#include "obb_world.h"
#include "obb_world_impl.h"
#include "obb_cells.h"
#include "obb_events_impl.h"
#include "obb_grid.h"
#include "obb_math.h"
#include "obb_tree.h"

typedef struct world_item {
  double aabb[6]; /* tight, padded against rounding (see tight_aabb); min >
                  ** max while the id is free, so the grid skips it */
  int leaf;       /* OBB_TREE_NULL while the id is free, IN_CELLS or
                  ** LOOSE for an item of the cells */
  int next_free;
  int stale;      /* queued: in the stale array, until the next refresh */
} world_item;

struct obb_world {
  int dim;
  size_t box_size; /* sizeof(obb2) or sizeof(obb3) */
  double margin;
  obb_tree tree;
  world_item *items;
  unsigned char *boxes;
  int cap, count, free_id;
  int box_cap; /* boxes can run ahead of items after a failed growth */
  int moves;   /* leaves moved since the tree was last compacted */
  double changes; /* obb_world_changes */
  int ties;       /* obb_world_set_ties: OBB_TIES_EACH or OBB_TIES_FIRST */
  obb_grid grid;
  obb_cells cells; /* the broad phase of small items, when cells.size > 0 */
  int *stale;  /* ids whose leaf must move before the next tree query */
  int nstale, stale_cap;
  void *scratch[OBB_WORLD_SCRATCH]; /* the movers' buffers (obb_move.c) */
  size_t scratch_cap[OBB_WORLD_SCRATCH];
  int end_why;         /* how the last move ended (obb_world_move_end) */
  double end_rest[4];
  int auto_cell;       /* the world chooses its cells (choose_cells) */
  double next_choice;  /* changes at which it next looks (HUGE_VAL: never) */
  double choices;      /* the times it filed its items in cells it chose */
  unsigned char *classes; /* obb_world_set_class's, by id; ids from
                          ** nclasses on (every id when NULL) are of
                          ** class 0 */
  size_t nclasses;
  struct obb_chars *chars; /* obb_character_store.c's: characters,
                          ** solids' last moves (NULL: none yet) */
  int has_up;          /* obb_world_set_up: the world's up, its slope and */
  double up[3], slope, floor_cos; /* the slope's cosine (a floor's n . up) */
  obb_events *ev;      /* sensors and events (obb_events.c); NULL: none */
};

#define BOX(w, id) ((void *)((w)->boxes + (size_t)(id) * (w)->box_size))

/* The leaf of an item filed in the cells, or on their loose list (one the
** tree could not take when an update moved it out of the cells). */
#define IN_CELLS (-2)
#define LOOSE (-3)

/* A world that chooses its cells looks at its items' sizes once it holds
** AUTO_ITEMS (choose_cells). */
#define AUTO_ITEMS 64

obb_world *obb_world_new(int dim, double margin, obb_alloc alloc, void *ud) {
  obb_world *w;
  obb_tree tree;
  if (dim != 2 && dim != 3) return NULL;
  if (!(margin >= 0 && margin <= 1e6)) margin = OBB_WORLD_MARGIN;
  obb_tree_init(&tree, alloc, ud); /* resolves a NULL alloc */
  w = (obb_world *)tree.alloc(tree.ud, NULL, 0, sizeof(obb_world));
  if (w == NULL) return NULL;
  w->dim = dim;
  w->box_size = dim == 2 ? sizeof(obb2) : sizeof(obb3);
  w->margin = margin;
  w->tree = tree;
  w->items = NULL;
  w->boxes = NULL;
  w->changes = 0;
  w->ties = OBB_TIES_EACH;
  w->end_why = OBB_END_GOAL;
  memset(w->end_rest, 0, sizeof w->end_rest);
  w->has_up = 0;
  memset(w->up, 0, sizeof w->up);
  w->slope = OBB_SLOPE_DEFAULT;
  w->floor_cos = 0;
  w->cap = w->count = w->box_cap = w->moves = 0;
  obb_grid_init(&w->grid, w->tree.alloc, w->tree.ud);
  obb_cells_init(&w->cells, dim, w->tree.alloc, w->tree.ud);
  w->stale = NULL;
  w->nstale = w->stale_cap = 0;
  w->free_id = -1;
  memset(w->scratch, 0, sizeof w->scratch);
  memset(w->scratch_cap, 0, sizeof w->scratch_cap);
  w->auto_cell = 1;
  w->next_choice = AUTO_ITEMS;
  w->choices = 0;
  w->classes = NULL;
  w->nclasses = 0;
  w->chars = NULL;
  w->ev = NULL;
  return w;
}

/* Frees every array and leaves w empty, as obb_world_new made it. */
static void release_arrays(obb_world *w) {
  obb_alloc alloc = w->tree.alloc;
  void *ud = w->tree.ud;
  int i;
  if (w->items != NULL)
    alloc(ud, w->items, (size_t)w->cap * sizeof(world_item), 0);
  if (w->boxes != NULL)
    alloc(ud, w->boxes, (size_t)w->box_cap * w->box_size, 0);
  if (w->stale != NULL)
    alloc(ud, w->stale, (size_t)w->stale_cap * sizeof(int), 0);
  for (i = 0; i < OBB_WORLD_SCRATCH; i++) {
    if (w->scratch[i] != NULL) alloc(ud, w->scratch[i], w->scratch_cap[i], 0);
    w->scratch[i] = NULL;
    w->scratch_cap[i] = 0;
  }
  if (w->classes != NULL) alloc(ud, w->classes, w->nclasses, 0);
  w->classes = NULL;
  w->nclasses = 0;
  obb_tree_free(&w->tree);
  obb_grid_free(&w->grid);
  obb_cells_free(&w->cells);
  if (w->auto_cell) { /* chosen anew for the items to come */
    w->cells.size = w->cells.inv = 0;
    w->next_choice = w->changes + AUTO_ITEMS;
  }
  obb_events_free(w);
  obb_character_free(w);
  w->items = NULL;
  w->boxes = NULL;
  w->stale = NULL;
  w->cap = w->count = w->box_cap = w->moves = 0;
  w->nstale = w->stale_cap = 0;
  w->free_id = -1;
}

void obb_world_free(obb_world *w) {
  if (w == NULL) return;
  release_arrays(w);
  w->tree.alloc(w->tree.ud, w, sizeof(obb_world), 0);
}

int obb_world_dim(const obb_world *w) { return w->dim; }
int obb_world_count(const obb_world *w) { return w->count; }
double obb_world_changes(const obb_world *w) { return w->changes; }

int obb_world_move_end(const obb_world *w, double rest[4]) {
  memcpy(rest, w->end_rest, sizeof w->end_rest);
  return w->end_why;
}

void obb_world_set_move_end(obb_world *w, int why, const double rest[4]) {
  w->end_why = why;
  memcpy(w->end_rest, rest, sizeof w->end_rest);
}

int obb_world_set_ties(obb_world *w, int ties) {
  if (ties != OBB_TIES_EACH && ties != OBB_TIES_FIRST) return -1;
  w->ties = ties;
  return 0;
}

int obb_world_ties(const obb_world *w) { return w->ties; }

int obb_world_set_up(obb_world *w, const double *up, double slope) {
  double u[3] = {0, 0, 0}, big = 0, len, s, c;
  int q;
  if (up == NULL) {
    w->has_up = 0;
    memset(w->up, 0, sizeof w->up);
    w->slope = OBB_SLOPE_DEFAULT;
    return 0;
  }
  if (!(slope >= 0 && slope < 1.57079632679489661923)) return -1;
  for (q = 0; q < w->dim; q++) {
    if (!obb_finite(up[q])) return -1;
    if (fabs(up[q]) > big) big = fabs(up[q]);
  }
  if (big == 0) return -1;
  for (q = 0; q < w->dim; q++) u[q] = up[q] / big; /* scaled: no overflow */
  len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (q = 0; q < w->dim; q++) w->up[q] = u[q] / len;
  w->up[2] = w->dim == 3 ? w->up[2] : 0;
  obb_sincos(slope, &s, &c); /* obb's own: the same bits everywhere */
  w->slope = slope;
  w->floor_cos = c;
  w->has_up = 1;
  return 0;
}

int obb_world_up(const obb_world *w, double up[3], double *slope) {
  memcpy(up, w->up, sizeof w->up);
  *slope = w->slope;
  return w->has_up;
}

int obb_world_is_floor(const obb_world *w, const double n[3]) {
  double d = n[0] * w->up[0] + n[1] * w->up[1] + n[2] * w->up[2];
  return w->has_up && d >= w->floor_cos - 0x1p-40;
}

/* Counts a change, modulo 2^52 (a world choosing its cells then looks at
** the next query). */
static void changed(obb_world *w) {
  if (w->changes < 0x1p52 - 1) {
    w->changes++;
  } else {
    w->changes = 0;
    if (w->auto_cell) w->next_choice = 0;
  }
}

static size_t scratch_memory(const obb_world *w) {
  size_t n = 0;
  int k;
  for (k = 0; k < OBB_WORLD_SCRATCH; k++) n += w->scratch_cap[k];
  return n;
}

size_t obb_world_memory(const obb_world *w) {
  return sizeof(obb_world) + (size_t)w->cap * sizeof(world_item) +
         (size_t)w->box_cap * w->box_size + obb_tree_memory(&w->tree) +
         obb_grid_memory(&w->grid) + obb_cells_memory(&w->cells) +
         (size_t)w->stale_cap * sizeof(int) + w->nclasses +
         scratch_memory(w) + obb_events_memory(w) + obb_character_memory(w);
}

static inline void *scratch(obb_world *w, int k, size_t size) {
  size_t cap = w->scratch_cap[k];
  void *p;
  if (size <= cap) return w->scratch[k];
  if (cap < 1024) cap = 1024;
  while (cap < size) {
    if (cap > ((size_t)-1) / 2) return NULL;
    cap *= 2;
  }
  p = w->tree.alloc(w->tree.ud, w->scratch[k], w->scratch_cap[k], cap);
  if (p == NULL) return NULL;
  w->scratch[k] = p;
  w->scratch_cap[k] = cap;
  return p;
}

void *obb_world_scratch(obb_world *w, int k, size_t size) {
  return scratch(w, k, size);
}

/* obb_world_box, inlined in this file (the exported one may be
** interposed, so calls to it are not). */
static inline const void *live_box(const obb_world *w, int id) {
  if (id < 0 || id >= w->cap || w->items[id].leaf == OBB_TREE_NULL)
    return NULL;
  return BOX(w, id);
}

const void *obb_world_box(const obb_world *w, int id) {
  return live_box(w, id);
}

void obb_world_view_move(obb_world *w, int id, const size_t size[3],
                         obb_world_view *v) {
  v->box = live_box(w, id);
  if (v->box == NULL) return;
  v->dim = w->dim;
  v->ties = w->ties;
  v->boxes = w->boxes;
  v->box_size = w->box_size;
  v->bounds = (const unsigned char *)w->items[0].aabb; /* id is live */
  v->stride = sizeof(world_item);
  v->scratch[0] = scratch(w, 0, size[0]);
  v->scratch[1] = scratch(w, 1, size[1]);
  v->scratch[2] = scratch(w, 2, size[2]);
}

/* ---- classes and responses ------------------------------------------- */

/* By the values of obb_world.h's responses. */
static const char *const response_names[] = {
    "ignore", "touch", "cross", "slide", "bounce", /* a mover's */
    "ride", "stand", "push", "oneway", /* a solid's (obb_solid.c) */
    "crush"}; /* a solid's record, no answer */

const char *obb_response_name(int response) {
  return response >= OBB_IGNORE && response <= OBB_CRUSH
             ? response_names[response] : NULL;
}

int obb_response_code(const char *name) {
  int r;
  if (name == NULL) return -1;
  for (r = OBB_IGNORE; r <= OBB_ONEWAY; r++)
    if (strcmp(name, response_names[r]) == 0) return r;
  return -1;
}

/* The array grows (doubling, at least 64 bytes) only for a class other
** than 0: a world whose items all keep class 0 holds none. */
int obb_world_set_class(obb_world *w, int id, int cls) {
  if (live_box(w, id) == NULL || cls < 0 || cls >= OBB_NCLASSES) return -1;
  if ((size_t)id >= w->nclasses) {
    size_t n = w->nclasses < 64 ? 64 : w->nclasses;
    unsigned char *p;
    if (cls == 0) return 0;
    while (n <= (size_t)id) n *= 2;
    p = (unsigned char *)w->tree.alloc(w->tree.ud, w->classes, w->nclasses, n);
    if (p == NULL) return -1;
    memset(p + w->nclasses, 0, n - w->nclasses);
    w->classes = p;
    w->nclasses = n;
  }
  w->classes[id] = (unsigned char)cls;
  return 0;
}

/* An id that is not live is of class 0 without asking: set_class refuses
** it, a remove resets its class, and an emptied world frees the array. */
int obb_world_class(const obb_world *w, int id) {
  return id >= 0 && (size_t)id < w->nclasses ? w->classes[id] : 0;
}

struct obb_chars **obb_world_chars_slot(obb_world *w) { return &w->chars; }

void obb_world_class_store(obb_world *w, unsigned char *const **classes,
                           const size_t **n) {
  *classes = &w->classes;
  *n = &w->nclasses;
}

/* The box's bounding box (obb_bounds.h). */
static void tight_aabb(const obb_world *w, const void *box, double out[6]) {
  if (w->dim == 2) obb2_bounds((const obb2 *)box, out);
  else obb3_bounds((const obb3 *)box, out);
}

/* The leaf's box: the tight box grown on every side by margin times its
** largest half side, so small moves stay inside it. */
static void fat_aabb(const obb_world *w, const double tight[6],
                     double out[6]) {
  double m = 0;
  int i;
  for (i = 0; i < w->dim; i++) {
    double h = (tight[i + 3] - tight[i]) * 0.5;
    if (h > m) m = h;
  }
  /* a box whose bounds overflowed has h = inf: inf * 0 would be NaN, and
  ** one NaN in the tree hides other items from every query */
  m = w->margin > 0 ? m * w->margin : 0;
  for (i = 0; i < 3; i++) {
    out[i] = i < w->dim ? tight[i] - m : tight[i];
    out[i + 3] = i < w->dim ? tight[i + 3] + m : tight[i + 3];
  }
}

static int contains_aabb(const double outer[6], const double inner[6]) {
  return outer[0] <= inner[0] && outer[1] <= inner[1] &&
         outer[2] <= inner[2] && inner[3] <= outer[3] &&
         inner[4] <= outer[4] && inner[5] <= outer[5];
}

static int grow(obb_world *w) {
  obb_alloc alloc = w->tree.alloc;
  void *ud = w->tree.ud, *p;
  int cap = w->cap == 0 ? 16 : w->cap * 2, i;
  if (w->cap > INT_MAX / 4) return 0;
  if ((size_t)cap > ((size_t)-1) / sizeof(obb3)) return 0;
  if (w->cells.size > 0 && !obb_cells_reserve(&w->cells, cap)) return 0;
  if (w->ev != NULL && !obb_events_reserve(w, cap)) return 0;
  if (w->box_cap < cap) {
    p = alloc(ud, w->boxes, (size_t)w->box_cap * w->box_size,
              (size_t)cap * w->box_size);
    if (p == NULL) return 0;
    w->boxes = (unsigned char *)p;
    w->box_cap = cap;
  }
  p = alloc(ud, w->items, (size_t)w->cap * sizeof(world_item),
            (size_t)cap * sizeof(world_item));
  if (p == NULL) return 0; /* boxes grew, harmlessly: a later try reuses it */
  w->items = (world_item *)p;
  /* link the new ids so that the lowest comes out first */
  for (i = cap - 1; i >= w->cap; i--) {
    w->items[i].leaf = OBB_TREE_NULL;
    w->items[i].aabb[0] = 1;
    w->items[i].aabb[3] = -1;
    w->items[i].stale = 0;
    w->items[i].next_free = w->free_id;
    w->free_id = i;
  }
  w->cap = cap;
  return 1;
}

int obb_world_reserve(obb_world *w) {
  if (w->free_id < 0 && !grow(w)) return -1;
  if (!obb_tree_reserve(&w->tree, 2)) return -1;
  return w->free_id;
}

int obb_world_set_cell(obb_world *w, double cell) {
  int chooses = cell == OBB_WORLD_CELL_AUTO;
  if (w->count != 0 || !(chooses || (cell >= 0 && cell < HUGE_VAL)))
    return -1;
  if (chooses) cell = 0; /* the tree's until the world has chosen */
  /* ids reserved (obb_world_reserve), none live: records for them */
  if (cell > 0 && w->cap > 0 && !obb_cells_reserve(&w->cells, w->cap)) {
    if (w->cells.size == 0) obb_cells_free(&w->cells); /* as it was */
    return -1;
  }
  if (cell == 0) obb_cells_free(&w->cells);
  w->cells.size = cell;
  w->cells.inv = cell > 0 ? 1 / cell : 0;
  w->auto_cell = chooses;
  w->next_choice = chooses ? w->changes + AUTO_ITEMS : HUGE_VAL;
  w->choices = 0;
  return 0;
}

double obb_world_cell(const obb_world *w, double *choices) {
  if (choices != NULL) *choices = w->choices;
  return w->cells.size;
}

/* Where a world with cells files item id: in a cell when its bounds allow
** (1), else nowhere yet (0: the tree's, or the loose list's). */
static int file_in_cells(obb_world *w, int id) {
  world_item *it = &w->items[id];
  int k[3], wide[3];
  if (w->cells.size <= 0 || !obb_cells_place(&w->cells, it->aabb, k, wide))
    return 0;
  if (it->leaf == IN_CELLS) {
    obb_cells_update(&w->cells, id, k, wide);
    return 1;
  }
  if (it->leaf == LOOSE) obb_cells_remove(&w->cells, id);
  else if (it->leaf != OBB_TREE_NULL) obb_tree_remove(&w->tree, it->leaf);
  obb_cells_insert(&w->cells, id, k, wide);
  it->leaf = IN_CELLS;
  return 1;
}

int obb_world_add(obb_world *w, const void *box) {
  double fat[6];
  world_item *it;
  int id, leaf;
  if (w->free_id < 0 && !grow(w)) return -1;
  id = w->free_id;
  it = &w->items[id];
  tight_aabb(w, box, it->aabb);
  if (file_in_cells(w, id)) {
    leaf = IN_CELLS;
  } else {
    fat_aabb(w, it->aabb, fat);
    leaf = obb_tree_insert(&w->tree, fat, id);
    if (leaf == OBB_TREE_NULL) {
      it->aabb[0] = 1; /* free again: the pairs' grid skips it */
      it->aabb[3] = -1;
      return -1;
    }
    w->moves++;
  }
  w->free_id = it->next_free;
  it->leaf = leaf; /* stale is left alone: the id may still be queued */
  memcpy(BOX(w, id), box, w->box_size);
  w->count++;
  changed(w);
  if (w->ev != NULL) obb_events_added(w, id);
  return id;
}

/* An item that left its leaf is likely to go on the same way: its new
** leaf also reaches ahead by four times the step it took (the step from
** the old leaf's center; at most four times the item's size, so a teleport does not
** make a huge leaf), as Box2D's broad phase predicts with displacement.
** An item moving steadily (a mover under gravity, a car) then leaves its
** leaf every few frames instead of every frame. */
static void move_leaf(obb_world *w, int id) {
  world_item *it = &w->items[id];
  const double *old = w->tree.nodes[it->leaf].box;
  double fat[6];
  int i;
  fat_aabb(w, it->aabb, fat);
  for (i = 0; i < w->dim; i++) {
    double size = it->aabb[i + 3] - it->aabb[i];
    double step = 0.5 * (it->aabb[i] + it->aabb[i + 3]) -
                  0.5 * (old[i] + old[i + 3]);
    step = 4 * step;
    if (step > 4 * size) step = 4 * size;
    if (step < -4 * size) step = -4 * size;
    if (step > 0) fat[i + 3] += step; /* NaN and inf: no reach */
    else if (step < 0) fat[i] += step;
  }
  obb_tree_move(&w->tree, it->leaf, fat);
  it->stale = 0;
  w->moves++;
}

/* In a world with cells: refiles item id after its bounds changed, in a
** cell when they allow, else in the tree (on the loose list when the tree
** has no room: an update cannot fail). Returns 0 for an item that was the
** tree's and stays so (its leaf is the tree's business). */
static int cells_update(obb_world *w, int id) {
  world_item *it = &w->items[id];
  double fat[6];
  int leaf;
  if (file_in_cells(w, id)) return 1;
  if (it->leaf >= 0) return 0;
  obb_cells_remove(&w->cells, id); /* from its cell or the loose list */
  fat_aabb(w, it->aabb, fat);
  leaf = obb_tree_insert(&w->tree, fat, id);
  if (leaf == OBB_TREE_NULL) {
    obb_cells_add_loose(&w->cells, id);
    it->leaf = LOOSE;
    return 1;
  }
  it->leaf = leaf; /* a stale mark left from before is harmless */
  w->moves++;
  return 1;
}

/* An update only records the box and queues the item (once): whether it
** left its leaf is asked when the tree is next used (pairs do not use it),
** so a frame that updates everything and asks for pairs does no tree work,
** and an update never reads the tree (a cache miss on a large world). */
void obb_world_update(obb_world *w, int id, const void *box) {
  world_item *it = &w->items[id];
  if (w->ev != NULL) obb_events_updated(w->ev, id, box, BOX(w, id));
  if (w->chars != NULL) obb_character_updated(w, id, box);
  if (w->dim == 2) *(obb2 *)BOX(w, id) = *(const obb2 *)box; /* inlined */
  else *(obb3 *)BOX(w, id) = *(const obb3 *)box;
  tight_aabb(w, box, it->aabb);
  changed(w);
  if (w->cells.size > 0 && cells_update(w, id)) return;
  if (it->stale) return;
  if (w->nstale == w->stale_cap) {
    int cap = w->stale_cap == 0 ? 64 : w->stale_cap * 2;
    int *p = cap > INT_MAX / 4 ? NULL
        : (int *)w->tree.alloc(w->tree.ud, w->stale,
                               (size_t)w->stale_cap * sizeof(int),
                               (size_t)cap * sizeof(int));
    if (p == NULL) { /* no room to defer: move it now (never allocates) */
      move_leaf(w, id);
      return;
    }
    w->stale = p;
    w->stale_cap = cap;
  }
  w->stale[w->nstale++] = id;
  it->stale = 1;
}

/* ---- the cells a world chooses ---------------------------------------- */

/* Files every live item anew in cells of side cell (a power of two, so
** that cell and 1 / cell are exact), or in the tree where those cells do
** not take it, as obb_world_add would have; 0 when memory runs out, and
** then nothing has changed. The new cells are made beside the old, and the
** tree's room for the items that leave the cells is reserved first (with
** the two nodes obb_world_reserve promises the next add), so that no step
** after can fail. */
static int refile(obb_world *w, double cell) {
  obb_cells g;
  int id, k[3], wide[3], ntree = 0;
  obb_cells_init(&g, w->dim, w->tree.alloc, w->tree.ud);
  g.size = cell;
  g.inv = 1 / cell;
  if (!obb_cells_reserve(&g, w->cap)) {
    obb_cells_free(&g);
    return 0;
  }
  for (id = 0; id < w->cap; id++) {
    int leaf = w->items[id].leaf;
    if ((leaf == IN_CELLS || leaf == LOOSE) &&
        !obb_cells_place(&g, w->items[id].aabb, k, wide))
      ntree++;
  }
  if (ntree > (INT_MAX - 2) / 2 || !obb_tree_reserve(&w->tree, 2 * ntree + 2)) {
    obb_cells_free(&g);
    return 0;
  }
  for (id = 0; id < w->cap; id++) {
    world_item *it = &w->items[id];
    if (it->leaf == OBB_TREE_NULL) continue;
    if (obb_cells_place(&g, it->aabb, k, wide)) {
      if (it->leaf >= 0) obb_tree_remove(&w->tree, it->leaf);
      obb_cells_insert(&g, id, k, wide);
      it->leaf = IN_CELLS; /* a stale mark is dropped at the next refresh */
    } else if (it->leaf < 0) { /* the old cells' or their loose list's */
      double fat[6];
      fat_aabb(w, it->aabb, fat);
      it->leaf = obb_tree_insert(&w->tree, fat, id); /* reserved */
      w->moves++;
    }
  }
  obb_cells_free(&w->cells);
  w->cells = g;
  return 1;
}

/* The binary exponent of the larger side of an item's bounds: e for a side
** in [2^e, 2^(e + 1)), clamped to [-AUTO_EXP, AUTO_EXP - 1]; a side of 0
** is the smallest. */
#define AUTO_EXP 64
static int side_exponent(double side) {
  int e;
  if (!(side > 0)) return -AUTO_EXP;
  (void)frexp(side, &e); /* side = f 2^e, f in [0.5, 1) */
  e--;
  return e < -AUTO_EXP ? -AUTO_EXP : e >= AUTO_EXP ? AUTO_EXP - 1 : e;
}

/* The policy of a world that chooses its cells (obb_world_set_cell with
** OBB_WORLD_CELL_AUTO, every new world's), looked at by the first query
** after every 2 n changes (n the items, AUTO_ITEMS at least): nothing
** while the world holds fewer than AUTO_ITEMS items (the tree serves them
** well); else the larger side of each item's bounds, its median s (the
** lower one, by powers of two: a few huge or tiny items do not move it),
** and cells of side c = 2^(e + 1) for s in [2^e, 2^(e + 1)): the power of
** two above s, never more than twice it (the moves of docs/performance.md
** cost within a few percent from cells of 1 to 4 times the common item's
** size; 16 px tiles, padded by rounding, get cells of 32). The world files
** its items in them when it has no cells yet, and again (refile) when c
** is 4 times its cells' side or more, or a quarter or less: sizes that
** wander within a factor of 2 never refile, sizes that grow or shrink 8
** times always do. Cost: the look reads every item's bounds and a refile
** moves every item (O(n), plus O(log n) for each that leaves the cells
** for the tree), at most once per 2 n changes: amortised, under one
** item's refiling per change, so a world whose every item moves each
** frame refiles at most every other frame, and only when its sizes
** changed. A refile that runs out of memory changes nothing (the answers
** never depend on the broad phase), and the next look tries again. */
static void choose_cells(obb_world *w) {
  int counts[2 * AUTO_EXP], n = 0, seen = 0, id, e;
  w->next_choice = w->changes + 2.0 * (w->count > AUTO_ITEMS ? w->count : AUTO_ITEMS);
  if (w->count < AUTO_ITEMS) return;
  memset(counts, 0, sizeof counts);
  for (id = 0; id < w->cap; id++) {
    const world_item *it = &w->items[id];
    double side = 0;
    int q;
    if (it->leaf == OBB_TREE_NULL) continue;
    for (q = 0; q < w->dim; q++)
      if (it->aabb[q + 3] - it->aabb[q] > side) side = it->aabb[q + 3] - it->aabb[q];
    if (!(side < HUGE_VAL)) continue; /* overflowed, or NaN: the tree's */
    counts[side_exponent(side) + AUTO_EXP]++;
    n++;
  }
  if (n == 0) return;
  for (e = 0; 2 * (seen + counts[e]) < n; e++) seen += counts[e];
  e = e - AUTO_EXP + 1; /* the cells' exponent */
  if (w->cells.size > 0) {
    int now;
    (void)frexp(w->cells.size, &now); /* a power of two: 2^(now - 1) */
    if (e - (now - 1) < 2 && (now - 1) - e < 2) return;
  }
  if (refile(w, ldexp(1, e))) w->choices++;
}

/* Moves the queued leaves, then renumbers the tree's nodes depth-first
** once a quarter of the items have moved since the last time: the copy
** costs about one traversal, and traversals after it run much faster on a
** large world (their steps walk memory nearly in order). */
static void on_moved(void *ctx, int id, int leaf) {
  ((obb_world *)ctx)->items[id].leaf = leaf;
}

static void refresh_leaves(obb_world *w) {
  int i;
  if (w->changes >= w->next_choice) choose_cells(w);
  for (i = 0; i < w->nstale; i++) {
    int id = w->stale[i];
    world_item *it = &w->items[id];
    if (!it->stale) continue;
    if (it->leaf < 0) { /* removed since it was queued, or in the cells */
      it->stale = 0;
      continue;
    }
    if (contains_aabb(w->tree.nodes[it->leaf].box, it->aabb)) it->stale = 0;
    else move_leaf(w, id);
  }
  w->nstale = 0;
  if (w->count >= 256 && w->moves >= w->count / 4) {
    if (obb_tree_compact(&w->tree, on_moved, w) == 0) w->moves = 0;
  }
}

/* What every query does first, in line: most find nothing queued (a world
** of cells queues nothing), no compaction due and no look at the sizes. */
static inline void refresh(obb_world *w) {
  if (w->nstale > 0 || (w->count >= 256 && w->moves >= w->count / 4) ||
      w->changes >= w->next_choice)
    refresh_leaves(w);
}

void obb_world_remove(obb_world *w, int id) {
  world_item *it = &w->items[id];
  changed(w);
  if ((size_t)id < w->nclasses) w->classes[id] = 0; /* for the next add */
  if (w->chars != NULL) obb_character_removed(w, id);
  if (it->leaf >= 0) obb_tree_remove(&w->tree, it->leaf);
  else obb_cells_remove(&w->cells, id);
  it->leaf = OBB_TREE_NULL;
  /* stale stays set while the id is in the queue, so that an id removed
  ** and reused before the next refresh is queued once, not once per
  ** reuse: the queue never holds more entries than there are ids */
  it->aabb[0] = 1;
  it->aabb[3] = -1;
  /* an id events still name is held until they are taken (obb_events.h) */
  if (w->ev == NULL || !obb_events_removed(w, id)) {
    it->next_free = w->free_id;
    w->free_id = id;
  }
  /* An emptied world gives all its memory back (a level that held 100,000
  ** items and is cleared must not keep megabytes of arrays); ids restart
  ** from 0, which is safe since no item holds one any more. */
  --w->count;
  obb_world_settle(w);
}

/* ---- for the events (obb_events_impl.h) ------------------------------- */

obb_events **obb_world_events_slot(obb_world *w) { return &w->ev; }

obb_alloc obb_world_allocator(const obb_world *w, void **ud) {
  *ud = w->tree.ud;
  return w->tree.alloc;
}

int obb_world_capacity(const obb_world *w) { return w->cap; }

void obb_world_unhold(obb_world *w, int id) {
  w->items[id].next_free = w->free_id;
  w->free_id = id;
}

void obb_world_settle(obb_world *w) {
  if (w->count == 0 && w->cap > 0 && obb_events_idle(w)) release_arrays(w);
}

/* ---- the exact tests behind the broad phase ------------------------- */

static int box_box(const obb_world *w, const void *a, const void *b) {
  return w->dim == 2 ? obb2_intersects((const obb2 *)a, (const obb2 *)b)
                     : obb3_intersects((const obb3 *)a, (const obb3 *)b);
}

/* The segment against a box: obbN_raycast (obb_ray.c) gives the entry t
** and the normal; an origin inside gives t = 0 and a zero normal. */
static int ray_box(int dim, const void *box, const double o[3],
                   const double d[3], double maxt, double *t, double n[3]) {
  n[2] = 0;
  return dim == 2 ? obb2_raycast((const obb2 *)box, o, d, maxt, t, n) != 0
                  : obb3_raycast((const obb3 *)box, o, d, maxt, t, n) != 0;
}

/* ---- queries --------------------------------------------------------- */

/* The items of the cells whose tight bounds overlap bounds, to f (which
** need not test them again). */
static inline void cells_query(const obb_world *w, const double bounds[6],
                               int skip, obb_world_hit_fn f, void *ctx) {
  if (w->items == NULL) return; /* nothing filed, nothing loose */
  obb_cells_query(&w->cells, bounds, w->items[0].aabb, sizeof(world_item),
                  skip, f, ctx);
}

typedef struct query_ctx {
  const obb_world *w;
  const void *box;    /* query box, or NULL for a point */
  double p[3];        /* the point; the segment origin */
  double d[3];        /* the segment direction */
  double aabb[6];     /* the query's tight bounding box */
  int skip;           /* query_others: the item never hit */
  obb_world_hit_fn hit;
  obb_world_ray_fn ray;
  obb_world_pair_fn pair;
  void *ctx;
} query_ctx;

/* The exact test of an item whose bounds overlap the query's: the cells
** give only those (cells_query). */
static void on_box_near(void *ctx, int id) {
  query_ctx *q = (query_ctx *)ctx;
  if (box_box(q->w, q->box, BOX(q->w, id))) q->hit(q->ctx, id);
}

/* A tree's candidate: its grown leaf overlaps the query's bounds. */
static void on_box(void *ctx, int id) {
  query_ctx *q = (query_ctx *)ctx;
  if (obb_box_overlap(q->w->items[id].aabb, q->aabb)) on_box_near(ctx, id);
}

int obb_world_query_box(obb_world *w, const void *box,
                        obb_world_hit_fn f, void *ctx) {
  query_ctx q;
  refresh(w);
  q.w = w; q.box = box; q.hit = f; q.ctx = ctx;
  tight_aabb(w, box, q.aabb);
  if (w->cells.size > 0) cells_query(w, q.aabb, -1, on_box_near, &q);
  return obb_tree_query(&w->tree, q.aabb, on_box, &q);
}

static void on_bounds(void *ctx, int id) {
  query_ctx *q = (query_ctx *)ctx;
  if (id != q->skip && obb_box_overlap(q->w->items[id].aabb, q->aabb))
    q->hit(q->ctx, id);
}

int obb_world_query_others(obb_world *w, const double bounds[6], int skip,
                           obb_world_hit_fn f, void *ctx) {
  query_ctx q;
  refresh(w);
  if (w->cells.size > 0) cells_query(w, bounds, skip, f, ctx);
  if (w->tree.root == OBB_TREE_NULL) return 0; /* all in the cells */
  q.w = w; q.hit = f; q.ctx = ctx; q.skip = skip;
  memcpy(q.aabb, bounds, sizeof q.aabb);
  return obb_tree_query(&w->tree, q.aabb, on_bounds, &q);
}

int obb_world_query_bounds(obb_world *w, const double bounds[6],
                           obb_world_hit_fn f, void *ctx) {
  return obb_world_query_others(w, bounds, -1, f, ctx);
}

static void on_point(void *ctx, int id) {
  query_ctx *q = (query_ctx *)ctx;
  const obb_world *w = q->w;
  const void *b = BOX(w, id);
  if (!obb_box_overlap(w->items[id].aabb, q->aabb)) return;
  if (w->dim == 2 ? obb2_contains_point((const obb2 *)b, q->p)
                  : obb3_contains_point((const obb3 *)b, q->p))
    q->hit(q->ctx, id);
}

int obb_world_query_point(obb_world *w, const double *p,
                          obb_world_hit_fn f, void *ctx) {
  query_ctx q;
  int i;
  refresh(w);
  q.w = w; q.hit = f; q.ctx = ctx;
  for (i = 0; i < 3; i++) {
    q.p[i] = i < w->dim ? p[i] : 0;
    q.aabb[i] = q.aabb[i + 3] = q.p[i];
  }
  if (w->cells.size > 0) cells_query(w, q.aabb, -1, on_point, &q);
  return obb_tree_query(&w->tree, q.aabb, on_point, &q);
}

static double on_ray(void *ctx, int id, double maxt) {
  query_ctx *q = (query_ctx *)ctx;
  const obb_world *w = q->w;
  double t, n[3];
  if (!obb_box_ray(w->items[id].aabb, q->p, q->d, maxt)) return maxt;
  if (!ray_box(w->dim, BOX(w, id), q->p, q->d, maxt, &t, n)) return maxt;
  return q->ray(q->ctx, id, t, n, maxt);
}

int obb_world_raycast(obb_world *w, const double *o, const double *d,
                      double maxt, obb_world_ray_fn f, void *ctx) {
  query_ctx q;
  int i;
  refresh(w);
  q.w = w; q.ray = f; q.ctx = ctx;
  for (i = 0; i < 3; i++) {
    q.p[i] = i < w->dim ? o[i] : 0;
    q.d[i] = i < w->dim ? d[i] : 0;
  }
  /* the cells first: a callback lowering maxt prunes the tree too */
  if (w->cells.size > 0)
    obb_cells_raycast(&w->cells, q.p, q.d, &maxt, on_ray, &q);
  return obb_tree_raycast(&w->tree, q.p, q.d, maxt, on_ray, &q);
}

/* The grid's candidates (bounding boxes overlap), a batch at a time: the
** exact test decides, and each pair goes on lower id first. */
static void on_pairs(void *ctx, const int *ab, int npairs) {
  query_ctx *q = (query_ctx *)ctx;
  const obb_world *w = q->w;
  int k;
  for (k = 0; k < npairs; k++) {
    int a = ab[2 * k] < ab[2 * k + 1] ? ab[2 * k] : ab[2 * k + 1];
    int b = ab[2 * k] < ab[2 * k + 1] ? ab[2 * k + 1] : ab[2 * k];
    if (box_box(w, BOX(w, a), BOX(w, b))) q->pair(q->ctx, a, b);
  }
}

int obb_world_pairs(obb_world *w, obb_world_pair_fn f, void *ctx) {
  query_ctx q;
  if (w->count == 0) return 0;
  q.w = w; q.pair = f; q.ctx = ctx;
  return obb_grid_pairs(&w->grid, w->dim, w->items[0].aabb,
                        sizeof(world_item), w->cap, on_pairs, &q);
}
