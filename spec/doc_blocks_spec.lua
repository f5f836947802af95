-- Every code block marked ```lua in README.md and docs/*.md runs, and
-- shows what it gives: a line `print(...) --> text` must print text, and
-- a line `[local] a, b = ... --> x, y` must leave a and b equal to x and y
-- (a trailing " (...)" after the text is a comment; numbers compare as
-- numbers, so 1 and 1.0 agree across Lua versions, and `0.408...` as a
-- prefix). So the documentation cannot drift from the code. A block runs
-- in an environment of its own with `obb` already required and a `love`
-- table (blocks for LÖVE define its callbacks; LÖVE itself is not here);
-- a block whose first line is `-- continues` runs after the blocks before
-- it in the same file.
local H = require "spec.helpers"

local FILES = { "README.md" }
do -- docs/*.md, in a stable order, without a directory library
  local p = io.popen("ls docs/*.md 2>/dev/null")
  if p then
    for name in p:lines() do FILES[#FILES + 1] = name end
    p:close()
  end
end

-- The ```lua blocks of a file: { text =, line = } each.
local function blocks(path)
  local f = assert(io.open(path, "r"))
  local list, cur, n = {}, nil, 0
  for line in f:lines() do
    n = n + 1
    if cur then
      if line:match("^%s*```%s*$") then
        list[#list + 1] = cur
        cur = nil
      else
        cur.lines[#cur.lines + 1] = line
      end
    elseif line:match("^%s*```lua%s*$") then
      cur = { lines = {}, line = n + 1 }
    end
  end
  f:close()
  return list
end

-- The expected text of a `-->` line, its comment left out.
local function expected(line)
  local want = line:match("%-%->%s*(.-)%s*$")
  return (want:gsub("%s+%b()$", ""))
end

local function same_text(got, want)
  if got == want then return true end
  local a, b = {}, {}
  for w in got:gsub("[,()]", " "):gmatch("%S+") do a[#a + 1] = w end
  for w in want:gsub("[,()]", " "):gmatch("%S+") do b[#b + 1] = w end
  if #a ~= #b then return false end
  for i = 1, #a do
    local prefix = b[i]:match("^(.-)%.%.%.$")
    local x, y = tonumber(a[i]), tonumber(b[i])
    if prefix then
      if a[i]:sub(1, #prefix) ~= prefix then return false end
    elseif x and y then
      if math.abs(x - y) > 1e-9 * math.max(1, math.abs(y)) then return false end
    elseif a[i] ~= b[i] then
      return false
    end
  end
  return true
end

-- Runs block b (its lines), checking each `-->` line's print.
local function run(b, name)
  local checks, src = {}, {}
  for i, line in ipairs(b.lines) do
    local at = line:find("-->", 1, true)
    if at and line:match("^%s*print%(") then
      checks[i] = expected(line)
      line = line:gsub("^(%s*)print%(", "%1__check(" .. i .. ", ", 1)
    elseif at then
      local names = line:sub(1, at - 1):match("^%s*local%s+([%w_,%s]-)%s*=[^=]")
        or line:sub(1, at - 1):match("^%s*([%w_][%w_,%s]-)%s*=[^=]")
      if names then -- the assignment, then a check of what it assigned
        checks[i] = expected(line)
        line = line:sub(1, at - 1) .. " __check(" .. i .. ", " .. names .. ") " .. line:sub(at)
      end
    end
    src[i] = line
  end
  local seen = {}
  local env = setmetatable({
    obb = require "obb",
    love = {},
    print = function() end,
    __check = function(i, ...)
      local parts = {}
      for k = 1, select("#", ...) do parts[k] = tostring((select(k, ...))) end
      local got = table.concat(parts, " ")
      seen[i] = true
      if not same_text(got, checks[i]) then
        error(("%s line %d: printed %q, the doc says %q"):format(
          name, b.line + i - 1, got, checks[i]), 2)
      end
    end,
  }, { __index = _G })
  local chunk, err = (loadstring or load)(table.concat(src, "\n"), "=" .. name, "t", env)
  if not chunk then error(err, 0) end
  if setfenv then setfenv(chunk, env) end
  local ok, msg = pcall(chunk)
  if not ok then error(name .. " (block at line " .. b.line .. "): " .. tostring(msg), 0) end
  for i in pairs(checks) do
    if not seen[i] then error(name .. " line " .. (b.line + i - 1) .. ": never printed", 0) end
  end
end

describe("the documentation's Lua blocks", function()
  for _, path in ipairs(FILES) do
    local list = blocks(path)
    if #list > 0 then
      it(path .. ": " .. #list .. " blocks run and print what they show", function()
        local carried = {}
        for k, b in ipairs(list) do
          if b.lines[1] and b.lines[1]:match("^%-%- continues") then
            local all = {}
            for _, l in ipairs(carried) do all[#all + 1] = l end
            for _, l in ipairs(b.lines) do all[#all + 1] = l end
            run({ lines = all, line = b.line - #carried }, path)
          else
            run(b, path)
            carried = {}
          end
          for _, l in ipairs(b.lines) do carried[#carried + 1] = l end
          assert.is_true(k >= 1)
        end
      end)
    end
  end
  it("finds the blocks", function()
    assert.is_true(#blocks("README.md") > 0)
    assert.is_true(same_text("1.0 true", "1 true"))
    assert.is_false(same_text("2 true", "1 true"))
    assert.equal("false", expected("print(x)   --> false (sqrt(2) + 1 < 2.5)"))
    assert.is_true(same_text("0.40816 -1", "0.408..., -1"))
    assert.is_false(same_text("0.41816 -1", "0.408..., -1"))
    assert.is_nil(H.unpack({}))
  end)
end)
