/*
** obb_tree.c: the dynamic bounding-volume tree (see obb_tree.h).
*/
#include <limits.h>
#include <stdlib.h>

#include "obb_tree.h"

/* Traversal stacks live on the C stack up to this many entries; only a tree
** taller than AVL balancing allows for any array that fits in memory would
** need more, and then they come from the allocator. */
#define STACK_SIZE 256

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud; (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

void obb_tree_init(obb_tree *t, obb_alloc alloc, void *ud) {
  t->nodes = NULL;
  t->cap = t->count = 0;
  t->root = t->free_list = OBB_TREE_NULL;
  t->alloc = alloc != NULL ? alloc : default_alloc;
  t->ud = ud;
}

void obb_tree_free(obb_tree *t) {
  if (t->nodes != NULL)
    t->alloc(t->ud, t->nodes, (size_t)t->cap * sizeof(obb_tree_node), 0);
  t->nodes = NULL;
  t->cap = t->count = 0;
  t->root = t->free_list = OBB_TREE_NULL;
}

size_t obb_tree_memory(const obb_tree *t) {
  return (size_t)t->cap * sizeof(obb_tree_node);
}

int obb_tree_reserve(obb_tree *t, int n) {
  obb_tree_node *p;
  int cap = t->cap, i;
  if (t->count <= t->cap - n) return 1;
  while (cap - t->count < n) {
    if (cap > INT_MAX / 8) return 0; /* compact packs 2 * index + 1 */
    cap = cap == 0 ? 16 : cap * 2;
  }
  if ((size_t)cap > ((size_t)-1) / sizeof(obb_tree_node)) return 0;
  p = (obb_tree_node *)t->alloc(t->ud, t->nodes,
                                (size_t)t->cap * sizeof(obb_tree_node),
                                (size_t)cap * sizeof(obb_tree_node));
  if (p == NULL) return 0;
  for (i = t->cap; i < cap; i++) {
    p[i].parent = i + 1 < cap ? i + 1 : t->free_list;
    p[i].height = -1;
  }
  t->free_list = t->cap;
  t->nodes = p;
  t->cap = cap;
  return 1;
}

static int take_node(obb_tree *t) { /* room is reserved by the caller */
  int n = t->free_list;
  obb_tree_node *p = &t->nodes[n];
  t->free_list = p->parent;
  p->parent = p->child[0] = p->child[1] = OBB_TREE_NULL;
  p->height = 0;
  p->id = -1;
  t->count++;
  return n;
}

static void give_node(obb_tree *t, int n) {
  t->nodes[n].parent = t->free_list;
  t->nodes[n].height = -1;
  t->free_list = n;
  t->count--;
}

static int *stack_get(const obb_tree *t, int *local, size_t need);
static void stack_put(const obb_tree *t, int *stack, int *local, size_t need);

static void box_union(double out[6], const double a[6], const double b[6]) {
  int i;
  for (i = 0; i < 3; i++) {
    out[i] = a[i] < b[i] ? a[i] : b[i];
    out[i + 3] = a[i + 3] > b[i + 3] ? a[i + 3] : b[i + 3];
  }
}

/* The insertion cost of a box: the sum of its side lengths (half the
** perimeter in 2D), which grows with the chance a query touches it. */
static double box_cost(const double b[6]) {
  return (b[3] - b[0]) + (b[4] - b[1]) + (b[5] - b[2]);
}

static double union_cost(const double a[6], const double b[6]) {
  double u[6];
  box_union(u, a, b);
  return box_cost(u);
}

static void refit(obb_tree *t, int n) {
  obb_tree_node *p = &t->nodes[n];
  obb_tree_node *a = &t->nodes[p->child[0]], *b = &t->nodes[p->child[1]];
  box_union(p->box, a->box, b->box);
  p->height = 1 + (a->height > b->height ? a->height : b->height);
}

static void replace_child(obb_tree *t, int parent, int old, int young) {
  if (parent == OBB_TREE_NULL) {
    t->root = young;
  } else if (t->nodes[parent].child[0] == old) {
    t->nodes[parent].child[0] = young;
  } else {
    t->nodes[parent].child[1] = young;
  }
}

/* If node a's subtrees differ in height by more than one, lifts the taller
** child into a's place (a tree rotation) and returns the node now there. */
static int balance(obb_tree *t, int ia) {
  obb_tree_node *n = t->nodes, *a = &n[ia];
  int tall, ic, ig, ih, keep, diff;
  if (a->height < 2) return ia;
  diff = n[a->child[1]].height - n[a->child[0]].height;
  if (diff >= -1 && diff <= 1) return ia;
  tall = diff > 1 ? 1 : 0; /* which child of a is lifted */
  ic = a->child[tall];
  keep = a->child[1 - tall];
  /* c takes a's place; a becomes c's child 0 and keeps the shorter child
  ** and c's shorter grandchild; c keeps its taller child as child 1. */
  ig = n[ic].child[0];
  ih = n[ic].child[1];
  if (n[ig].height > n[ih].height) { int s = ig; ig = ih; ih = s; }
  n[ic].parent = a->parent;
  replace_child(t, a->parent, ia, ic);
  n[ic].child[0] = ia;
  n[ic].child[1] = ih;
  a->parent = ic;
  a->child[0] = keep;
  a->child[1] = ig;
  n[ig].parent = ia;
  n[ih].parent = ic;
  refit(t, ia);
  refit(t, ic);
  return ic;
}

/* Refits and rebalances from node i up to the root. */
static void fix_upwards(obb_tree *t, int i) {
  while (i != OBB_TREE_NULL) {
    i = balance(t, i);
    refit(t, i);
    i = t->nodes[i].parent;
  }
}

/* Puts a detached leaf back in; needs one free node for the new parent. */
static void insert_leaf(obb_tree *t, int leaf) {
  obb_tree_node *n = t->nodes;
  const double *box = n[leaf].box;
  int i = t->root, parent, sibling, old_parent;
  if (i == OBB_TREE_NULL) {
    t->root = leaf;
    n[leaf].parent = OBB_TREE_NULL;
    return;
  }
  /* Go down while the cheaper child costs less than pairing here. */
  while (n[i].height > 0) {
    int c0 = n[i].child[0], c1 = n[i].child[1];
    double area = box_cost(n[i].box), joined = union_cost(n[i].box, box);
    double here = 2 * joined, inherit = 2 * (joined - area);
    double cost0 = union_cost(n[c0].box, box) + inherit;
    double cost1 = union_cost(n[c1].box, box) + inherit;
    if (n[c0].height > 0) cost0 -= box_cost(n[c0].box);
    if (n[c1].height > 0) cost1 -= box_cost(n[c1].box);
    if (here < cost0 && here < cost1) break;
    i = cost0 < cost1 ? c0 : c1;
  }
  sibling = i;
  old_parent = n[sibling].parent;
  parent = take_node(t);
  n = t->nodes;
  n[parent].parent = old_parent;
  n[parent].child[0] = sibling;
  n[parent].child[1] = leaf;
  replace_child(t, old_parent, sibling, parent);
  n[sibling].parent = parent;
  n[leaf].parent = parent;
  fix_upwards(t, parent);
}

/* Detaches a leaf (left allocated) and frees its parent. */
static void remove_leaf(obb_tree *t, int leaf) {
  obb_tree_node *n = t->nodes;
  int parent, grand, sibling;
  if (leaf == t->root) {
    t->root = OBB_TREE_NULL;
    return;
  }
  parent = n[leaf].parent;
  grand = n[parent].parent;
  sibling = n[parent].child[0] == leaf ? n[parent].child[1]
                                       : n[parent].child[0];
  replace_child(t, grand, parent, sibling);
  n[sibling].parent = grand;
  give_node(t, parent);
  fix_upwards(t, grand);
}

int obb_tree_insert(obb_tree *t, const double box[6], int id) {
  int leaf, i;
  if (!obb_tree_reserve(t, 2)) return OBB_TREE_NULL;
  leaf = take_node(t);
  for (i = 0; i < 6; i++) t->nodes[leaf].box[i] = box[i];
  t->nodes[leaf].id = id;
  insert_leaf(t, leaf);
  return leaf;
}

void obb_tree_remove(obb_tree *t, int leaf) {
  remove_leaf(t, leaf);
  give_node(t, leaf);
}

void obb_tree_move(obb_tree *t, int leaf, const double box[6]) {
  int i;
  remove_leaf(t, leaf); /* frees a node that insert_leaf takes back */
  for (i = 0; i < 6; i++) t->nodes[leaf].box[i] = box[i];
  insert_leaf(t, leaf);
}

int obb_tree_compact(obb_tree *t, obb_tree_moved_fn moved, void *ctx) {
  obb_tree_node *old = t->nodes, *n;
  int local[STACK_SIZE], *stack, sp = 0, next = 0, i;
  size_t need;
  if (t->root == OBB_TREE_NULL) return 0;
  need = (size_t)old[t->root].height + 2;
  stack = stack_get(t, local, need);
  if (stack == NULL) return -1;
  n = (obb_tree_node *)t->alloc(t->ud, NULL, 0,
                                (size_t)t->cap * sizeof(obb_tree_node));
  if (n == NULL) {
    stack_put(t, stack, local, need);
    return -1;
  }
  /* Pre-order: a node is copied, then its first child right after it.
  ** While a node waits on the stack, its old .parent holds its parent's
  ** new index times 2 plus which child it is, to fix that link. */
  old[t->root].parent = -1;
  stack[sp++] = t->root;
  while (sp > 0) {
    int o = stack[--sp], k = next++, up = old[o].parent;
    obb_tree_node *p = &n[k];
    *p = old[o];
    p->parent = up < 0 ? OBB_TREE_NULL : up / 2;
    if (up >= 0) n[up / 2].child[up % 2] = k;
    if (p->height == 0) {
      moved(ctx, p->id, k);
    } else {
      old[p->child[1]].parent = 2 * k + 1;
      old[p->child[0]].parent = 2 * k;
      stack[sp++] = p->child[1];
      stack[sp++] = p->child[0];
    }
  }
  stack_put(t, stack, local, need);
  for (i = next; i < t->cap; i++) {
    n[i].parent = i + 1 < t->cap ? i + 1 : OBB_TREE_NULL;
    n[i].height = -1;
  }
  t->free_list = next < t->cap ? next : OBB_TREE_NULL;
  t->root = 0;
  t->alloc(t->ud, old, (size_t)t->cap * sizeof(obb_tree_node), 0);
  t->nodes = n;
  return 0;
}

/* ---- traversals ------------------------------------------------------ */

/* A stack of n ints: the caller's array when it is big enough, else one
** from the allocator (NULL when that fails). */
static int *stack_get(const obb_tree *t, int *local, size_t need) {
  if (need <= STACK_SIZE) return local;
  return (int *)t->alloc(t->ud, NULL, 0, need * sizeof(int));
}

static void stack_put(const obb_tree *t, int *stack, int *local,
                      size_t need) {
  if (stack != local) t->alloc(t->ud, stack, need * sizeof(int), 0);
}

int obb_tree_query(const obb_tree *t, const double box[6], obb_tree_leaf_fn f,
                   void *ctx) {
  const obb_tree_node *n = t->nodes;
  int local[STACK_SIZE], *stack, sp = 0;
  size_t need;
  if (t->root == OBB_TREE_NULL) return 0;
  /* depth-first, pushing two children per level: height + 2 suffices */
  need = (size_t)n[t->root].height + 2;
  stack = stack_get(t, local, need);
  if (stack == NULL) return -1;
  stack[sp++] = t->root;
  while (sp > 0) {
    const obb_tree_node *p = &n[stack[--sp]];
    if (!obb_box_overlap(p->box, box)) continue;
    if (p->height == 0) {
      f(ctx, p->id);
    } else {
      stack[sp++] = p->child[0];
      stack[sp++] = p->child[1];
    }
  }
  stack_put(t, stack, local, need);
  return 0;
}

int obb_tree_raycast(const obb_tree *t, const double o[3], const double d[3],
                     double maxs, obb_tree_ray_fn f, void *ctx) {
  const obb_tree_node *n = t->nodes;
  int local[STACK_SIZE], *stack, sp = 0;
  size_t need;
  if (t->root == OBB_TREE_NULL) return 0;
  need = (size_t)n[t->root].height + 2;
  stack = stack_get(t, local, need);
  if (stack == NULL) return -1;
  stack[sp++] = t->root;
  while (sp > 0) {
    const obb_tree_node *p = &n[stack[--sp]];
    if (!obb_box_ray(p->box, o, d, maxs)) continue;
    if (p->height == 0) {
      maxs = f(ctx, p->id, maxs);
    } else {
      stack[sp++] = p->child[0];
      stack[sp++] = p->child[1];
    }
  }
  stack_put(t, stack, local, need);
  return 0;
}
