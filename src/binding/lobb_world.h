/*
** lobb_world.h: a world's userdata and what the files behind its methods
** share (internal): lobb_world.c (life, items, the guards),
** lobb_world_query.c (queries), lobb_move.c (moves, pushes) and
** lobb_ffi_world.c (the FFI's entry points).
*/
#ifndef LOBB_WORLD_H
#define LOBB_WORLD_H

#include "lobb_box.h"
#include "obb_world_impl.h"


#define UV_WORLD (LOBB_NUPVALUES + 1) /* the world metatable upvalue */
#define UV_FILL (LOBB_NUPVALUES + 2)  /* fill and write_item, made once:
                                      ** in 5.1 and LuaJIT pushing a C
                                      ** function allocates a closure */
#define UV_WRITE (LOBB_NUPVALUES + 3)
#define UV_RUN (LOBB_NUPVALUES + 4)   /* lobb_move.c's protected run() */
#define NUV_WORLD (LOBB_NUPVALUES + 4)
#define UV_BYITEM 1 /* user values of a world */
#define UV_BYID 2
#define UV_OWNER 3  /* the FFI filter's owner: a weak table whose [1] is
                    ** the thread running it (true: the main thread) */

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
typedef struct lbump lbump; /* lobb_bump.h */
typedef struct lsolid lsolid; /* lobb_solid.c: a solid's move */

/* A box of either dimension. */
typedef union anybox {
  obb2 b2;
  obb3 b3;
} anybox;

/* What LuaJIT's FFI path (lobb_ffi_world.c) keeps in a world between two
** of its calls: the add's box between its halves, a move's end box until
** its commit, and a move that stopped to ask its filter function, with the
** lock it holds while Lua asks. */
typedef struct lffi {
  anybox pending; /* the add's box, between its two halves */
  int ticket;     /* the last ticket lobb_ffi_world_reserve gave (> 0) */
  int pending_ticket; /* the ticket pending is for; 0: none */
  anybox moved;   /* a move's end box, until its commit */
  int moved_id;   /* the item moved is for; -1: none */
  int moved_ticket; /* moved's ticket: each move that parks a box takes a
                    ** new one, which its commit must bring */
  int flock; /* the part of the world's lock an asking move holds (0 or 1):
             ** Lua owns it and may yield holding it (lobb_world_unstale) */
  int fserial; /* counts the asking moves started and the locks taken back
               ** from a yielded owner: an answer then finds another */
  void *asking; /* the state of the move that stopped to ask
                ** (obb_world_move_start), made once; NULL until then */
  int asking_id; /* its item, while flock is held */
} lffi;

/* A world's sensors and events, as the binding keeps them (lobb_events.c):
** the sensor classes, the events still to take when the world was closed
** (their items stay in the world's id -> item table meanwhile), and how
** many times events were taken (an FFI take checks that none came between
** its halves). */
struct obb_event;
typedef struct levents {
  unsigned char classes[32]; /* a bit per class: a sensor class */
  struct obb_event *saved;   /* NULL: none */
  int nsaved, saved_cap;
  double takes;
} levents;

typedef struct lworld {
  obb_world *w; /* NULL once closed */
  int dim;
  int lock; /* > 0 while results are copied out and filters run */
  int busy; /* > 0 while add writes the item tables (finalizers may run) */
  const struct job *job; /* the query whose results fill copies out */
  struct lmove *move; /* the move whose protected half runs (lobb_move.c) */
  lsolid *solid; /* the solid's move whose protected half runs
                 ** (lobb_solid.c) */
  scratch buf;
  unsigned char *const *classes; /* where the core keeps the classes and */
  const size_t *nclasses;        /* their count (obb_world_class_store) */
  lffi ffi; /* the FFI path's */
  lbump *bump; /* obb.bump's rectangles and its loop's records
               ** (lobb_bump.h); NULL until obb.bump sets one */
  levents ev;  /* sensors and events (lobb_events.c) */
  lua_Alloc alloc;
  void *ud;
  const void *tag; /* &world_tag, last as in every obb type (lobb_box.h) */
} lworld;

/* The class of item id (0..255): what a response set answers by. The
** core keeps the classes (obb_world_set_class), so a host's C and a
** script see the same ones; read here in line, where the core keeps them
** (a filter reads one per other met). 0 for every id of a closed world. */
static inline int lobb_world_class(const lworld *lw, int id) {
  return (size_t)id < *lw->nclasses ? (*lw->classes)[id] : 0;
}

