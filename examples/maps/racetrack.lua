-- examples/maps/racetrack.lua: a small top-down race track in the format
-- Tiled writes with File > Export As > "Lua files (*.lua)" (Tiled 1.10),
-- written by hand for obb.tiled's example and spec (docs/tiled.md,
-- "Classes"): what a racer's map holds, with Tiled types and classes.
--   barriers   a tile layer of class "wall" (Tiled 1.9+: a layer's class):
--              the track's outer edge, tiles without a type of their own
--   pads       a tile layer: two boost pads, tiles of type "boost"
--   track      an object layer: the infield and a chicane (type "wall"),
--              the finish line and a checkpoint (type "checkpoint", each
--              with its `order`), the start grid (four points of type
--              "start"), the pit lane (type "pit") and an oil slick (an
--              ellipse, reported as skipped)
--   decor      an object layer without the collidable property: a title
--              (text) and a grandstand
-- 20 x 12 tiles of 32 pixels: 640 x 384 pixels, y down; cars drive
-- clockwise on screen, the bottom straight to the right. The tileset's
-- image (track.png) does not ship: the map is for collision.
return {
  version = "1.10",
  luaversion = "5.1",
  tiledversion = "1.10.2",
  class = "",
  orientation = "orthogonal",
  renderorder = "right-down",
  width = 20,
  height = 12,
  tilewidth = 32,
  tileheight = 32,
  nextlayerid = 5,
  nextobjectid = 13,
  properties = {},
  tilesets = {
    {
      name = "track",
      firstgid = 1,
      class = "",
      tilewidth = 32,
      tileheight = 32,
      spacing = 0,
      margin = 0,
      columns = 2,
      image = "track.png",
      imagewidth = 64,
      imageheight = 32,
      objectalignment = "unspecified",
      tilerendersize = "tile",
      fillmode = "stretch",
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
      tilecount = 2,
      tiles = {
        {
          id = 0,
          properties = {
            ["collidable"] = true
          }
        },
        {
          id = 1,
          type = "boost",
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
      width = 20,
      height = 12,
      id = 1,
      name = "barriers",
      class = "wall",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {
        ["collidable"] = true
      },
      encoding = "lua",
      data = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
      }
    },
    {
      type = "tilelayer",
      x = 0,
      y = 0,
      width = 20,
      height = 12,
      id = 2,
      name = "pads",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {
        ["collidable"] = true
      },
      encoding = "lua",
      data = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 3,
      name = "track",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {
        ["collidable"] = true
      },
      objects = {
        {
          id = 1,
          name = "infield",
          type = "wall",
          shape = "rectangle",
          x = 160,
          y = 128,
          width = 320,
          height = 128,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 2,
          name = "chicane",
          type = "wall",
          shape = "rectangle",
          x = 544,
          y = 32,
          width = 88,
          height = 16,
          rotation = 45,
          visible = true,
          properties = {}
        },
        {
          id = 3,
          name = "finish",
          type = "checkpoint",
          shape = "rectangle",
          x = 128,
          y = 256,
          width = 8,
          height = 96,
          rotation = 0,
          visible = true,
          properties = {
            ["order"] = 0
          }
        },
        {
          id = 4,
          name = "checkpoint 1",
          type = "checkpoint",
          shape = "rectangle",
          x = 320,
          y = 32,
          width = 8,
          height = 96,
          rotation = 0,
          visible = true,
          properties = {
            ["order"] = 1
          }
        },
        {
          id = 5,
          name = "grid 1",
          type = "start",
          shape = "point",
          x = 96,
          y = 288,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 6,
          name = "grid 2",
          type = "start",
          shape = "point",
          x = 96,
          y = 320,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 7,
          name = "grid 3",
          type = "start",
          shape = "point",
          x = 64,
          y = 288,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 8,
          name = "grid 4",
          type = "start",
          shape = "point",
          x = 64,
          y = 320,
          width = 0,
          height = 0,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 9,
          name = "pit lane",
          type = "pit",
          shape = "rectangle",
          x = 544,
          y = 256,
          width = 64,
          height = 96,
          rotation = 0,
          visible = true,
          properties = {}
        },
        {
          id = 10,
          name = "oil",
          type = "oil",
          shape = "ellipse",
          x = 400,
          y = 304,
          width = 32,
          height = 16,
          rotation = 0,
          visible = true,
          properties = {}
        }
      }
    },
    {
      type = "objectgroup",
      draworder = "topdown",
      id = 4,
      name = "decor",
      class = "",
      visible = true,
      opacity = 1,
      offsetx = 0,
      offsety = 0,
      parallaxx = 1,
      parallaxy = 1,
      properties = {},
      objects = {
        {
          id = 11,
          name = "title",
          type = "",
          shape = "text",
          x = 192,
          y = 160,
          width = 256,
          height = 32,
          rotation = 0,
          visible = true,
          text = "Grand Prix",
          wrap = true,
          color = { 255, 255, 255 },
          properties = {}
        },
        {
          id = 12,
          name = "grandstand",
          type = "decor",
          shape = "rectangle",
          x = 192,
          y = 48,
          width = 96,
          height = 32,
          rotation = 0,
          visible = true,
          properties = {}
        }
      }
    }
  }
}
