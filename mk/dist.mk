# ---- release archives (issue 28) -------------------------------------------
#   make dist         dist/: one archive per platform (test/dist.sh): Linux
#                     x86-64 and ARM64 (.tar.gz, the modules for LuaJIT and
#                     Lua 5.4), Windows x86-64 for LuaJIT and LÖVE and for
#                     Lua 5.4 (.zip); each with lua/obb/, README, LICENSE and
#                     CHANGELOG, the modules stripped (--strip-unneeded, by
#                     each platform's strip; test/dist.sh checks it)
#   make dist-check   unpacks each and loads it on its platform: Linux x86-64
#                     here, ARM64 under qemu, Windows under wine
#                     (test/dist_check.sh)
# The version is the released rockspec's.
DIST_VERSION ?= $(patsubst obb-%-1.rockspec,%,$(filter-out obb-scm-1.rockspec,$(wildcard obb-*.rockspec)))

.PHONY: dist dist-check
dist:
	$(MAKE) --no-print-directory all LUA=luajit
	$(MAKE) --no-print-directory all LUA=lua5.4
	$(MAKE) --no-print-directory cross-arm64 cross-windows
	sh test/dist.sh $(DIST_VERSION)

dist-check: dist
	command -v python3 >/dev/null 2>&1 || apt-get install -y -qq python3 >/dev/null
	sh test/dist_check.sh $(DIST_VERSION)
