-- obb.jit_sigs: the data of the LuaJIT FFI fast path (lua/obb/jit.lua):
-- the C declarations it uses, and one row per fast method of obb.obb2 and
-- obb.obb3 from which jit.lua generates the wrappers. Data only: no FFI,
-- no module state. spec/jit_spec.lua reads the rows for its argument
-- shapes, spec/ffi_cdef_spec.lua the declarations against the headers,
-- and a spec holds docs/love.md's list of fast methods to the rows.

local M = {}

-- The declarations the FFI uses, copied from include/obb.h and the
-- binding's internal src/binding/lobb_ffi.h (OBB_API, LOBB_FFI left out). `make check-ffi` and
-- spec/ffi_cdef_spec.lua (spec/ffi_check.lua)
-- fail if any of them is not in the preprocessed header word for word.
M.cdef = [[
typedef enum obb_status {
  OBB_OK = 0,
  OBB_ENOTFINITE,
  OBB_ENEGATIVE,
  OBB_EZERO,
  OBB_ENOTORTHO,
  OBB_ENOTAFFINE,
  OBB_EEMPTY
} obb_status;
typedef struct obb2 {
  double c[2];
  double u[2];
  double e[2];
} obb2;
typedef struct obb3 {
  double c[3];
  double u[3][3];
  double e[3];
} obb3;
obb_status obb2_set_angle(obb2 *b, double angle);
double obb2_angle(const obb2 *b);
obb_status obb2_translate(obb2 *b, const double d[2]);
obb_status obb2_rotate(obb2 *b, double angle);
int obb2_contains_point(const obb2 *b, const double p[2]);
int obb2_contains_box(const obb2 *outer, const obb2 *inner);
void obb2_corners(const obb2 *b, double out[8]);
obb_status obb3_init(obb3 *b, const double c[3], const double e[3],
                     const double q[4]);
obb_status obb3_set_rotation(obb3 *b, const double q[4]);
void obb3_rotation(const obb3 *b, double q[4]);
obb_status obb3_translate(obb3 *b, const double d[3]);
obb_status obb3_rotate(obb3 *b, const double q[4]);
int obb3_contains_point(const obb3 *b, const double p[3]);
int obb3_contains_box(const obb3 *outer, const obb3 *inner);
void obb3_corners(const obb3 *b, double out[24]);
int obb2_raycast(const obb2 *b, const double o[2], const double d[2],
                 double max_t, double *t, double n[2]);
int obb3_raycast(const obb3 *b, const double o[3], const double d[3],
                 double max_t, double *t, double n[3]);
void obb2_closest_point(const obb2 *b, const double p[2], double out[2]);
double obb2_distance_point(const obb2 *b, const double p[2]);
void obb3_closest_point(const obb3 *b, const double p[3], double out[3]);
double obb3_distance_point(const obb3 *b, const double p[3]);
double obb2_distance(const obb2 *a, const obb2 *b, double pa[2],
                     double pb[2]);
double obb3_distance(const obb3 *a, const obb3 *b, double pa[3],
                     double pb[3]);
int obb2_intersects_circle(const obb2 *b, const double c[2], double r);
int obb3_intersects_sphere(const obb3 *b, const double c[3], double r);
int obb2_overlaps(const obb2 *a, const obb2 *b);
int obb3_overlaps(const obb3 *a, const obb3 *b);
int obb2_penetration(const obb2 *a, const obb2 *b, double n[2],
                     double *depth);
int obb3_penetration(const obb3 *a, const obb3 *b, double n[3],
                     double *depth);
int lobb_ffi_world_update(void *world, double id, const double *v,
                                   int nv);
int lobb_ffi_world_reserve(void *world, const double *v, int nv);
int lobb_ffi_world_get(void *world, double id, double *out);
int lobb_ffi_world_character(void *world, double id, double *out);
int lobb_ffi_world_move(void *world, double id, const double *v,
                                 int nv, int response,
                                 const void *responses, double *hits,
                                 int cap, double *actual, int commit);
enum lobb_ffi_answer {
  LOBB_FFI_ASKING = -4,
  LOBB_FFI_REFUSED = -5,
  LOBB_FFI_FULL = -3
};
int lobb_ffi_world_move_ask(void *world, double id, const double *v,
                                     int nv, double *hits, int cap,
                                     double *actual, int commit);
int lobb_ffi_world_answer(void *world, int serial, int response,
                                   double *hits, int cap, double *actual,
                                   int commit);
void lobb_ffi_world_drop(void *world, int serial);
int lobb_ffi_world_commit(void *world, double id, double stamp,
                                   double ticket);
int lobb_ffi_world_recommit(void *world, double id, const double *v,
                                     int nv, const double *answers,
                                     int nanswers, double stamp);
int lobb_ffi_world_cast(void *world, const void *box,
                                 const double *d, int dim,
                                 const void *responses, double *hits,
                                 int cap);
int lobb_ffi_world_cast_turning(void *world, const void *box,
                                         const double *d, const double *turn,
                                         int dim, const void *responses,
                                         double *hits, int cap);
int lobb_ffi_world_raycast(void *world, const double *o,
                                    const double *d, double maxt, int dim,
                                    const void *responses, double *hits,
                                    int cap);
int lobb_ffi_world_query_box(void *world, const void *box, int dim,
                                      const void *responses, double *ids,
                                      int cap);
int lobb_ffi_world_query_point(void *world, const double *p,
                                        int dim, const void *responses,
                                        double *ids, int cap);
int lobb_ffi_world_events(void *world, double *out, int cap,
                                   double *info);
int lobb_ffi_world_events_done(void *world, double takes, int n,
                                        double *released);
enum {
  OBB_IGNORE = 0,
  OBB_TOUCH,
  OBB_CROSS,
  OBB_SLIDE,
  OBB_BOUNCE
};
enum lobb_ffi_record {
  LOBB_FFI_MOVE_RECORD = 10,
  LOBB_FFI_CAST_RECORD = 5
};
enum {
  OBB_RIDE = 5,
  OBB_STAND,
  OBB_PUSH,
  OBB_ONEWAY,
  OBB_CRUSH
};
enum lobb_ffi_solid { LOBB_FFI_SOLID_RECORD = 10 };
int lobb_ffi_world_move_solid(void *world, double id,
                                       const double *v, int nv, int response,
                                       const void *responses, int mresponse,
                                       const void *mresponses, double *hits,
                                       int cap, double *out, int commit);
int lobb_ffi_world_redo_solid(void *world, double id, double stamp,
                                       const double *hits, int n);
int lobb_ffi_intersects2(const void *a, const void *b);
int lobb_ffi_intersects3(const void *a, const void *b);
int lobb_ffi_bump_rect(void *world, double id, double x, double y,
                                double w, double h);
int lobb_ffi_bump_update(void *world, double id, double x,
                                  double y, double w, double h);
enum lobb_ffi_bump_record {
  LOBB_FFI_BUMP_ASK = 14,
  LOBB_FFI_BUMP_COL = 4
};
int lobb_ffi_bump_check(void *world, double id, const double *in,
                                 int all, int nfixed, int commit,
                                 double *asks, int ask_cap, double *cols,
                                 int col_cap, double *out);
int lobb_ffi_sweep2(const void *a, const void *b, const double *v,
                             int turning, double *out);
int lobb_ffi_sweep3(const void *a, const void *b, const double *v,
                             int turning, double *out);
]]

