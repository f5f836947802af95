/*
** obb_cells.h: a uniform hash grid of item ids, the broad phase of a world
** made with a cell size (obb_world_set_cell; internal).
**
** Cells are squares (cubes in 3D) of side `size`; the cell of a coordinate
** x is floor(x / size), computed as floor(x * (1 / size)), which never
** decreases as x grows, so an interval [x0, x1] covers exactly the cells
** cell(x0) .. cell(x1), whatever the rounding. An item is filed once, under
** the cell of its bounds' lower corner, with its width on each axis in
** eighths of a cell, rounded up (its bounds may cover at most
** OBB_CELLS_SPAN cells on each axis); a search for bounds [q0, q1] looks in
** the cells cell(q0 - W) .. cell(q1) on each axis, W the largest width of
** the items filed (kept per axis, by a count of the items of each width),
** clipped to the range of lower corners filed so far. Every item whose
** bounds overlap the search's has its lower corner cell in there, and each
** item is filed once, so a search meets each at most once and nothing
** needs deduplicating.
**
** Cells hash (an integer hash of the cell coordinates, no pointers) into a
** power-of-two array of buckets, at least one per item slot; a bucket
** lists its items (doubly linked through the per-item records), which may
** be of several cells: a search keeps those of the cell it asks for. The
** order of everything depends on the calls made only, the same on every
** platform.
**
** Only items with finite bounds, cell coordinates within +-OBB_CELLS_LIMIT
** and spans within OBB_CELLS_SPAN are filed (obb_cells_place); the world
** keeps the others in its tree. An item the world could not give a tree
** leaf (memory ran out in an update, which cannot fail) goes on the loose
** list instead, which every search visits whole.
**
** Memory comes from the world's allocator: the per-item records and the
** buckets, nothing per search.
*/
#ifndef OBB_CELLS_H
#define OBB_CELLS_H

#include "obb_world.h"

#define OBB_CELLS_SPAN 4          /* cells per axis an item may cover */
#define OBB_CELLS_WIDE (8 * OBB_CELLS_SPAN + 1) /* widths, in eighths */
#define OBB_CELLS_LIMIT 0x1p30    /* |cell coordinate| of a filed item */

enum { OBB_CELLS_NONE, OBB_CELLS_IN, OBB_CELLS_LOOSE };

typedef struct obb_cells_item {
  int k[3];              /* the lower corner's cell (z = 0 in 2D) */
  int next, prev;        /* in the bucket's list, or the loose list */
  unsigned char wide[3]; /* width per axis, in eighths of a cell, rounded
                         ** up: 1 .. OBB_CELLS_WIDE (0 for z in 2D) */
  unsigned char where;   /* OBB_CELLS_NONE, _IN (filed), _LOOSE */
} obb_cells_item;

typedef struct obb_cells {
  double size, inv;     /* the cell's side and 1 / side; size 0: off */
  int dim;
  obb_cells_item *items;
  int cap;              /* records */
  int *buckets;         /* bucket -> first id, or -1 */
  int nb;               /* buckets, a power of two (0: none yet) */
  int shift;            /* 32 - log2(nb), with the buckets: a hash's top
                        ** bits pick its bucket */
  int count;            /* items filed */
  int loose;            /* first id of the loose list, or -1 */
  int lo[3], hi[3];     /* range of the lower corner cells filed so far */
  int wide[3];          /* largest width filed, per axis */
  int nwide[3][OBB_CELLS_WIDE + 1]; /* items filed per width, per axis */
  obb_alloc alloc;
  void *ud;
} obb_cells;

void obb_cells_init(obb_cells *g, int dim, obb_alloc alloc, void *ud);
/* Frees the arrays; the cell size is kept. */
void obb_cells_free(obb_cells *g);
size_t obb_cells_memory(const obb_cells *g);

/* Records for ids 0 .. cap - 1 (and buckets for as many, when memory
** allows); 0 when memory runs out (nothing filed changes). */
int obb_cells_reserve(obb_cells *g, int cap);

/* The lower corner cell k and the widths of bounds (double[6], min then
** max); 0 when the item cannot be filed (not finite, too far out, or
** covering more than OBB_CELLS_SPAN cells on an axis). */
int obb_cells_place(const obb_cells *g, const double bounds[6], int k[3],
                    int wide[3]);

/* Files id (not filed) under k with widths wide. */
void obb_cells_insert(obb_cells *g, int id, const int k[3], const int wide[3]);
/* Refiles a filed id under k and wide: nothing moves when k is the same. */
void obb_cells_update(obb_cells *g, int id, const int k[3], const int wide[3]);
/* Puts id (not filed) on the loose list. */
void obb_cells_add_loose(obb_cells *g, int id);
/* Takes id out of its cell or off the loose list. */
void obb_cells_remove(obb_cells *g, int id);

/* Every item, filed or loose, whose bounds overlap bounds (obb_bounds.h's
** obb_box_overlap), each once, in an order that depends only on the calls
** made, but skip (-1: none; a mover's own item, which its search for the
** others always meets). The cells keep no bounds: item id's are the
** double[6] at aabbs + id * stride bytes (the world's records), tested
** here so that f is called only for those that overlap. */
typedef void (*obb_cells_hit_fn)(void *ctx, int id);
void obb_cells_query(const obb_cells *g, const double bounds[6],
                     const double *aabbs, size_t stride, int skip,
                     obb_cells_hit_fn f, void *ctx);

/* Every filed item whose bounds the segment o + s*d, s in [0, *maxs],
** may touch, grown by the ray's band as obb_box_ray grows them, and every
** loose item, each once: f returns the new maxs (as obb_tree_raycast's),
** which prunes the cells beyond it; the last is left in *maxs. Cells are
** walked along the ray, column by column of its major axis, clipped to
** the cells filed. */
typedef double (*obb_cells_ray_fn)(void *ctx, int id, double maxs);
void obb_cells_raycast(const obb_cells *g, const double o[3],
                       const double d[3], double *maxs, obb_cells_ray_fn f,
                       void *ctx);

#endif
