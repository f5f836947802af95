-- test/love-ship/conf.lua: a small window, and only the modules the test
-- uses, so that it runs headless (Xvfb, no sound card, no joystick).
function love.conf(t)
  t.identity = "obb-love-ship"
  t.version = "11.0"
  t.window.title = "obb: shipped"
  t.window.width = 320
  t.window.height = 240
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
  t.modules.touch = false
end
