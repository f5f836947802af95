-- make bench-windows: under wine, Windows LuaJIT's FFI fast path against
-- the classic binding, in one run (the rows bench/pairs.lua and
-- bench/sweeps.lua print when obb.jit.status is "ffi": a ratio above 1x
-- says the fast path is on and pays). LUA_PATH holds ./bench/?.lua and
-- LUA_CPATH the Windows benchc.dll (bench/emptyc.c); mk/windows.mk sets both.
local obb = require "obb"
local report = require "report"
local status = require("obb.jit").status
print(("obb benchmarks under wine: %s, Windows x86-64, obb.jit.status %s, %s"):format(
  jit and jit.version or _VERSION, status, os.date("!%Y-%m-%d %H:%M UTC")))
assert(obb.obb2, "obb did not load")
report.header()
require("pairs").run()
require("sweeps").run()
