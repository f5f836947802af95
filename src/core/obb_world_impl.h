/*
** obb_world_impl.h: what the movers (obb_move.c) need of a world beyond
** its public API (internal).
*/
#ifndef OBB_WORLD_IMPL_H
#define OBB_WORLD_IMPL_H

#include "obb_world.h"

/* The scratch buffers a world keeps for its movers (obb_move.c): the
** candidates of a leg, the others met in a move and their index by id,
** and the others within reach of the whole move; and for a solid's move
** (obb_solid.c), which runs the movers of its riders meanwhile. */
enum {
  OBB_SCRATCH_CANDS,
  OBB_SCRATCH_MET,
  OBB_SCRATCH_NEAR,
  OBB_SCRATCH_MET_INDEX,
  OBB_SCRATCH_SOLID,      /* obb_solid.c: a solid's others */
  OBB_SCRATCH_SOLID_LOG,  /* obb_solid.c: the boxes it changed, to undo */
  OBB_SCRATCH_SOLID_INDEX, /* obb_solid.c: its others by id */
  OBB_WORLD_SCRATCH /* how many */
};

/* Buffer k (an OBB_SCRATCH_ name) of the world, at least size bytes, grown through the
** world's allocator and kept for the next call (so a mover in a steady
** state allocates nothing); NULL when memory runs out. Its contents are
** the caller's until the next call with the same k. */
void *obb_world_scratch(obb_world *w, int k, size_t size);

/* Every live item whose padded bounds (obb_bounds.h) overlap bounds: the
** broad phase alone, in no order. Returns 0, or -1 as the queries do. */
int obb_world_query_bounds(obb_world *w, const double bounds[6],
                           obb_world_hit_fn f, void *ctx);

/* obb_world_query_bounds but for item skip (-1: none): a mover's search
** for the others, which always meets its own item, spares it the call. */
int obb_world_query_others(obb_world *w, const double bounds[6], int skip,
                           obb_world_hit_fn f, void *ctx);

/* What a mover reads of its world as it starts, in one call rather than
** one for each (a move per item and frame pays for them): live item id's
** box (NULL when id is not live, and then nothing else is set), the
** world's dimension and tie rule, its records and scratch buffers 0 .. 2
** at least size[k] bytes each (obb_world_scratch; NULL where memory runs
** out, each still tried). The records: item k's box (obb2 or obb3) at
** boxes + k * box_size bytes, its padded bounds (obb_bounds.h's
** double[6]) at bounds + k * stride bytes, for as long as no item is
** added, updated or removed (which callbacks may not do: obb_world.h). A
** mover reads the others it tests there, without a call per other. */
typedef struct obb_world_view {
  const void *box;
  int dim, ties;
  const unsigned char *boxes, *bounds;
  size_t box_size, stride;
  void *scratch[3];
} obb_world_view;
void obb_world_view_move(obb_world *w, int id, const size_t size[3],
                         obb_world_view *v);

/* Where the world keeps its items' classes (obb_world_set_class): the
** array at *classes (NULL while every item is of class 0) and its length
** at *n; item id's class is (*classes)[id] for id < *n, 0 from there on.
** These two addresses are the world's own for as long as it lives (the
** array itself moves when a class is set), so a reader of classes one by
** one (a move given a response set, the Lua binding's filters) keeps them
** and reads each class in line, without a call. */
void obb_world_class_store(obb_world *w, unsigned char *const **classes,
                           const size_t **n);

/* Keeps how a move ended for obb_world_move_end: why, and rest (4
** numbers, as obb_world_move_end gives them). */
void obb_world_set_move_end(obb_world *w, int why, const double rest[4]);

/* The character kit's store (obb_character_store.c), held by the world:
** its slot (NULL until a character is made or a solid moves), and the
** hooks of the world's life. */
struct obb_chars;
struct obb_chars **obb_world_chars_slot(obb_world *w);
void obb_character_removed(obb_world *w, int id);
/* Item id gets box (obb_world_update, before the change): a character's
** move committed (its box, nothing changed since) takes its state. */
void obb_character_updated(obb_world *w, int id, const void *box);
void obb_character_free(obb_world *w);
size_t obb_character_memory(const obb_world *w);
/* Whether item id's moves are a character's (it is one, and the world
** has an up: obb_character_store.c), and its move (obb_character.c; for
** obb_world_move_with without a turn): as obb_world_move_with. */
int obb_character_moves(obb_world *w, int id);
int obb_character_move(obb_world *w, int id, const double *goal,
                       const obb_move_calls *calls, void *end);
/* Solid id moved from box b0 to box b1 (obb_solid.c): kept, for the
** ground's motion (obb_ground.motion) of what stands on it. */
void obb_character_solid_moved(obb_world *w, int id, const void *b0,
                               const void *b1);

/* A move of item id (obb_move.c) for the character kit (obb_character.c):
** a translation toward goal from center from (NULL: where the item is;
** the item's box otherwise, moved there), its filter, report and response
** set as calls says (calls->commit not read: the world is never
** changed), the center where it ends into actual; returns as
** obb_world_move. It works out no events; in a world with sensors it
** keeps its path into path (may be NULL): where it starts and where each
** leg ends (path->n 0 when the world has none), for its caller's; and the
** others it could reach (path->near), where it ends among them. Sets
** what obb_world_move_end says, as any move. */
#define OBB_PROBE_POINTS (OBB_MOVE_MAX_LEGS + 2)
typedef struct obb_probe_path {
  int n;
  double pos[OBB_PROBE_POINTS][3];
  /* every other the move could reach (where it ends among them), in the
  ** world's scratch buffer until the next move: near[0 .. nnear - 1] */
  const int *near;
  int nnear;
} obb_probe_path;
int obb_move_probe(obb_world *w, int id, const double *from,
                   const double *goal, const obb_move_calls *calls,
                   double *actual, obb_probe_path *path);
#endif