/* Whether a query given a response set's answers keep (its r, by class;
** NULL: no set, every item) keeps item id: it keeps every item whose
** class the set answers anything but OBB_IGNORE (false). */
static inline int lobb_world_keeps(const lworld *lw, const unsigned char *keep,
                                   int id) {
  return keep == NULL || keep[lobb_world_class(lw, id)] != OBB_IGNORE;
}

/* A ray or cast hit of a query's first phase; also a contact (t unused). */
typedef struct ray_rec {
  double t, n[3];
  double dist; /* casts: squared distance between centers, for ties */
  int id;
} ray_rec;

/* ---- lobb_world.c ---- */

/* The world at idx (open or closed), or NULL. */
lworld *lobb_world_test(lua_State *L, int idx);
/* The world at argument 1, open. */
lworld *lobb_world_checkopen(lua_State *L);
/* Takes back the FFI filter lock (flock) of the world at argument 1 when
** its owner has left its filter: it yielded there (or ended, or was
** collected), and the world is used meanwhile. An owner that resumed the
** thread running now (a coroutine its filter resumes, a coroutine.wrap
** filter) keeps it: that code runs inside the filter. */
void lobb_world_unstale(lua_State *L, lworld *lw);
/* lobb_world_checkopen, and not locked by a query nor busy with an add
** ("cannot <what> items of a world during its query"). */
lworld *lobb_world_checkmutable(lua_State *L, const char *what);
/* The id of the item at idx in the world at argument 1, or an argument
** error. */
int lobb_world_checkid(lua_State *L, int idx);
/* The id of the item at idx in the world at argument 1, or -1 when it is
** not in the world. */
int lobb_world_itemid(lua_State *L, int idx);
/* Pushes the world's (argument 1) table k, UV_BYITEM or UV_BYID. */
void lobb_world_pushitems(lua_State *L, int k);
/* Enters the item at index 2, not in the world lw at index 1, with box b;
** returns 1, the world left on the stack (w:add's end). */
int lobb_world_enter(lua_State *L, lworld *lw, const anybox *b);
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
** again before its error goes on: lobb_world_enter.) */
void lobb_world_pcall(lua_State *L, lworld *lw, int uv, int nargs,
                      void *state, scratch *own);

/* The world at p (open or closed), recognised by its tag, or NULL. */
lworld *lobb_world_tagged(void *p);
/* For the fast paths (w:update's, the FFI's): the world at p when it is
** open, of dimension dim (0: either), neither locked nor busy; else NULL. */
lworld *lobb_world_usable(void *p, int dim);
/* lobb_world_usable, and id a live id of it (*out_id); else NULL. */
lworld *lobb_world_usableid(void *p, int dim, double id, int *out_id);
/* Gives live item id the box b (of the world's dimension): every update
** of the binding goes through here, so that obb.bump's rectangle of the
** item is forgotten whenever its box changes (lobb_bump_store.c). */
void lobb_world_setbox(lworld *lw, int id, const void *b);
/* The box (into b) from the nv numbers v that w:add and w:update take
** after the item, old's rotation kept when they give none (old NULL: the
** identity); 0 for numbers those methods refuse. */
int lobb_world_tobox(int dim, const double *v, int nv, const void *old,
                     anybox *b);
/* The numbers w:get returns for the box at src, into v; their count. */
int lobb_world_tonumbers(int dim, const void *src, double *v);

/* ---- lobb_world_query.c ---- */

/* The query methods, listed among the world's. */
int lobb_world_query_box(lua_State *L);
int lobb_world_query_point(lua_State *L);
int lobb_world_raycast(lua_State *L);
int lobb_world_cast(lua_State *L);
int lobb_world_cast_turning(lua_State *L);
int lobb_world_pairs(lua_State *L);
int lobb_world_collisions(lua_State *L);
/* A query's protected second half, pushed once as the world methods'
** upvalue UV_FILL. */
int lobb_world_fill(lua_State *L);
/* For the FFI's casts: w:cast's first phase (turn NULL) or
** w:cast_turning's into lw's own buffer (lw as lobb_world_usable gives it,
** so that buffer is free), without the items a response set leaves out
** (keep: its answers, lobb_world_keeps; NULL: none), and their sort: the
** hits, first met first, at *hits and their count at *n (0 hits: *hits
** may be NULL); returns 0, or -1 when the core refused or memory ran out. */
int lobb_world_casthits(lworld *lw, const void *box, const double *d,
                        const double *turn, const unsigned char *keep,
                        const ray_rec **hits, size_t *n);
