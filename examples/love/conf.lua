-- examples/love/conf.lua: LÖVE 11 settings for the obb demo. Only what the
-- demo draws with is switched on, so it also runs headless in CI (Xvfb,
-- no sound card, no joystick).
function love.conf(t)
  t.identity = "obb-demo"
  t.version = "11.0"
  t.window.title = "obb: boxes in a world, on LuaJIT's FFI"
  t.window.width = 1024
  t.window.height = 768
  t.window.vsync = 0 -- the frame time on screen is the demo's, not the display's
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
  t.modules.touch = false
end
