/*
** obb_tree.h: a dynamic bounding-volume tree of axis-aligned boxes
** (internal; the broad phase behind obb_world).
**
** The tree in the style of Box2D's b2DynamicTree: every leaf holds a "fat"
** box, the caller's tight box grown by a margin, so that an item moving a
** little stays inside its leaf and costs nothing; an item leaving its fat
** box is taken out and put back in. Inner nodes hold the union of their
** children. Insertion walks down choosing the child whose box grows least
** (by the sum of its side lengths, a cheap surface-area heuristic), and every
** insert and remove rebalances the path to the root by AVL-style rotations,
** so the height stays logarithmic whatever order items arrive in.
**
** Boxes are double[6]: min x, y, z then max x, y, z. A 2D tree keeps z at
** [0, 0], which every overlap test passes, so one code serves both.
**
** Nodes live in one array grown by the caller's allocator; indices, not
** pointers, link them, so growth never leaves a dangling link.
*/
#ifndef OBB_TREE_H
#define OBB_TREE_H

#include "obb_bounds.h"
#include "obb_world.h"

#define OBB_TREE_NULL (-1)

typedef struct obb_tree_node {
  double box[6];
  int parent;   /* the next free node while on the free list */
  int child[2]; /* OBB_TREE_NULL in a leaf */
  int height;   /* 0 for a leaf, -1 while free */
  int id;       /* a leaf's caller id */
} obb_tree_node;

typedef struct obb_tree {
  obb_tree_node *nodes;
  int cap, count, root, free_list;
  obb_alloc alloc;
  void *ud;
} obb_tree;

void obb_tree_init(obb_tree *t, obb_alloc alloc, void *ud);
void obb_tree_free(obb_tree *t);
size_t obb_tree_memory(const obb_tree *t);

/* Makes room for n more nodes; 0 when memory runs out. */
int obb_tree_reserve(obb_tree *t, int n);
/* Adds a leaf; returns its node, or OBB_TREE_NULL when memory runs out
** (the tree is then unchanged). */
int obb_tree_insert(obb_tree *t, const double box[6], int id);
void obb_tree_remove(obb_tree *t, int leaf);
/* Gives a leaf a new box; never allocates (it reuses the nodes it frees). */
void obb_tree_move(obb_tree *t, int leaf, const double box[6]);

/* Renumbers the nodes in depth-first order, so that a traversal walks
** memory nearly in sequence (after many moves the nodes of a subtree lie
** all over the array, and every step of a traversal is a cache miss).
** moved(ctx, id, leaf) tells the caller each leaf's new index. Returns 0,
** or -1 when the new array cannot be allocated (the tree is unchanged). */
typedef void (*obb_tree_moved_fn)(void *ctx, int id, int leaf);
int obb_tree_compact(obb_tree *t, obb_tree_moved_fn moved, void *ctx);

/* Traversals return 0, or -1 when a scratch stack could not be allocated
** (only for a tree far deeper than balancing allows). */
typedef void (*obb_tree_leaf_fn)(void *ctx, int id);
int obb_tree_query(const obb_tree *t, const double box[6], obb_tree_leaf_fn f,
                   void *ctx);

/* Leaves whose box the segment o + s*d, s in [0, maxs], touches. f returns
** the new maxs (return maxs unchanged to see every leaf; a smaller value
** prunes what lies beyond, for a nearest-hit search). */
typedef double (*obb_tree_ray_fn)(void *ctx, int id, double maxs);
int obb_tree_raycast(const obb_tree *t, const double o[3], const double d[3],
                     double maxs, obb_tree_ray_fn f, void *ctx);

#endif
