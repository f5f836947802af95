-- spec/ffi_cdef_spec.lua: the declarations of the LuaJIT fast path
-- (lua/obb/jit.lua) are include/obb.h's and src/binding/lobb_ffi.h's (the
-- binding's internal header for them), word for word (spec/ffi_check.lua,
-- also `make check-ffi`). Runs on every Lua: the header can drift whichever
-- one CI tests with. Needs a C compiler for the preprocessor ($CC or cc).
describe("obb.jit's cdef", function()
  it("matches include/obb.h and src/binding/lobb_ffi.h", function()
    local check = dofile("spec/ffi_check.lua")
    local ok, msg = check(os.getenv("CC") or "cc")
    assert(ok, msg)
  end)
end)
