-- spec/doc_embed_spec.lua: the manual's section for C hosts
-- (docs/reference.md, "Embedding in a C engine") against the code.
--
-- Its ```c blocks are excerpts of examples/embed/world_host.c, which
-- `make embed-test` builds and runs: each block's lines must appear there
-- in a row, as they are (but for the indentation), so the manual shows
-- code that compiles and runs. And every function the binding's public
-- header (include/lobb.h) declares, with the core's functions for hosts
-- sharing a world, is named in the section.

local read = require("helpers").read

-- The lines of text, each without its indentation and trailing spaces.
local function lines(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    out[#out + 1] = line:match("^%s*(.-)%s*$")
  end
  return out
end

local MANUAL = read("docs/reference.md")
local SECTION = MANUAL:match("\n## Embedding in a C engine\n(.-)\n## ")
local EXAMPLE = lines(read("examples/embed/world_host.c"))

-- The ```c blocks of the section, as lists of lines.
local function c_blocks(text)
  local list = {}
  for body in text:gmatch("\n```c\n(.-)\n```") do list[#list + 1] = lines(body) end
  return list
end

-- Whether the lines of block appear in EXAMPLE in a row.
local function in_example(block)
  for start = 1, #EXAMPLE - #block + 1 do
    local same = true
    for i = 1, #block do
      if EXAMPLE[start + i - 1] ~= block[i] then
        same = false
        break
      end
    end
    if same then return true end
  end
  return false
end

describe("the manual's embedding section", function()
  it("exists", function()
    assert.is_string(SECTION)
  end)

  it("shows world_host.c's own code in its C blocks", function()
    local blocks = c_blocks(SECTION)
    assert.is_true(#blocks >= 2)
    for i, block in ipairs(blocks) do
      assert(in_example(block), ("C block %d is not examples/embed/world_host.c's code:\n%s")
        :format(i, table.concat(block, "\n")))
    end
  end)

  it("names every function of lobb.h and the core's for shared worlds", function()
    local names, missing = {}, {}
    for name in read("include/lobb.h"):gmatch("LOBB_API [^(]-([%w_]+)%(") do names[#names + 1] = name end
    assert.is_true(#names >= 14)
    for _, name in ipairs({ "obb_world_move_with", "obb_world_set_class", "obb_world_class",
                            "obb_response_name", "obb_response_code", "obb_move_calls" }) do
      names[#names + 1] = name
    end
    for _, name in ipairs(names) do
      if not SECTION:find("`" .. name, 1, true) and not SECTION:find(" " .. name .. "(", 1, true)
         and not SECTION:find("`obb_world *" .. name, 1, true) then
        missing[#missing + 1] = name
      end
    end
    assert.are.same({}, missing)
  end)
end)