-- ---- the box methods -----------------------------------------------------
--
-- Every fast method of obb.obb2 and obb.obb3 is a row: its name, the
-- dimensions it exists in, and its forms. A form is the kinds of its
-- arguments (KINDS below) and a body, Lua source that runs once the
-- arguments are exactly what the classic method takes: it returns the
-- results, or falls through to the classic method. The wrappers are
-- generated from the rows as Lua source and loaded once, each its own
-- function (LuaJIT records traces per prototype: closures made by one
-- factory would share one). spec/jit_spec.lua reads the same rows for its
-- argument shapes, and docs/love.md's list of fast methods is checked
-- against them.
--
-- In a body: $1, $2, ... are the arguments of the form's first, second...
-- kind (a "pt" is 2 or 3 of them); $D is the dimension, $E and $U the
-- index of the half extents and of the axes in a box's doubles, $S a box's
-- size in bytes; ${a,b} is a in 2D and b in 3D; $vals(buf, i, n) is
-- buf[i], ..., buf[i+n-1] and $r(n) is r1, ..., rn. g is the wrapper's
-- generation (below), taken before any argument is looked at; a body that
-- reads a buffer back checks it (`gen == g`) before it returns.
--
-- The buffers: buf receives a box and its tag (is2, is3), p, d and e a
-- call's vectors (points, directions and quaternions, extents), out, pb
-- and t its results, sv a sweep's displacements and turns.

