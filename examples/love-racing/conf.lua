-- examples/love-racing/conf.lua: LÖVE 11 settings for the obb racing
-- game. Only what it draws with is switched on, so it also runs headless
-- in CI (Xvfb, no sound card, no joystick).
function love.conf(t)
  t.identity = "obb-racing"
  t.version = "11.0"
  t.window.title = "obb: a racing game on world:move's turning form"
  t.window.width = 1024
  t.window.height = 768
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
  t.modules.touch = false
end
