-- luacheck configuration: `luacheck lua spec examples bench`.
-- The Lua code runs on every Lua from 5.1 to 5.4 and LuaJIT, so it may use
-- only what their union offers, and must guard the rest (table.unpack or
-- unpack, and so on).
std = "max"
max_line_length = 120

files["spec/**/*.lua"] = { std = "+busted" }

-- The embedded host calls this global function once a frame.
files["examples/embed/game.lua"] = { globals = { "frame" } }
-- The world host calls these, and gives the script host_add.
files["examples/embed/world_game.lua"] = {
  globals = { "step", "look", "add_from_filter", "done" }, read_globals = { "host_add" },
}

-- LÖVE calls back into functions the game sets on its global table.
files["examples/love/**/*.lua"] = { std = "+love" }
files["examples/love-platformer/**/*.lua"] = { std = "+love" }
files["examples/love-racing/**/*.lua"] = { std = "+love" }
files["test/love-ship/**/*.lua"] = { std = "+love" }

-- Maps in Tiled's Lua export format write one row of tiles per line.
files["examples/maps/*.lua"] = { max_line_length = false }
