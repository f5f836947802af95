# ---- a shipped LÖVE game loads obb ------------------------------------------
# Included from the Makefile.
#
#   make love-ship-test  test/love-ship/ packed, with the Lua files
#                     docs/love.md's table lists, as a .love with the
#                     module inside (lib/linux-x86_64/obb.so) and as a fused
#                     executable with obb.so beside it, each run headless
#                     under xvfb-run from another folder, where a plain
#                     require does not find obb: obb.loader must load it
#                     (from the save directory's copy, from beside the
#                     executable), on the FFI path; and the .love without
#                     obb/jit_world.lua, which must load obb on the classic
#                     binding and say why (test/love-ship.sh, which
#                     installs love and xvfb when missing).
#                     docs/love.md, "Shipping a game with obb".
.PHONY: love-ship-test
love-ship-test:
	sh test/love-ship.sh
