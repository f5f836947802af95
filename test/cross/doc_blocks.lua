-- spec/doc_blocks_spec.lua without busted, for interpreters that have
-- none (the Windows ones under wine: make test-windows). It gives the spec
-- the little of busted it uses (describe, it, assert.is_true / is_false /
-- is_nil / equal) and, in place of its `ls docs/*.md` (no ls under
-- Windows), the file names given as arguments:
--   lua test/cross/doc_blocks.lua docs/*.md
-- One line per block group, a summary, exit status 1 on any failure.
-- luacheck: globals describe it assert io
local files = { ... }
local real_popen = io.popen
io.popen = function(cmd, ...)
  if cmd:match("^ls docs/%*%.md") then
    local i = 0
    return { lines = function() return function() i = i + 1; return files[i] end end,
             close = function() return true end }
  end
  return real_popen(cmd, ...)
end

local function check(v, what)
  if not v then error(what, 3) end
end
assert = setmetatable({
  is_true = function(v) check(v == true, "expected true, got " .. tostring(v)) end,
  is_false = function(v) check(v == false, "expected false, got " .. tostring(v)) end,
  is_nil = function(v) check(v == nil, "expected nil, got " .. tostring(v)) end,
  equal = function(a, b) check(a == b, ("expected %s, got %s"):format(tostring(a), tostring(b))) end,
}, { __call = function(_, v, msg, ...) if not v then error(msg or "assertion failed!", 2) end return v, msg, ... end })

local tests, failed = {}, 0
function describe(_, body) body() end
function it(name, body) tests[#tests + 1] = { name = name, body = body } end

dofile("spec/doc_blocks_spec.lua")
io.popen = real_popen
for _, t in ipairs(tests) do
  local ok, err = pcall(t.body)
  print((ok and "ok   " or "FAIL ") .. t.name)
  if not ok then
    failed = failed + 1
    print("     " .. tostring(err))
  end
end
print(("doc blocks: %d of %d passed"):format(#tests - failed, #tests))
os.exit(failed == 0 and 0 or 1)
