/*
** lobb_world.h: a world's userdata and the checks that the files behind
** its methods share (internal): lobb_world.c (life, items, queries) and
** lobb_move.c (moves, pushes).
*/
#ifndef LOBB_WORLD_H
#define LOBB_WORLD_H

#include "lobb_box.h"


#define UV_WORLD (LOBB_NUPVALUES + 1) /* the world metatable upvalue */
#define UV_FILL (LOBB_NUPVALUES + 2)  /* fill() and write_item(), made once:
                                      ** in 5.1 and LuaJIT pushing a C
                                      ** function allocates a closure */
#define UV_WRITE (LOBB_NUPVALUES + 3)
#define UV_RUN (LOBB_NUPVALUES + 4)   /* lobb_move.c's protected run() */
#define NUV_WORLD (LOBB_NUPVALUES + 4)
#define UV_BYITEM 1 /* user values of a world */
#define UV_BYID 2

/* Numbers per record in the tables w:move (item, response, t, normal,
** point, depth) and w:cast (item, t, normal) fill: obb.MOVE_STRIDE2 and
** so on. The FFI's records (lobb_ffi.h) are 3D's in either dimension,
** the item's id for the item and a number for the response. */
#define MOVE_STRIDE(dim) ((dim) == 2 ? 8 : 10)
#define CAST_STRIDE(dim) ((dim) == 2 ? 4 : 5)

typedef struct scratch {
  unsigned char *p;
  size_t cap;
} scratch;

struct job;

/* A box of either dimension. */
typedef union anybox {
  obb2 b2;
  obb3 b3;
} anybox;

typedef struct lworld {
  obb_world *w; /* NULL once closed */
  int dim;
  int lock; /* > 0 while results are copied out and filters run */
  int busy; /* > 0 while add writes the item tables (finalizers may run) */
  const struct job *job; /* the query whose results fill() copies out */
  struct lmove *move; /* the move whose protected half runs (lobb_move.c) */
  scratch buf;
  anybox pending; /* the FFI add's box, between its two halves */
  int ticket;     /* the last ticket lobb_ffi_world_reserve gave (> 0) */
  int pending_ticket; /* the ticket pending is for; 0: none */
  lua_Alloc alloc;
  void *ud;
  const void *tag; /* &world_tag, last as in every obb type (lobb_box.h) */
} lworld;

/* The world at argument 1, open. */
lworld *lobb_world_checkopen(lua_State *L);
/* lobb_world_checkopen, and not locked by a query nor busy with an add
** ("cannot <what> items of a world during its query"). */
lworld *lobb_world_checkmutable(lua_State *L, const char *what);
/* The id of the item at idx in the world at argument 1, or an argument
** error. */
int lobb_world_checkid(lua_State *L, int idx);
/* Pushes the world's (argument 1) table k, UV_BYITEM or UV_BYID. */
void lobb_world_pushitems(lua_State *L, int k);
/* Sets to nil the entries of the table at t from k + 1 on, up to the first
** nil: what an earlier, longer result left behind, so #out is right. */
void lobb_cleartail(lua_State *L, int t, lua_Integer k);
/* Raises the error at the top, which a filter raised (explaining yields). */
int lobb_world_filtererror(lua_State *L);
/* The protected halves' one protocol (a query's fill, a move's run): calls
** the function at upvalue uv (UV_FILL or UV_RUN) with the nargs values on
** top of the stack, for one result, inside lua_pcall with the world
** locked and state set as lw->job (UV_FILL) or lw->move (UV_RUN); then
** restores both and the lock, frees own (a query's private buffer, or
** NULL) and raises what the call raised, through lobb_world_filtererror.
** (An add's write_item runs busy, not locked, and takes its entry out
** again before its error goes on: enter_item.) */
void lobb_world_pcall(lua_State *L, lworld *lw, int uv, int nargs,
                      void *state, scratch *own);

/* For the fast paths (w:update's, the FFI's): the world at p when it is
** open, of dimension dim (0: either), neither locked nor busy; else NULL. */
lworld *lobb_world_usable(void *p, int dim);
/* lobb_world_usable, and id a live id of it (*out_id); else NULL. */
lworld *lobb_world_usableid(void *p, int dim, double id, int *out_id);

/* The movers' methods, listed among the world's (lobb_move.c). */
int lobb_world_move(lua_State *L);
int lobb_world_check(lua_State *L);
int lobb_world_push(lua_State *L);
int lobb_mod_clip(lua_State *L);
int lobb_mod_reflect(lua_State *L);
/* The protected half of a move, pushed once as the world methods'
** upvalue UV_RUN. */
int lobb_move_run(lua_State *L);

#endif