-- Argument kinds: how many arguments (a number, or one per dimension)
-- and the test each must pass; a `group` test takes them all at once.
M.KINDS = {
  box = { 1, each = "is$D(%s)" },              -- a box of the type (copied to buf)
  ud = { 1, each = "dressed(%s, mt$D)" },      -- one the C side checks by its tag
  ang = { 1, each = "fin(%s)" },               -- an angle
  ext = { 1, each = "extent(%s)" },            -- a number >= 0
  maxt = { 1, each = "maxt(%s)" },             -- nil, or a number >= 0 (inf too)
  pt = { { 2, 3 }, each = "fin(%s)" },         -- a point or a vector
  exts = { { 2, 3 }, each = "extent(%s)" },    -- half extents
  dir = { { 2, 3 }, each = "fin(%s)", group = "nonzero(%s)" },
  move = { { 4, 6 }, each = "fin(%s)" },       -- two displacements
  turns = { { 2, 6 }, each = "fin(%s)" },      -- two turns
  quat = { 4, group = "quat(%s)" },            -- a quaternion, stored in d
}

local RAYCAST = [[
  $vals(p, 0, $D), $vals(d, 0, $D) = $2, $3
  out[0], out[1], out[2], t[0] = 0, 0, 0, 0
  local r = lib.obb$D_raycast($1, p, d, %s, t, out)
  local tt, $r($D) = t[0], $vals(out, 0, $D)
  if gen == g then
    if r == 0 then return nil end
    return tt, $r($D), r == 2
  end]]
local SWEEP = [[
  $vals(sv, 0, ${4,6}) = $3%s
  local r = lib.lobb_ffi_sweep$D($1, $2, sv, %d, out)
  local $r(${3,4}) = $vals(out, 0, ${3,4})
  if gen == g then
    if r == 0 then return nil end
    if r == 1 then return $r(${3,4}) end
    if r == 2 then return $r(${3,4}), "limit" end
  end]]
local SET = [[
  $vals(buf, 0, $D), $vals(buf, $E, $D) = $2, $3%s
  if gen == g then
    copy($1, buf, $S)
    return $1
  end]]

