/*
** obb_grid.h: all overlapping pairs of many bounding boxes at once, by a
** hierarchical grid rebuilt on every call (internal; obb_world_pairs).
**
** Each box goes to the level whose cells (squares or cubes with a power of
** two side) are the smallest larger than the box, and is filed once, under
** the cell holding its lower corner; so it reaches into that cell and the
** next one on each axis, and two boxes of one level can only meet when
** their corner cells are the same or adjacent. Each cell is tested against
** itself and half of its neighbours (the other half test it), so every
** candidate pair is looked at exactly once and nothing needs deduplicating;
** on a dense level those neighbours are a few runs of consecutive entries
** (the cells of a row are consecutive), scanned without a branch per test.
** A box also looks into the few cells of every coarser level that could
** hold a box reaching it. Cells are found by a counting sort of the boxes
** by cell: a level whose occupied cells fill their bounding rectangle
** densely enough gets a plain array of cells (a multiplication to find a
** neighbour), a sparse one a hash table, so memory stays linear in the
** boxes. The sorted boxes sit in one contiguous array, cell after cell, so
** the pair loops read memory in order. The cost is linear in the number of
** boxes plus candidate pairs, with no tree to maintain: the right tool when
** every box moves and every pair is wanted. Large coordinates are safe: a
** level is never finer than 2^-40 of a box's distance from the origin, so
** cell coordinates stay below 2^41 and are exact.
**
** Scratch arrays are kept between calls and grown with the allocator, so a
** steady state allocates nothing.
*/
#ifndef OBB_GRID_H
#define OBB_GRID_H

#include "obb_world.h"

typedef struct obb_grid {
  void *boxes;   /* per present box: bounds, cell, level (call order) */
  void *entries; /* the same, sorted by cell */
  void *ints;    /* per box its slot; per slot its count, then its end */
  void *slots;   /* hash table for sparse levels: cell key -> cell number */
  void *cells;   /* per hashed cell: its key, in order of first use */
  size_t boxes_cap, entries_cap, ints_cap, slots_cap, cells_cap; /* bytes */
  obb_alloc alloc;
  void *ud;
} obb_grid;

void obb_grid_init(obb_grid *g, obb_alloc alloc, void *ud);
void obb_grid_free(obb_grid *g);
size_t obb_grid_memory(const obb_grid *g);

/* n boxes, box i at (const double *)((const char *)base + i * stride): min
** x, y, z, max x, y, z (z ignored when dim is 2). A box with min x > max x
** is absent. Every pair of present boxes whose bounds overlap is found
** once and handed to f in batches: ab[2k], ab[2k + 1] for k < npairs, in
** no order (either index may come first). Returns 0, or -1 when memory
** runs out. */
typedef void (*obb_grid_pairs_fn)(void *ctx, const int *ab, int npairs);
int obb_grid_pairs(obb_grid *g, int dim, const void *base, size_t stride,
                   int n, obb_grid_pairs_fn f, void *ctx);

#endif
