-- examples/maps/platformer.lua: the level of the LÖVE platformer
-- (examples/love-platformer/game.lua), exported by Tiled 1.8 with
-- File > Export As > "Lua files (*.lua)" from platformer.tmx beside it
-- (edit that one in Tiled and export again; Tiled writes no comment:
-- this one was added by hand). docs/love.md, "The platformer".
--   ground   a tile layer: the floor, the walls at both ends, a ledge 2
--            high, a wall 2 high to jump, a ledge 1 high, the cliff the
--            elevator rises to, a ledge across the platform's gap, the
--            last ledge after the see-saw
--   solids   the ramps (class "ramp"), the one-way platform (oneway = true),
--            the spinning bar (kind = "bar", spin in radians per second),
--            the moving solids (kind = "mover": the elevator, the platform,
--            the crusher, named so; dx, dy, go, hold, back, rest, phase)
--            the see-saw (kind = "seesaw": tilt, rate, lean), and two
--            blocks (class "block"): the step, 8 px high, that the player
--            walks up (the character kit's step), and the ledge, 102 px
--            high, 1.2 px above the top of the player's jump: it gets
--            onto it by the kit's corner correction
--   coins    four coins (coin = true)
--   markers  points: the start (the player's feet), a checkpoint, the goal
-- 101 x 9 tiles of 32 pixels, y down. The game reads one tile as one unit,
-- y up: x = origin_x + px / 32, y = origin_y + 9 - py / 32, with the map's
-- properties origin_x = -3, origin_y = -1.
-- Each ramp is one rectangle whose long side is the slope, turned about
-- its top-left corner (Tiled's `rotation`, degrees clockwise on screen),
-- and that corner is where the slope meets a ledge, the one point that
-- must be exact: 20 up hangs from the ledge's corner (a 32 px thick
-- rectangle turned 70 degrees, its left side the slope), 35 down starts
-- at the ledge's other corner (turned 35), 35 up hangs from the last
-- ledge (turned 55). Each is a little longer than its slope, so that its
-- far end sinks into the floor (Tiled writes 6 significant digits). The
-- game cuts a ramp into `pieces` boxes laid end to end.
return {
  version = "1.5",
  luaversion = "5.1",
  tiledversion = "1.8.2",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 101,
  height = 9,
  tilewidth = 32,
  tileheight = 32,
  nextlayerid = 5,
  nextobjectid = 19,
  properties = {
    ["origin_x"] = -3,
    ["origin_y"] = -1
  },
  tilesets = {
    {
      name = "blocks",
      firstgid = 1,
      tilewidth = 32,
      tileheight = 32,
      spacing = 0,
      margin = 0,
      columns = 1,
      image = "blocks.png",
      imagewidth = 32,
      imageheight = 32,
      objectalignment = "unspecified",
      tileoffset = {
        x = 0,
        y = 0
      },
      grid = {
        orientation = "orthogonal",
        width = 32,
        height = 32
      },
      properties = {},
      wangsets = {},
      tilecount = 1,
      tiles = {
        {
          id = 0,
          type = "block",
          properties = {
            ["collidable"] = true
          }
        }
      }
    }
  },
  layers = {
    {
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 101,
      height = 9,
      id = 1,
      name = "ground",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      encoding = "lua",
      data = {
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 2,
      name = "solids",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 1,
          name = "20 up",
          type = "ramp",
          shape = "rectangle",
          x = 736,
          y = 192,
          width = 32,
          height = 187.124,
          rotation = 70,
          visible = true,
          properties = {
            ["pieces"] = 3
          }
        },
        {
          id = 2,
          name = "35 down",
          type = "ramp",
          shape = "rectangle",
          x = 992,
          y = 192,
          width = 111.581,
          height = 32,
          rotation = 35,
          visible = true,
          properties = {
            ["pieces"] = 2
          }
        },
        {
          id = 3,
          name = "35 up",
          type = "ramp",
          shape = "rectangle",
          x = 1920,
          y = 224,
          width = 32,
          height = 55.7903,
          rotation = 55,
          visible = true,
          properties = {}
        },
        {
          id = 4,
          name = "one-way",
          type = "platform",
          shape = "rectangle",
          x = 1152,
          y = 176,
          width = 128,
          height = 8,
          rotation = 0,
          visible = true,
          properties = {
            ["oneway"] = true
          }
        },
        {
          id = 5,
          name = "bar",
          type = "",
          shape = "rectangle",
          x = 1462.4,
          y = 158.4,
          width = 115.2,
          height = 9.6,
          rotation = 0,
          visible = true,
          properties = {
            ["kind"] = "bar",
            ["spin"] = -4
          }
        },
        {
          id = 13,
          name = "elevator",
          type = "",
          shape = "rectangle",
          x = 2208,
          y = 224,
          width = 64,
          height = 8,
          rotation = 0,
          visible = true,
          properties = {
            ["back"] = 2,
            ["dy"] = 4,
            ["go"] = 2,
            ["hold"] = 1,
            ["kind"] = "mover",
            ["rest"] = 1.5
          }
        },
        {
          id = 14,
          name = "platform",
          type = "",
          shape = "rectangle",
          x = 2528,
          y = 96,
          width = 96,
          height = 8,
          rotation = 0,
          visible = true,
          properties = {
            ["back"] = 2,
            ["dx"] = 5,
            ["go"] = 2,
            ["hold"] = 1,
            ["kind"] = "mover",
            ["rest"] = 1
          }
        },
        {
          id = 15,
          name = "crusher",
          type = "",
          shape = "rectangle",
          x = 2368,
          y = 0,
          width = 64,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {
            ["back"] = 1,
            ["dy"] = -2,
            ["go"] = 0.25,
            ["hold"] = 0.5,
            ["kind"] = "mover",
            ["phase"] = 1.28,
            ["rest"] = 1.25
          }
        },
        {
          id = 16,
          name = "see-saw",
          type = "",
          shape = "rectangle",
          x = 2860.8,
          y = 96,
          width = 166.4,
          height = 6.4,
          rotation = 0,
          visible = true,
          properties = {
            ["kind"] = "seesaw",
            ["lean"] = 0.15,
            ["rate"] = 1.2,
            ["tilt"] = 0.35
          }
        },
        {
          id = 17,
          name = "step",
          type = "block",
          shape = "rectangle",
          x = 160,
          y = 248,
          width = 80,
          height = 8,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 18,
          name = "ledge",
          type = "block",
          shape = "rectangle",
          x = 416,
          y = 154,
          width = 64,
          height = 102,
          rotation = 0,
          visible = true,
          properties = {}
        }
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 3,
      name = "coins",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 6,
          name = "",
          type = "coin",
          shape = "rectangle",
          x = 200,
          y = 220.8,
          width = 16,
          height = 16,
          rotation = 0,
          visible = true,
          properties = {
            ["coin"] = true
          }
        },
        {
          id = 7,
          name = "",
          type = "coin",
          shape = "rectangle",
          x = 1208,
          y = 139.2,
          width = 16,
          height = 16,
          rotation = 0,
          visible = true,
          properties = {
            ["coin"] = true
          }
        },
        {
          id = 8,
          name = "",
          type = "coin",
          shape = "rectangle",
          x = 1512,
          y = 235.2,
          width = 16,
          height = 16,
          rotation = 0,
          visible = true,
          properties = {
            ["coin"] = true
          }
        },
        {
          id = 9,
          name = "",
          type = "coin",
          shape = "rectangle",
          x = 1832,
          y = 228.8,
          width = 16,
          height = 16,
          rotation = 0,
          visible = true,
          properties = {
            ["coin"] = true
          }
        }
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 4,
      name = "markers",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 10,
          name = "start",
          type = "",
          shape = "point",
          x = 128,
          y = 256,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 11,
          name = "checkpoint",
          type = "",
          shape = "point",
          x = 1376,
          y = 256,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 12,
          name = "goal",
          type = "",
          shape = "point",
          x = 3136,
          y = 128,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        }
      }
    }
  }
}
