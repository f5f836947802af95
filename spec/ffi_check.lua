-- spec/ffi_check.lua: the C declarations of the LuaJIT fast path
-- (lua/obb/jit.lua, obb.jit's M.cdef) against the headers they come from:
-- the public include/obb.h and include/obb_world.h, and the binding's
-- internal src/binding/lobb_ffi.h, which includes them.
--
--   lua spec/ffi_check.lua [cc]      (`make check-ffi`; exit status 1 on drift)
--   dofile("spec/ffi_check.lua")(cc) -> true | false, report   (spec/)
--
-- The header goes through the C preprocessor (comments gone, OBB_API and
-- LOBB_FFI empty); both texts are cut into top-level declarations and spacing is
-- normalised. Every declaration in the cdef must appear in the header word
-- for word, parameter names included: a struct, an enum or a signature that
-- changes in include/obb.h, include/obb_world.h or src/binding/lobb_ffi.h
-- fails the check until the cdef is copied again.
-- The binding's FFI header, internal (it includes include/obb.h and
-- include/obb_world.h).
local HEADER = "src/binding/lobb_ffi.h"

local function normalise(text)
  text = text:gsub("%s+", " ")
  text = text:gsub(" ?([%(%)%[%]{},;%*=]) ?", "%1")
  return text
end

-- Top-level declarations (split at ';' outside braces), normalised.
local function declarations(text)
  local list, depth, start = {}, 0, 1
  text = normalise(text)
  for i = 1, #text do
    local ch = text:sub(i, i)
    if ch == "{" then depth = depth + 1
    elseif ch == "}" then depth = depth - 1
    elseif ch == ";" and depth == 0 then
      local decl = text:sub(start, i):gsub("^ ", "")
      if decl ~= ";" then list[#list + 1] = decl end
      start = i + 1
    end
  end
  return list
end

local function check(cc)
  cc = cc or "cc"
  local cdef = require("obb.jit").cdef
  -- LD_PRELOAD cleared: under `make sanitize` the sanitizer runtime is
  -- preloaded into Lua, and the compiler would run with it (and hang on a
  -- leak report whose symbolizer keeps the pipe open).
  local p = io.popen("LD_PRELOAD= " .. cc .. " -E -P -DOBB_API= -DLOBB_FFI= -Iinclude "
    .. HEADER .. " 2>&1")
  local header = p:read("*a")
  local ok = p:close()
  if not ok or not header:find("obb2_intersects", 1, true) then
    return false, "could not preprocess " .. HEADER .. " with " .. cc .. ":\n" .. header
  end
  local in_header = {}
  for _, d in ipairs(declarations(header)) do in_header[d] = true end
  local missing, count = {}, 0
  for _, d in ipairs(declarations(cdef)) do
    count = count + 1
    if not in_header[d] then missing[#missing + 1] = "  " .. d end
  end
  if count == 0 then return false, "obb.jit's cdef is empty" end
  if #missing > 0 then
    return false, "obb.jit's cdef differs from the headers (" .. HEADER .. " and what it includes) in:\n"
      .. table.concat(missing, "\n")
  end
  return true, ("obb.jit's cdef: %d declarations, each as %s (and include/) has it")
    :format(count, HEADER)
end

if arg and arg[0] and arg[0]:match("ffi_check%.lua$") then
  package.path = "./lua/?.lua;" .. package.path
  local ok, msg = check(arg[1])
  print(msg)
  os.exit(ok and 0 or 1)
end
return check
