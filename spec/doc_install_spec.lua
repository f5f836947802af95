-- What the documentation says about installing (docs/reference.md,
-- "LuaRocks"; README.md):
--   - every `luarocks ... make` and `luarocks ... test` command it gives
--     names a rockspec: the folder holds two, and with none named LuaRocks
--     takes the newest version, scm-1, and installs it over 1.0.0-1 (a bare
--     `luarocks make` may be named as what not to do, with nothing after);
--   - while the release rockspec's source is a placeholder host, the README
--     and the manual say that the rock is not on luarocks.org and how to
--     install it from a clone.

local read = require("helpers").read

local FILES = { "README.md" }
do
  local p = assert(io.popen("ls docs/*.md"))
  for name in p:lines() do FILES[#FILES + 1] = name end
  p:close()
end

-- The shell commands of a Markdown text: the lines of its ``` blocks and
-- its `code spans` (a span may wrap across lines).
local function commands(text)
  local out = {}
  local prose = text:gsub("\n```[^\n]*\n(.-)\n```", function(block)
    for line in block:gmatch("[^\n]+") do out[#out + 1] = line end
    return "\n"
  end)
  -- a span never leaves its paragraph
  for para in (prose .. "\n\n"):gmatch("(.-)\n%s*\n") do
    for span in para:gsub("%s+", " "):gmatch("`([^`]+)`") do out[#out + 1] = span end
  end
  return out
end

local function rockspec(path)
  local env = {}
  local chunk
  if rawget(_G, "setfenv") then
    chunk = assert(loadstring(read(path), path))
    setfenv(chunk, env)
  else
    chunk = assert(load(read(path), path, "t", env))
  end
  chunk()
  return env
end

describe("the documentation of installing", function()
  it("names the rockspec in every luarocks make and luarocks test", function()
    local n = 0
    for _, path in ipairs(FILES) do
      for _, cmd in ipairs(commands(read(path))) do
        local sub = cmd:match("luarocks%s.-%f[%w](make)%f[^%w]") or cmd:match("luarocks%s.-%f[%w](test)%f[^%w]")
        if sub and cmd ~= "luarocks " .. sub then
          n = n + 1
          assert(cmd:find("obb%-[%w.]+%-%d+%.rockspec"), path .. ": names no rockspec: " .. cmd)
        end
      end
    end
    assert.is_true(n >= 4, "found the commands")
  end)

  it("says the rock is not on luarocks.org while its source is a placeholder", function()
    local p = assert(io.popen("ls obb-[0-9]*.rockspec"))
    local release = p:read("*l")
    p:close()
    local url = rockspec(release).source.url
    if not url:find("example.invalid", 1, true) then return end -- a real source: published, maybe
    for _, path in ipairs({ "README.md", "docs/reference.md" }) do
      local text = read(path):gsub("%s+", " ")
      assert(text:find("not published on luarocks.org", 1, true), path .. " says the rock is not published")
      assert(text:find("make obb-1.0.0-1.rockspec", 1, true) or text:find("make --local obb-", 1, true),
             path .. " says how to install from a clone")
    end
  end)
end)
