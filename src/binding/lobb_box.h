/*
** lobb_box.h: what the binding knows of box userdata (internal).
**
** The userdata layout rule, the same for every obb type: the C struct
** first, the type tag last. lua_touserdata points at the struct itself,
** and a value is of a type exactly when its userdata has that type's size
** and its tag is the address of that type's constant (lobb_box.c for
** boxes, lobb_world.c for worlds). Scripts cannot write raw bytes into a
** userdata, other modules do not know the addresses, and
** debug.setmetatable cannot forge a tag: checking a box is two Lua API
** calls and a compare, cheaper than the metatable compare (four calls) or
** luaL_checkudata's registry lookup (bench/, `make bench`).
**
** Most methods exist for both box types with the same arguments up to the
** dimension. Their body is written once, as box_NAME(L, dim), and
** LOBB_TWINS(NAME) makes the two functions the method tables
** (lobb_types.c) register, box2_NAME and box3_NAME (the binding's prefixes are one per Lua
** receiver: mod_ for the module table, box2_/box3_ for the box types,
** world_ for worlds). dim is a constant in each, so the compiler keeps
** one specialised copy per type.
*/
#ifndef LOBB_BOX_H
#define LOBB_BOX_H

#include "lobb_check.h"
#include "obb_world.h"

/* Upvalues of every function the module registers: the metatables. */
#define LOBB_UV_OBB2 1
#define LOBB_UV_OBB3 2
#define LOBB_NUPVALUES 2

typedef struct lobb_ud2 { obb2 box; const void *tag; } lobb_ud2;
typedef struct lobb_ud3 { obb3 box; const void *tag; } lobb_ud3;
extern const char lobb_box_tags[2]; /* lobb_box.c; only the addresses matter */
#define LOBB_TAG2 ((const void *)&lobb_box_tags[0])
#define LOBB_TAG3 ((const void *)&lobb_box_tags[1])
#define LOBB_BOXNAME(dim) ((dim) == 2 ? LOBB_OBB2 : LOBB_OBB3)

/* The box (obb2 or obb3 by dim) at idx, or NULL for any other value. */
static inline void *lobb_tobox(lua_State *L, int idx, int dim) {
  void *p = lua_touserdata(L, idx);
  size_t len;
  if (p == NULL) return NULL;
  len = lobb_rawlen(L, idx);
  if (dim == 2)
    return len == sizeof(lobb_ud2) && ((lobb_ud2 *)p)->tag == LOBB_TAG2
               ? p : NULL;
  return len == sizeof(lobb_ud3) && ((lobb_ud3 *)p)->tag == LOBB_TAG3
             ? p : NULL;
}

static inline void *lobb_checkbox(lua_State *L, int idx, int dim) {
  void *b = lobb_tobox(L, idx, dim);
  if (b == NULL) lobb_typeerror(L, idx, LOBB_BOXNAME(dim));
  return b;
}

/* A box at idx, or else numbers: the type error names both. */
static inline void *lobb_tobox_or_number(lua_State *L, int idx, int dim) {
  void *b = lobb_tobox(L, idx, dim);
  if (b == NULL && lua_type(L, idx) != LUA_TNUMBER)
    lobb_typeerror(L, idx, dim == 2 ? "number or " LOBB_OBB2
                                    : "number or " LOBB_OBB3);
  return b;
}

/* Pushes a fresh box of the type dim (contents unset), with the metatable
** from this function's upvalues. */
void *lobb_newbox(lua_State *L, int dim);

/* A box from the numbers cx, cy, hx, hy [, angle] at idx on, or
** cx, cy, cz, hx, hy, hz [, qx, qy, qz, qw], with nothing after them.
** Without the rotation the box keeps old's (none when old is NULL). Every
** argument is checked before b is written; b may be old. */
void lobb_checkboxargs(lua_State *L, int idx, int dim, void *b,
                       const void *old);

#define LOBB_TWINS(name)                                      \
  int box2_##name(lua_State *L) { return box_##name(L, 2); }  \
  int box3_##name(lua_State *L) { return box_##name(L, 3); }
#define LOBB_DECLARE_TWINS(name) \
  int box2_##name(lua_State *L); \
  int box3_##name(lua_State *L);

/* Every box method and module function, registered by lobb_types.c. */
LOBB_DECLARE_TWINS(new)              /* lobb_box.c */
LOBB_DECLARE_TWINS(from_aabb)
LOBB_DECLARE_TWINS(from_axes)
LOBB_DECLARE_TWINS(fit)
LOBB_DECLARE_TWINS(intersects)
LOBB_DECLARE_TWINS(overlaps)
LOBB_DECLARE_TWINS(contains)
LOBB_DECLARE_TWINS(corners)
LOBB_DECLARE_TWINS(aabb)
LOBB_DECLARE_TWINS(center)
LOBB_DECLARE_TWINS(half_extents)
LOBB_DECLARE_TWINS(axes)
LOBB_DECLARE_TWINS(clone)
LOBB_DECLARE_TWINS(transform)
LOBB_DECLARE_TWINS(set)
LOBB_DECLARE_TWINS(set_center)
LOBB_DECLARE_TWINS(set_half_extents)
LOBB_DECLARE_TWINS(translate)
LOBB_DECLARE_TWINS(rotate)
LOBB_DECLARE_TWINS(eq)
int box2_angle(lua_State *L);
int box3_rotation(lua_State *L);
int box2_set_angle(lua_State *L);
int box3_set_rotation(lua_State *L);
int box2_tostring(lua_State *L);
int box3_tostring(lua_State *L);
LOBB_DECLARE_TWINS(raycast)          /* lobb_query.c */
LOBB_DECLARE_TWINS(closest_point)
LOBB_DECLARE_TWINS(distance)
LOBB_DECLARE_TWINS(signed_distance)
LOBB_DECLARE_TWINS(classify)
LOBB_DECLARE_TWINS(intersects_segment)
LOBB_DECLARE_TWINS(penetration)      /* lobb_collide.c */
LOBB_DECLARE_TWINS(contacts)
LOBB_DECLARE_TWINS(sweep)
int box2_intersects_circle(lua_State *L); /* lobb_query.c */
int box3_intersects_sphere(lua_State *L);
int box3_plane_side(lua_State *L);
int mod_merge(lua_State *L); /* obb.merge(a, b), also a:merge(b) */

/* The box types: their metatables at mt2 and mt3 filled, and their
** constructors and module functions set into the table at lib
** (lobb_types.c). */
void lobb_open_boxes(lua_State *L, int lib, int mt2, int mt3);
/* The world type, its metatable at mtw filled, and obb.world2/world3 set
** into the table at lib (lobb_world.c); worlds need a third metatable
** upvalue. Leaves the second half of the FFI fast path's add on the stack
** (src/binding/lobb_ffi.h, lobb_ffi_world_reserve), for lobb_open_jit. */
void lobb_open_world(lua_State *L, int lib, int mt2, int mt3, int mtw);

#endif
