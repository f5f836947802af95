# ---- Windows x86-64, cross-built with MinGW-w64, tested under wine ----------
# Included from the Makefile (its WARNFLAGS, FPFLAGS, OPTFLAGS, INCLUDES,
# sources and headers). Everything comes from Debian: the cross compiler,
# wine, and the Windows interpreters built here from Debian's own source
# packages of LuaJIT and Lua 5.4 (test/cross/deps.sh fetches them).
#
#   make cross-windows  build/windows-x86_64/luajit/{luajit.exe,lua51.dll,obb.dll,run}
#                       and build/windows-x86_64/lua5.4/{lua.exe,lua54.dll,obb.dll,run}:
#                       obb.dll built twice from src/ with the Linux flags,
#                       linked to lua51.dll (the DLL LÖVE ships) and to lua54.dll.
#                       `<folder>/run script.lua [args]` runs a script under
#                       wine with that interpreter and module, lua/ on
#                       package.path (test/cross/run.sh).
#   make check-exports-windows  each obb.dll exports what the Linux obb.so
#                       of the same Lua does, and nothing else
#   make check-avx-windows  no aligned AVX spill in obb's Windows objects
#   make test-windows   the checks above, then under wine, on both: the
#                       examples, the docs' Lua blocks, obb.jit's status
#                       ("ffi" under LuaJIT), finalizers calling obb at
#                       lua_close, and the determinism digest byte for byte
#                       the Linux one of the same Lua (LuaJIT: on both
#                       paths) (test/cross/test.sh)
#   make bench-windows  LuaJIT under wine: the FFI path against the classic
#                       binding, in one run (bench/pairs.lua and
#                       bench/sweeps.lua's rows; test/cross/bench.lua)
WIN_CROSS   ?= x86_64-w64-mingw32-
WIN_CC      ?= $(WIN_CROSS)gcc
WIN_OBJDUMP ?= $(WIN_CROSS)objdump
WIN_CFLAGS  ?= $(OPTFLAGS)
WIN_SRC     ?= build/windows-src
WIN         ?= build/windows-x86_64
WIN_OBJ      = $(WIN)/obj
WIN_LJ_SRC   = $(WIN_SRC)/luajit/src
WIN_54_SRC   = $(WIN_SRC)/lua5.4/src
# The module's flags are Linux's (WARNFLAGS, FPFLAGS, -O2); OBB_BUILD_DLL
# marks the public API dllexport (include/obb.h), LUA_BUILD_AS_DLL makes
# Lua's API dllimport.
WIN_OBB_FLAGS = $(WARNFLAGS) $(FPFLAGS) $(WIN_CFLAGS) -DOBB_BUILD_DLL -DLUA_BUILD_AS_DLL $(INCLUDES)
# Lua 5.4 as upstream's `make mingw` builds it, with Debian's LUA_COMPAT_5_3.
WIN_54_FLAGS  = -std=gnu99 -O2 -Wall -Wextra -DLUA_COMPAT_5_3 -DLUA_BUILD_AS_DLL
WIN_54_CORE   = lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject \
                lopcodes lparser lstate lstring ltable ltm lundump lvm lzio \
                lauxlib lbaselib lcorolib ldblib liolib lmathlib loadlib loslib \
                lstrlib ltablib lutf8lib linit
WIN_54_OBJ    = $(WIN_54_CORE:%=$(WIN_OBJ)/lua5.4/%.o)
WIN_CORE_OBJ  = $(CORE_SRC:src/core/%.c=$(WIN_OBJ)/core/%.o)
WIN_LJ_BIND   = $(BIND_SRC:src/binding/%.c=$(WIN_OBJ)/luajit/binding/%.o)
WIN_54_BIND   = $(BIND_SRC:src/binding/%.c=$(WIN_OBJ)/lua5.4/binding/%.o)
WIN_LJ_OUT    = $(WIN)/luajit/luajit.exe $(WIN)/luajit/lua51.dll $(WIN)/luajit/obb.dll $(WIN)/luajit/run
WIN_54_OUT    = $(WIN)/lua5.4/lua.exe $(WIN)/lua5.4/lua54.dll $(WIN)/lua5.4/obb.dll $(WIN)/lua5.4/run
WIN_PREFIX    = $(WIN)/wineprefix
WIN_TESTS     = $(WIN)/tests

.PHONY: cross-windows windows-deps check-exports-windows test-windows bench-windows

cross-windows: $(WIN_LJ_OUT) $(WIN_54_OUT)

# Packages, the deb-src entry and the two source packages, when missing
# (a no-op once done); the sources' folders get stable names.
windows-deps:
	@sh test/cross/deps.sh $(WIN_SRC)

# LuaJIT by its own Makefile (lua51.dll and luajit.exe). CC, CFLAGS and
# LDFLAGS are set here so that this Makefile's (or the command line's)
# never reach it.
$(WIN_LJ_SRC)/lua51.dll: | windows-deps
	$(MAKE) -C $(WIN_LJ_SRC) CC=gcc HOST_CC=gcc CROSS=$(WIN_CROSS) TARGET_SYS=Windows \
	  CFLAGS= LDFLAGS= CCDEBUG= lua51.dll luajit.exe
$(WIN_LJ_SRC)/luajit.exe: $(WIN_LJ_SRC)/lua51.dll

$(WIN)/luajit/luajit.exe: $(WIN_LJ_SRC)/luajit.exe
	@mkdir -p $(@D)
	cp $< $@
$(WIN)/luajit/lua51.dll: $(WIN_LJ_SRC)/lua51.dll
	@mkdir -p $(@D)
	cp $< $@