M.signatures = {
  -- the pair tests, the hottest calls, copy nothing and need no generation
  { "intersects", nogen = true, { "ud ud", [[
    local r = lib.lobb_ffi_intersects$D($1, $2)
    if r >= 0 then return r ~= 0 end]] } },
  { "contains",
    { "box pt", [[
    $vals(p, 0, $D) = $2
    local r = lib.obb$D_contains_point($1, p)
    if gen == g then return r ~= 0 end]] },
    { "box box", "return lib.obb$D_contains_box($1, $2) ~= 0" } },
  { "overlaps", { "box box", "return lib.obb$D_overlaps($1, $2) ~= 0" } },
  { "penetration", { "box box", [[
    local hit = lib.obb$D_penetration($1, $2, out, t)
    local $r($D), depth = $vals(out, 0, $D), t[0]
    if gen == g then
      if hit == 0 then return nil end
      return $r($D), depth
    end]] } },
  { "distance",
    { "box pt", [[
    $vals(p, 0, $D) = $2
    local dist = lib.obb$D_distance_point($1, p)
    if gen == g then return dist end]] },
    { "box box", [[
    local dist = lib.obb$D_distance($1, $2, out, pb)
    local $r(${4,6}) = $vals(out, 0, $D), $vals(pb, 0, $D)
    if gen == g then return dist, $r(${4,6}) end]] } },
  { "closest_point", { "box pt", [[
    $vals(p, 0, $D) = $2
    lib.obb$D_closest_point($1, p, out)
    local $r($D) = $vals(out, 0, $D)
    if gen == g then return $r($D) end]] } },
  { "raycast", { "box pt dir", RAYCAST:format("huge") },
    { "box pt dir maxt", RAYCAST:format("$4 or huge") } },
  -- the C side checks the tags (and the numbers again) and answers as
  -- obbN_sweep or obbN_sweep_turning does: 0 none, 1 a hit, 2 "limit"
  { "sweep", { "ud ud move", SWEEP:format("", 0) },
    { "ud ud move turns", SWEEP:format("\n  $vals(sv, ${4,6}, ${2,6}) = $4", 1) } },
  { "intersects_circle", dims = 2, { "box pt ext", [[
    $vals(p, 0, 2) = $2
    local hit = lib.obb2_intersects_circle($1, p, $3)
    if gen == g then return hit ~= 0 end]] } },
  { "intersects_sphere", dims = 3, { "box pt ext", [[
    $vals(p, 0, 3) = $2
    local hit = lib.obb3_intersects_sphere($1, p, $3)
    if gen == g then return hit ~= 0 end]] } },
  -- accessors: is2/is3 copied the box into buf
  { "center", { "box", [[
    local $r($D) = $vals(buf, 0, $D)
    if gen == g then return $r($D) end]] } },
  { "half_extents", { "box", [[
    local $r($D) = $vals(buf, $E, $D)
    if gen == g then return $r($D) end]] } },
  { "axes", dims = 2, { "box", [[
    local ux, uy = $vals(buf, $U, 2)
    if gen == g then return ux, uy, -uy, ux end]] } },
  { "axes", dims = 3, { "box", [[
    local $r(9) = $vals(buf, $U, 9)
    if gen == g then return $r(9) end]] } },
  { "angle", dims = 2, nogen = true, { "box", "return lib.obb2_angle($1)" } },
  { "rotation", dims = 3, { "box", [[
    lib.obb3_rotation($1, out)
    local $r(4) = $vals(out, 0, 4)
    if gen == g then return $r(4) end]] } },
  { "corners", { "box", [[
    lib.obb$D_corners($1, out)
    local $r(${8,24}) = $vals(out, 0, ${8,24})
    if gen == g then return $r(${8,24}) end]] } },
  -- in-place updates: without an angle or a rotation the axes stay
  { "set", dims = 2, { "box pt exts", SET:format("") },
    { "box pt exts ang", SET:format("\n  st.obb2_set_angle(buf2, $4)") } },
  { "set", dims = 3, { "box pt exts", SET:format("") },
    { "box pt exts quat", [[
    $vals(p, 0, 3), $vals(e, 0, 3) = $2, $3
    if st.obb3_init(buf3, p, e, d) == 0 and gen == g then
      copy($1, buf, $S)
      return $1
    end]] } },
  { "set_center", { "box pt", [[
    $vals(p, 0, $D) = $2
    if gen == g then
      copy($1, p, ${16,24}) -- the center comes first
      return $1
    end]] } },
  { "set_angle", dims = 2, nogen = true, { "box ang", [[
    st.obb2_set_angle($1, $2)
    return $1]] } },
  { "set_rotation", dims = 3, { "box quat", [[
    if gen == g and st.obb3_set_rotation($1, d) == 0 then return $1 end]] } },
  { "translate", { "box pt", [[
    $vals(p, 0, $D) = $2
    if gen == g and st.obb$D_translate($1, p) == 0 then return $1 end]] } },
  { "rotate", dims = 2, nogen = true, { "box ang", [[
    if st.obb2_rotate($1, $2) == 0 then return $1 end]] } },
  { "rotate", dims = 3, { "box quat", [[
    if gen == g and st.obb3_rotate($1, d) == 0 then return $1 end]] } },
}


return M
