-- `luarocks test`: the busted suite against the module `luarocks make`
-- left in the source directory, run by the Lua LuaRocks runs this with.
-- Debian's busted is a system command that LuaRocks cannot see as a rock,
-- so it is called directly, told which interpreter to use (its own default
-- is Lua 5.1). Extra arguments go to busted.
local i = -1
while arg[i - 1] do i = i - 1 end
local lua = arg[i] -- the interpreter itself, before any -e or -l options
local cmd = ("busted --lua=%q --run=luarocks"):format(lua)
for k = 1, #arg do cmd = cmd .. (" %q"):format(arg[k]) end
local ok, how, code = os.execute(cmd)
if type(ok) == "number" then code = ok; ok = code == 0 end -- Lua 5.1
if not ok then
  io.stderr:write(("luarocks test: busted failed (%s %s)\n"):format(tostring(how), tostring(code)))
  os.exit(1)
end