# Lua 5.4: its .c files straight into lua54.dll and lua.exe.
$(WIN_54_SRC)/lua.h: | windows-deps
$(WIN_OBJ)/lua5.4/%.o: $(WIN_54_SRC)/lua.h
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_54_FLAGS) -c $(WIN_54_SRC)/$*.c -o $@
$(WIN)/lua5.4/lua54.dll: $(WIN_54_OBJ)
	@mkdir -p $(@D)
	$(WIN_CC) -shared -s -o $@ $^
$(WIN)/lua5.4/lua.exe: $(WIN_OBJ)/lua5.4/lua.o $(WIN)/lua5.4/lua54.dll
	$(WIN_CC) -s -o $@ $^

# obb.dll: the core once (no Lua headers), the binding once per Lua.
$(WIN_OBJ)/core/%.o: src/core/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_OBB_FLAGS) -c $< -o $@
$(WIN_OBJ)/luajit/binding/%.o: src/binding/%.c $(HEADERS) | $(WIN_LJ_SRC)/lua51.dll
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_OBB_FLAGS) -I$(WIN_LJ_SRC) -c $< -o $@
$(WIN_OBJ)/lua5.4/binding/%.o: src/binding/%.c $(HEADERS) | $(WIN_54_SRC)/lua.h
	@mkdir -p $(@D)
	$(WIN_CC) $(WIN_OBB_FLAGS) -I$(WIN_54_SRC) -c $< -o $@
$(WIN)/luajit/obb.dll: $(WIN_CORE_OBJ) $(WIN_LJ_BIND) $(WIN)/luajit/lua51.dll
	$(WIN_CC) -shared -s -o $@ $^
$(WIN)/lua5.4/obb.dll: $(WIN_CORE_OBJ) $(WIN_54_BIND) $(WIN)/lua5.4/lua54.dll
	$(WIN_CC) -shared -s -o $@ $^

$(WIN)/%/run: test/cross/run.sh
	@mkdir -p $(@D)
	cp $< $@
	chmod +x $@

# Wine's prefix, made once before the runs (they would each try at once).
$(WIN_PREFIX)/system.reg:
	mkdir -p $(WIN_PREFIX)
	WINEPREFIX=$(CURDIR)/$(WIN_PREFIX) WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=;winedbg.exe=d' \
	  DISPLAY= wine wineboot --init >/dev/null 2>&1
	WINEPREFIX=$(CURDIR)/$(WIN_PREFIX) wineserver -w

# The Linux obb.so of each Lua, to compare with (exports, digest); after
# windows-deps, so that two apt-get never run at once under make -j.
.PHONY: windows-native
windows-native: | windows-deps
	$(MAKE) deps-build all LUA=luajit
	$(MAKE) deps-build all LUA=lua5.4

check-exports-windows: $(WIN)/luajit/obb.dll $(WIN)/lua5.4/obb.dll windows-native
	@sh test/cross/check_exports.sh $(WIN_OBJDUMP) $(WIN)/luajit/obb.dll build/luajit/obb.so
	@sh test/cross/check_exports.sh $(WIN_OBJDUMP) $(WIN)/lua5.4/obb.dll build/lua5.4/obb.so

# GCC's Windows x86-64 target keeps the stack 16-byte aligned and does
# not realign it for 32-byte AVX values (GCC bug 54412): an aligned move
# of a ymm register to or from the stack would fault, on CPUs with AVX2
# only, so the AVX2 path of obb3.c would crash where it is taken. Debian's
# GCC 12 spills ymm registers with unaligned moves; this keeps it so.
.PHONY: check-avx-windows
check-avx-windows: $(WIN_CORE_OBJ)
	@bad=$$($(WIN_OBJDUMP) -d --no-show-raw-insn $^ | \
	  grep -E 'vmov(apd|aps|dqa)[[:space:]].*(%ymm[0-9]+,.*\(%r[sb]p\)|\(%r[sb]p\),[[:space:]]*%ymm)' || true); \
	if [ -n "$$bad" ]; then echo "aligned AVX stack moves in obb's Windows objects:"; echo "$$bad"; exit 1; fi; \
	echo "check-avx-windows: no aligned AVX moves to or from the stack in obb's Windows objects"

test-windows: cross-windows check-exports-windows check-avx-windows $(WIN_PREFIX)/system.reg
	$(MAKE) -s digest LUA=luajit
	$(MAKE) -s digest LUA=lua5.4
	sh test/cross/test.sh $(WIN) $(WIN_TESTS) '$(EXAMPLES)'

# The bench's empty C functions (bench/emptyc.c) for Windows LuaJIT;
# exports all (no dllexport in it), as on Linux.
$(WIN_OBJ)/bench/benchc.dll: bench/emptyc.c $(HEADERS) $(WIN)/luajit/lua51.dll
	@mkdir -p $(@D)
	$(WIN_CC) $(WARNFLAGS) $(FPFLAGS) $(WIN_CFLAGS) -DLUA_BUILD_AS_DLL $(INCLUDES) -I$(WIN_LJ_SRC) \
	  -shared -s -o $@ bench/emptyc.c $(WIN)/luajit/lua51.dll

bench-windows: cross-windows $(WIN_OBJ)/bench/benchc.dll $(WIN_PREFIX)/system.reg
	$(WIN)/luajit/run -e "package.path = './bench/?.lua;' .. package.path; \
	  package.cpath = './$(WIN_OBJ)/bench/?.dll;' .. package.cpath" test/cross/bench.lua
