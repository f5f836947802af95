-- The LÖVE platformer's game logic (examples/love-platformer/game.lua) on
-- plain Lua: the same scripted play, for the same frames, with the same
-- checks as `make love-test` runs in LÖVE (docs/love.md, "The platformer").
package.path = "./examples/love-platformer/?.lua;" .. package.path
local game = require "game"

describe("the LÖVE platformer on world:move", function()
  it("plays its script to the goal: every coin, no snag, never inside a solid", function()
    local ok, why, g = game.play(game.CI_FRAMES)
    assert(ok, why)
    local st = g.stats
    assert.is_true(st.goal_frame < game.CI_FRAMES)
    assert.equal(#g.coins, st.coins)
    assert.equal(0, g.coins_left)
    for _, c in ipairs(g.coins) do assert.is_false(g.world:has(c)) end
    assert.is_truthy(st.stood[20] and st.stood[35] and st.stood.oneway)
    assert.is_true(st.flat_steps >= 200)
    assert.is_true(st.crouched_under_bar > 0)
    assert.equal(0, st.bar_hits)
    -- it stopped on the last ledge, standing, at rest
    local p = g.player
    assert.is_true(p.grounded and not p.crouched and p.x >= game.GOAL_X)
    assert.equal(0, p.vx)
  end)

  it("the same run every time (fixed step, fixed script)", function()
    local _, _, a = game.play(game.CI_FRAMES)
    local _, _, b = game.play(game.CI_FRAMES)
    assert.same({ a.player.x, a.player.y, a.stats.goal_frame }, { b.player.x, b.player.y, b.stats.goal_frame })
  end)

  it("the checks catch a player that does not duck under the bar", function()
    local g, input = game.new(), {}
    local why
    for _ = 1, game.CI_FRAMES do
      g:autoplay(input)
      input.crouch = false
      g:step(input)
      why = g:check_step()
      if why then break end
    end
    assert.matches("the bar hit the player", why)
  end)

  it("the one-way platform: jumped through from below, stood on from above", function()
    local g, input = game.new(), {}
    local inside_from_below = false
    for _ = 1, game.CI_FRAMES do
      g:step(g:autoplay(input))
      assert.is_nil(g:check_step())
      local p = g.player
      local n = g.world:collisions(p, g.col_out, function(o) return o == g.oneway end)
      if n > 0 and p.y - p.hy < g.oneway.top - 0.1 then inside_from_below = true end
      if g.stats.stood.oneway then break end
    end
    assert.is_true(inside_from_below)
    assert.is_truthy(g.stats.stood.oneway)
  end)

  it("makes no garbage per step", function()
    local g, input = game.new(), {}
    for _ = 1, 10 do g:step(g:autoplay(input)) end -- the world's scratch grows at the first contacts
    local jit = rawget(_G, "jit")
    if jit then jit.flush(); jit.off() end -- count the steps, not the trace compiler's work
    collectgarbage("collect")
    collectgarbage("stop")
    -- a full collection shrinks the thread's stack, and the first move
    -- after it grows the stack again (1 KiB on Lua 5.3): not counted
    g:step(g:autoplay(input))
    local before = collectgarbage("count")
    for _ = 12, game.CI_FRAMES do
      g:step(g:autoplay(input))
      assert(not g:check_step())
    end
    local kib = collectgarbage("count") - before
    collectgarbage("restart")
    if jit then jit.on() end
    assert.is_truthy(g.stats.goal_frame)
    assert.is_true(kib < 0.5, kib .. " KiB in " .. (game.CI_FRAMES - 11) .. " steps")
  end)
end)
