/*
** lobb_ffi_box.c: the box entry points of the LuaJIT FFI fast path
** (src/binding/lobb_ffi.h): the pair test with the box check done here, on
** the userdata's own bytes, and the sweeps, which check the tags the same
** way.
**
** jit.lua has already checked that both values are userdata carrying the
** box metatable; what remains is the tag after the box, which
** debug.setmetatable cannot forge (lobb_box.h). Reading it here costs two
** compares, where recognising a box in Lua means copying its bytes into a
** scratch buffer first (a cast of the userdata would allocate a pointer
** whenever the code runs interpreted).
*/
#include "lobb_box.h"
#include "lobb_ffi.h"
#include "obb_math.h"

int lobb_ffi_intersects2(const void *a, const void *b) {
  const lobb_ud2 *ua = (const lobb_ud2 *)a, *ub = (const lobb_ud2 *)b;
  if (ua->tag != LOBB_TAG2 || ub->tag != LOBB_TAG2) return -1;
  return obb2_intersects(&ua->box, &ub->box);
}

int lobb_ffi_intersects3(const void *a, const void *b) {
  const lobb_ud3 *ua = (const lobb_ud3 *)a, *ub = (const lobb_ud3 *)b;
  if (ua->tag != LOBB_TAG3 || ub->tag != LOBB_TAG3) return -1;
  return obb3_intersects(&ua->box, &ub->box);
}

int lobb_ffi_sweep2(const void *a, const void *b, const double *v,
                    int turning, double *out) {
  const lobb_ud2 *ua = (const lobb_ud2 *)a, *ub = (const lobb_ud2 *)b;
  if (ua->tag != LOBB_TAG2 || ub->tag != LOBB_TAG2 ||
      !obb_all_finite(v, turning ? 6 : 4))
    return -1;
  if (!turning) return obb2_sweep(&ua->box, &ub->box, v, v + 2, out, out + 1);
  return obb2_sweep_turning(&ua->box, &ub->box, v, v + 2, v[4], v[5], out,
                            out + 1);
}

int lobb_ffi_sweep3(const void *a, const void *b, const double *v,
                    int turning, double *out) {
  const lobb_ud3 *ua = (const lobb_ud3 *)a, *ub = (const lobb_ud3 *)b;
  if (ua->tag != LOBB_TAG3 || ub->tag != LOBB_TAG3 ||
      !obb_all_finite(v, turning ? 12 : 6))
    return -1;
  if (!turning) return obb3_sweep(&ua->box, &ub->box, v, v + 3, out, out + 1);
  return obb3_sweep_turning(&ua->box, &ub->box, v, v + 3, v + 6, v + 9, out,
                            out + 1);
}
