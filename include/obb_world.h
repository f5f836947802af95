/*
** obb_world.h: many boxes behind a broad phase, in the pure C core.
**
** Part of the core API (no Lua): include "obb_world.h" (it includes
** "obb.h") and link the core objects or libobbcore.a.
*/
#ifndef OBB_WORLD_H
#define OBB_WORLD_H

#include "obb.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** A world holds boxes of one dimension (all obb2 or all obb3; the `box`
** pointers below point to that type), each under a small integer id that
** the world assigns and reuses after removal. Queries walk a dynamic
** bounding-volume tree and confirm every candidate with the exact test
** (obbN_intersects, obbN_contains_point, obbN_raycast), so they
** answer exactly what testing each box in turn would; all pairs at once
** come from a hierarchical grid rebuilt per call (linear in the items).
**
** Memory comes from an allocator with lua_Alloc's contract (NULL: realloc
** and free). Calls return -1 when it fails and then change nothing.
** Callbacks must not add, update or remove items of the world they are
** called from; queries allocate nothing unless the tree is far deeper than
** its balancing allows.
*/
typedef void *(*obb_alloc)(void *ud, void *ptr, size_t osize, size_t nsize);
typedef struct obb_world obb_world;

/* How far a leaf's bounding box reaches beyond the item's, as a fraction of
** the item's largest half side: an item moving less stays in its leaf. */
#define OBB_WORLD_MARGIN 0.25

/* dim is 2 or 3; a margin outside [0, 1e6] (or NaN) means the default. */
OBB_API obb_world *obb_world_new(int dim, double margin, obb_alloc alloc, void *ud);
OBB_API void obb_world_free(obb_world *w);
OBB_API int obb_world_dim(const obb_world *w);
OBB_API int obb_world_count(const obb_world *w);
OBB_API size_t obb_world_memory(const obb_world *w); /* bytes held, all arrays */

/* Returns the new item's id (>= 0), or -1 when memory runs out. */
OBB_API int obb_world_add(obb_world *w, const void *box);
/* Makes room for one more item and returns the id the next add will get
** (an add right after a successful reserve cannot fail), or -1. */
OBB_API int obb_world_reserve(obb_world *w);
/* id must be live (obb_world_box is not NULL for it). */
OBB_API void obb_world_update(obb_world *w, int id, const void *box);
OBB_API void obb_world_remove(obb_world *w, int id);
OBB_API const void *obb_world_box(const obb_world *w, int id); /* NULL if not live */

/* Every item whose box intersects box / contains point p, in no order.
** Queries take a non-const world: updates reach the tree lazily, when a
** query next needs it (results never depend on it). */
typedef void (*obb_world_hit_fn)(void *ctx, int id);
OBB_API int obb_world_query_box(obb_world *w, const void *box,
                        obb_world_hit_fn f, void *ctx);
OBB_API int obb_world_query_point(obb_world *w, const double *p,
                          obb_world_hit_fn f, void *ctx);

/* Items the segment o + t*d, t in [0, maxt] (maxt may be +inf), touches, in
** no order, with the entry parameter t and the outward unit normal n (3
** numbers, z = 0 in 2D) of the face entered; an origin inside a box gives
** t = 0 and a zero normal. f returns the new maxt: maxt itself to see every
** hit, t to see only nearer ones next. */
typedef double (*obb_world_ray_fn)(void *ctx, int id, double t,
                                   const double n[3], double maxt);
OBB_API int obb_world_raycast(obb_world *w, const double *o, const double *d,
                      double maxt, obb_world_ray_fn f, void *ctx);

/* Every intersecting pair once, lower id first, in no order. */
typedef void (*obb_world_pair_fn)(void *ctx, int a, int b);
OBB_API int obb_world_pairs(obb_world *w, obb_world_pair_fn f, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
