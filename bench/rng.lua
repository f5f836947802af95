-- bench/rng.lua: the benchmarks' random numbers: Park-Miller's minimal
-- standard generator, deterministic numbers in (0, 1) that every Lua
-- computes alike (its products stay below 2^53), so a scene is the same
-- on every interpreter and in bench/world_bench.c.
return function(seed)
  local s = seed
  return function()
    s = (s * 16807) % 2147483647
    return s / 2147483647
  end
end