/* For the FFI's raycast: w:raycast's first phase and sort, as
** lobb_world_casthits does them for a cast (o, d of the world's dimension,
** d not zero; maxt >= 0, maybe infinite). */
int lobb_world_rayhits(lworld *lw, const double *o, const double *d,
                       double maxt, const unsigned char *keep,
                       const ray_rec **hits, size_t *n);

/* ---- lobb_bump.c, lobb_bump_store.c ---- */

/* obb._bump, obb.bump's C half, into the module table at lib. */
void lobb_open_bump(lua_State *L, int lib);
/* Forgets item id's rectangle (its box changed, or it left). */
void lobb_bump_forget(lworld *lw, int id);
/* Frees the world's rectangles and records. */
void lobb_bump_free(lworld *lw);
/* Bytes they hold. */
size_t lobb_bump_memory(const lworld *lw);

/* ---- lobb_move.c ---- */

/* The movers' methods, listed among the world's. */
int lobb_world_move(lua_State *L);
int lobb_world_check(lua_State *L);
int lobb_world_remainder(lua_State *L);
int lobb_world_push(lua_State *L);
int lobb_world_set_ties(lua_State *L);
int lobb_mod_clip(lua_State *L);
int lobb_mod_reflect(lua_State *L);
/* The protected half of a move, pushed once as the world methods'
** upvalue UV_RUN. */
int lobb_move_run(lua_State *L);
/* Puts the center of item id's box at center (dim numbers). */
void lobb_move_commit(lworld *lw, int id, const double *center);
/* The turn from box's rotation to the goal rotation g (2D: an angle; 3D:
** a quaternion), as the turning form of w:move takes it; 0 when the
** classic method would refuse g. */
int lobb_move_turn(int dim, const void *box, const double *g, double turn[3]);

/* ---- lobb_solid.c ---- */

/* The solids' methods and the world's up, listed among the world's. */
int lobb_world_move_solid(lua_State *L);
int lobb_world_set_up(lua_State *L);
int lobb_world_up(lua_State *L);
/* The options up and slope of the table at opts (obb.world2{...}) into
** the new world lw; raises on argument 1. */
void lobb_world_up_option(lua_State *L, lworld *lw, int opts);
/* obb.SOLID2 and obb.SOLID3 into the module table at lib. */
void lobb_open_solid(lua_State *L, int lib);

/* ---- lobb_character.c ---- */

/* The character kit's methods, listed among the world's (w:ground is
** lobb_move.c's: it asks a filter as a move does). */
int lobb_world_set_character(lua_State *L);
int lobb_world_character(lua_State *L);
int lobb_world_is_on_floor(lua_State *L);
int lobb_world_is_on_wall(lua_State *L);
int lobb_world_is_on_ceiling(lua_State *L);
int lobb_world_floor_normal(lua_State *L);
int lobb_world_floor(lua_State *L);
int lobb_world_platform_motion(lua_State *L);
int lobb_world_ground(lua_State *L);

/* ---- lobb_events.c ---- */

/* The methods of sensors and events, listed among the world's. */
int lobb_world_set_sensor(lua_State *L);
int lobb_world_sensor(lua_State *L);
int lobb_world_set_sensor_class(lua_State *L);
int lobb_world_sensor_class(lua_State *L);
int lobb_world_events(lua_State *L);
/* Item id takes class c (w:set_class, before it does): its sensor flag
** follows its class; raises when memory runs out (nothing changed). */
void lobb_events_setclass(lua_State *L, lworld *lw, int id, int c);
/* The world closes: the events not yet taken are kept for w:events (1:
** the world's id -> item table must be kept for them; raises when memory
** runs out, the world still open). */
int lobb_events_close(lua_State *L, lworld *lw);
/* The world is collected: what lobb_events_close kept, freed. */
void lobb_events_free(lworld *lw);

/* ---- lobb_ffi_world.c ---- */

/* The FFI add's second half (lobb_ffi.h), made by lobb_open_world with
** the methods' upvalues. */
int lobb_world_ffi_add(lua_State *L);

#endif
