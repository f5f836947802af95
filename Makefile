# obb: oriented bounding boxes for Lua, in C.
#
#   make              build obb.so for $(LUA)
#   make test         run the busted suite on $(LUA) (installs what is missing);
#                     under LuaJIT it runs on the FFI fast path (lua/obb/jit.lua),
#                     `make test LUA=luajit OBB_NO_FFI=1` runs it on the classic one
#   make check-ffi    obb.jit's C declarations against include/obb.h and
#                     src/binding/lobb_ffi.h (the binding's internal FFI header)
#   make demo         run examples/demo.lua and write demo.svg, demo3d.svg
#   make install      install under $(DESTDIR)$(PREFIX)
#   make rock         the rockspecs' build on Unix (LuaRocks runs it)
#
# Every value below can be overridden on the command line, e.g.
#   make test LUA=lua5.3     make CC=clang CFLAGS='-O3 -g'

LUA        ?= lua5.4
# The Debian package suffix of $(LUA): 5.4, 5.3, ..., or luajit.
LUA_SUFFIX  = $(patsubst lua%,%,$(LUA))
LUA_VERSION = $(if $(filter luajit,$(LUA)),5.1,$(LUA_SUFFIX))
LUA_INCDIR ?= $(if $(filter luajit,$(LUA)),/usr/include/luajit-2.1,/usr/include/$(LUA))
BUSTED     ?= busted

CC         ?= cc
OPTFLAGS   ?= -O2
WARNFLAGS  ?= -std=c99 -Wall -Wextra -pedantic
CFLAGS     ?= $(OPTFLAGS) -g
# The public headers, then each layer's internal ones (docs/reference.md, "Layout").
INCLUDES    = -Iinclude -Isrc/core -Isrc/binding
# Only the public API (OBB_API, LOBB_API) is exported from the shared
# objects; `make check-exports` holds it to that.
VISFLAGS   ?= -fvisibility=hidden
# a*b + c stays two roundings: a compiler that fused it into a multiply-add
# (clang by default where the CPU has one, GCC in its GNU modes) would
# change answers between platforms (docs/precision.md).
FPFLAGS    ?= -ffp-contract=off
ALL_CFLAGS  = $(WARNFLAGS) $(FPFLAGS) $(CFLAGS) -fPIC $(VISFLAGS) -I$(LUA_INCDIR) $(INCLUDES)
# macOS loads Lua modules as bundles whose Lua symbols the host provides
# (as LuaRocks links them), built universal (Apple Silicon and Intel in one
# file, MACOS_ARCHS= for the machine's own only); untested here: CI has no
# macOS machine.
ifeq ($(shell uname -s),Darwin)
MACOS_ARCHS ?= -arch arm64 -arch x86_64
LIBFLAG    ?= -bundle -undefined dynamic_lookup $(MACOS_ARCHS)
ALL_CFLAGS += $(MACOS_ARCHS)
endif
LIBFLAG    ?= -shared
LDLIBS     ?= -lm

PREFIX     ?= /usr/local
INST_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
INST_LUADIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
INST_INCDIR ?= $(PREFIX)/include/obb

BUILD       = build/$(LUA)
# Sources by folder: src/core/ is the geometry (no Lua), src/binding/ the
# Lua API over it.
CORE_SRC    = $(wildcard src/core/*.c)
BIND_SRC    = $(wildcard src/binding/*.c)
CORE_OBJ    = $(CORE_SRC:src/%.c=$(BUILD)/%.o)
BIND_OBJ    = $(BIND_SRC:src/%.c=$(BUILD)/%.o)
MODULE      = $(BUILD)/obb.so
PUBLIC_H    = $(wildcard include/*.h)
HEADERS     = $(PUBLIC_H) $(wildcard src/core/*.h src/binding/*.h)

.PHONY: all test demo examples docs-images install uninstall clean deps deps-build check-warnings check-ffi

all: $(MODULE)

$(BUILD)/%.o: src/%.c $(HEADERS) | $(BUILD)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(MODULE): $(CORE_OBJ) $(BIND_OBJ)
	$(CC) $(LIBFLAG) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD):
	mkdir -p $@/core $@/binding

# Installs the Debian packages a build or test needs, only when missing.
deps-build:
	@sh .ci/deps.sh build $(LUA)
deps:
	@sh .ci/deps.sh test $(LUA)

# OBB_NO_FFI=1 on the command line reaches the specs' environment (make
# exports command-line variables): LuaJIT then keeps the classic binding.
test: deps
	$(MAKE) all
	$(BUSTED) --lua=$(LUA) --cpath='./$(BUILD)/?.so'

# The FFI's declarations (lua/obb/jit.lua) must be the header's, word for
# word; spec/ffi_cdef_spec.lua runs the same check inside `make test`.
check-ffi:
	$(LUA) spec/ffi_check.lua '$(CC)'

demo: deps-build
	$(MAKE) all
	LUA_CPATH='./$(BUILD)/?.so;;' LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' $(LUA) examples/demo.lua

# The examples (docs/reference.md, "Examples"), each checking itself; CI runs them all.
#   make examples         every example, and the demo into $(BUILD)/
#   make example-racing   one of them (racing, platformer, picking, tiled, responses,
#                         responses_turning, solids, characters)
RUN_LUA     = LUA_CPATH='./$(BUILD)/?.so;;' LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' $(LUA)
EXAMPLES    = racing platformer picking tiled responses responses_turning solids characters

examples: deps-build
	$(MAKE) all
	$(RUN_LUA) examples/demo.lua $(BUILD)/demo.svg $(BUILD)/demo3d.svg
	@for e in $(EXAMPLES); do echo "== examples/$$e.lua"; \
	  $(RUN_LUA) examples/$$e.lua || exit 1; done

example-%: deps-build
	$(MAKE) all
	$(RUN_LUA) examples/$*.lua

# The README's pictures, committed under docs/: the demo's last frame in 2D
# and 3D, and one picture per example.
docs-images: all
	mkdir -p docs
	$(RUN_LUA) examples/demo.lua docs/demo2d.svg docs/demo3d.svg >/dev/null
	@for e in $(EXAMPLES); do $(RUN_LUA) examples/$$e.lua docs/$$e.svg >/dev/null || exit 1; done

# Warnings as errors, as CI builds it.
check-warnings:
	$(MAKE) clean
	$(MAKE) all CFLAGS='-O2 -Werror'

install: $(MODULE)
	mkdir -p $(DESTDIR)$(INST_LIBDIR) $(DESTDIR)$(INST_LUADIR)/obb $(DESTDIR)$(INST_INCDIR)
	cp $(MODULE) $(DESTDIR)$(INST_LIBDIR)/obb.so
	cp lua/obb/*.lua $(DESTDIR)$(INST_LUADIR)/obb/
	cp $(PUBLIC_H) $(DESTDIR)$(INST_INCDIR)/

uninstall:
	rm -f $(DESTDIR)$(INST_LIBDIR)/obb.so
	rm -rf $(DESTDIR)$(INST_LUADIR)/obb $(DESTDIR)$(INST_INCDIR)

# The rockspecs' build on Unix (their "make" build type): LuaRocks runs
# `make rock CC=... CFLAGS=... LUA_INCDIR=...` and installs
# build/luarocks/obb.so and lua/obb/ itself. So a rock gets every flag
# `make` gives the module (-ffp-contract=off: docs/precision.md), which
# LuaRocks' builtin type cannot pass. From scratch each time: the same
# folder may be built for another Lua next.
.PHONY: rock
rock:
	rm -rf build/luarocks
	$(MAKE) all BUILD=build/luarocks

# ---- LOVE -----------------------------------------------------------------
#   make love-test    the LOVE demo (examples/love/) headless under Xvfb for
#                     LOVE_FRAMES frames, then the platformer
#                     (examples/love-platformer/) for LOVE_PLATFORMER_FRAMES,
#                     playing its input script and checking itself, and the
#                     racing game (examples/love-racing/) for
#                     LOVE_RACING_FRAMES, its cars on the autopilot, checking
#                     itself; checks their exit status and that their
#                     screenshots are not blank (.ci/love.sh, which installs
#                     love and xvfb when missing). docs/love.md.
.PHONY: love-test
love-test:
	sh .ci/love.sh

include mk/love-ship.mk

# ---- hardening: sanitizers, valgrind, fuzzing ----------------------------
#   make sanitize     the whole suite against an ASan+UBSan build of obb.so
#   make valgrind     the whole suite under memcheck: no errors, no definite leaks
#   make fuzz         each libFuzzer harness in fuzz/ for FUZZ_SECONDS
#   make fuzz-map     obb.tiled fed mutated maps for FUZZ_SECONDS (pure Lua)
#   make fuzz-core-msan  fuzz_core built with MemorySanitizer over its seeds
#                     and corpus (then MSAN_SECONDS of fuzzing, if set):
#                     an output computed from uninitialised memory fails
# Lua itself is not instrumented, so the sanitizer runtime is preloaded into
# the interpreter; any report stops the run with a non-zero status.
SAN_CC      ?= clang
SAN_FLAGS   ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
               -fno-sanitize-recover=all
SAN_BUILD   ?= $(BUILD)-asan
SAN_RT       = $(shell $(SAN_CC) -print-file-name=libclang_rt.asan-$(shell uname -m).so)
SAN_ENV      = LD_PRELOAD=$(SAN_RT) \
               ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
               UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
VALGRIND    ?= valgrind
VALGRIND_FLAGS ?= -q --error-exitcode=1 --leak-check=full \
               --errors-for-leak-kinds=definite --show-leak-kinds=definite
# Spec files for `make valgrind` (empty: the whole suite, which memcheck
# makes some fifty times slower; CI names a subset that still calls every
# function, and runs the whole suite under `make sanitize`).
VALGRIND_SPECS ?=
FUZZ_SECONDS ?= 60
# 0 lets libFuzzer pick a seed; a fixed one makes a run repeatable (CI).
FUZZ_SEED   ?= 0
FUZZ_BUILD  ?= $(BUILD)-fuzz
FUZZ_FLAGS  ?= -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
LUA_LIB     ?= $(if $(filter luajit,$(LUA)),-lluajit-5.1,-l$(LUA))

# MemorySanitizer for the core harness: every output of every core
# function is read in a branch there, so one made from uninitialised
# memory (not only one left unwritten) is reported (docs/hardening.md).
MSAN_FLAGS  ?= -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,memory \
               -fsanitize-memory-track-origins -fno-sanitize-recover=all
MSAN_SECONDS ?= 0

.PHONY: sanitize valgrind fuzz fuzz-build fuzz-regress fuzz-lua fuzz-core-msan fuzz-map

sanitize:
	@sh .ci/deps-harden.sh sanitize $(SAN_CC)
	@sh .ci/deps.sh test $(LUA)
	$(MAKE) all BUILD=$(SAN_BUILD) CC=$(SAN_CC) CFLAGS='$(SAN_FLAGS)'
	$(SAN_ENV) $(BUSTED) --lua=$(LUA) --cpath='./$(SAN_BUILD)/?.so'

# busted is run by $(LUA) directly (--ignore-lua) so memcheck sees the
# interpreter that loads obb.so, not a shell that starts it. OBB_SPEC_LIGHT
# shrinks the load specs' counts tenfold (memcheck is ~50 times slower).
valgrind:
	@sh .ci/deps-harden.sh valgrind
	@sh .ci/deps.sh test $(LUA)
	$(MAKE) all
	OBB_SPEC_LIGHT=1 $(VALGRIND) $(VALGRIND_FLAGS) $(LUA) `command -v $(BUSTED)` \
	  --ignore-lua --cpath='./$(BUILD)/?.so' $(VALGRIND_SPECS)

# fuzz_lua also loads the module built as a shared object, the same way
# instrumented: under LuaJIT it opens that one, whose FFI fast path needs a
# file, and elsewhere it is the second copy a driver's open must refuse
# (fuzz/fuzz_lua.c). -Bsymbolic keeps each copy's calls to itself.
FUZZ_SO_FLAGS ?= -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all

fuzz-build:
	@sh .ci/deps-harden.sh fuzz $(SAN_CC)
	@sh .ci/deps.sh build $(LUA)
	mkdir -p $(FUZZ_BUILD)/corpus-core $(FUZZ_BUILD)/corpus-lua
	$(SAN_CC) $(WARNFLAGS) $(FUZZ_FLAGS) $(INCLUDES) fuzz/fuzz_core.c $(CORE_SRC) \
	  -lm -o $(FUZZ_BUILD)/fuzz_core
	$(SAN_CC) $(WARNFLAGS) $(FUZZ_SO_FLAGS) -fPIC $(VISFLAGS) $(INCLUDES) -I$(LUA_INCDIR) \
	  $(LIBFLAG) -Wl,-Bsymbolic $(CORE_SRC) $(BIND_SRC) -lm -o $(FUZZ_BUILD)/obb.so
	$(SAN_CC) $(WARNFLAGS) $(FUZZ_FLAGS) $(INCLUDES) -I$(LUA_INCDIR) \
	  -DFUZZ_DRIVER='"$(CURDIR)/fuzz/fuzz_lua.lua"' \
	  -DFUZZ_MODULE='"$(CURDIR)/$(FUZZ_BUILD)/obb.so"' \
	  -DFUZZ_LUA_PATH='"$(CURDIR)/lua/?.lua"' fuzz/fuzz_lua.c \
	  $(CORE_SRC) $(BIND_SRC) $(LUA_LIB) -lm -ldl -o $(FUZZ_BUILD)/fuzz_lua

# MemorySanitizer needs every function that touches the memory built with
# it: the core has no Lua, so the whole harness is.
fuzz-core-msan:
	@sh .ci/deps-harden.sh fuzz $(SAN_CC)
	mkdir -p $(FUZZ_BUILD)/corpus-core
	$(SAN_CC) $(WARNFLAGS) $(MSAN_FLAGS) $(INCLUDES) fuzz/fuzz_core.c $(CORE_SRC) \
	  -lm -o $(FUZZ_BUILD)/fuzz_core_msan
	$(FUZZ_BUILD)/fuzz_core_msan -runs=0 fuzz/seed-core $(FUZZ_BUILD)/corpus-core
	if [ "$(MSAN_SECONDS)" -gt 0 ]; then \
	  $(FUZZ_BUILD)/fuzz_core_msan -max_total_time=$(MSAN_SECONDS) -timeout=20 \
	    -seed=$(FUZZ_SEED) -artifact_prefix=$(FUZZ_BUILD)/msan- \
	    $(FUZZ_BUILD)/corpus-core fuzz/seed-core; fi

# Replays the seeds and every past finding (fuzz/seed-*/) once.
fuzz-regress: fuzz-build
	$(FUZZ_BUILD)/fuzz_core fuzz/seed-core/*
	$(FUZZ_BUILD)/fuzz_lua fuzz/seed-lua/*

# The Lua-API harness alone (replay, then FUZZ_SECONDS of fuzzing): CI
# runs it on Lua 5.1 and LuaJIT besides the whole `make fuzz` on 5.4.
fuzz-lua: fuzz-build
	$(FUZZ_BUILD)/fuzz_lua fuzz/seed-lua/*
	$(FUZZ_BUILD)/fuzz_lua -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -seed=$(FUZZ_SEED) -rss_limit_mb=1024 -artifact_prefix=$(FUZZ_BUILD)/ \
	  $(FUZZ_BUILD)/corpus-lua fuzz/seed-lua

# obb.tiled on mutated and random maps, as text and as tables
# (fuzz/fuzz_map.lua, pure Lua): FUZZ_SECONDS, seed FUZZ_SEED (0: the clock).
# A failing map is saved (the script says where) and the run fails.
fuzz-map: deps-build
	$(MAKE) all
	$(RUN_LUA) fuzz/fuzz_map.lua $(FUZZ_SECONDS) $(if $(filter 0,$(FUZZ_SEED)),,$(FUZZ_SEED))

# New findings land in $(FUZZ_BUILD) as crash-*/leak-*/timeout-* files.
fuzz: fuzz-regress
	$(FUZZ_BUILD)/fuzz_core -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -seed=$(FUZZ_SEED) \
	  -artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus-core fuzz/seed-core
	$(FUZZ_BUILD)/fuzz_lua -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -seed=$(FUZZ_SEED) \
	  -rss_limit_mb=1024 -artifact_prefix=$(FUZZ_BUILD)/ \
	  $(FUZZ_BUILD)/corpus-lua fuzz/seed-lua

# ---- embedding: libraries and host programs --------------------------------
#   make lib          $(BUILD)/libobb.a and libobb.so (core + binding) and
#                     libobbcore.a (the core alone, for engines without Lua)
#   make embed-test   builds examples/embed/ against libobb.a and runs it: a
#                     host that preloads obb and checks a game script's
#                     answers, a host and a script sharing one world
#                     (world_host.c, world_game.lua), and two states used
#                     from two threads at once
# The hosts link the interpreter's library, EMBED_LUALIB.
AR          ?= ar
EMBED_LUALIB ?= $(if $(filter luajit,$(LUA)),-lluajit-5.1,-l$(LUA))
LIB_STATIC   = $(BUILD)/libobb.a
LIB_SHARED   = $(BUILD)/libobb.so
LIB_CORE     = $(BUILD)/libobbcore.a
EMBED_HOSTS  = $(BUILD)/embed-host $(BUILD)/embed-world $(BUILD)/embed-threads \
               $(BUILD)/embed-core

.PHONY: lib embed-test embed-tsan check-globals check-exports check-imports

lib: $(LIB_STATIC) $(LIB_SHARED) $(LIB_CORE)

$(LIB_STATIC): $(CORE_OBJ) $(BIND_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_CORE): $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# Lua's symbols stay undefined: the host program that loads it supplies them.
$(LIB_SHARED): $(CORE_OBJ) $(BIND_OBJ)
	$(CC) $(LIBFLAG) $(LDFLAGS) -Wl,-soname,libobb.so -o $@ $^ $(LDLIBS)

$(BUILD)/embed-host: examples/embed/host.c $(LIB_STATIC) $(HEADERS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_STATIC) $(EMBED_LUALIB) $(LDLIBS) -ldl

$(BUILD)/embed-world: examples/embed/world_host.c $(LIB_STATIC) $(HEADERS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_STATIC) $(EMBED_LUALIB) $(LDLIBS) -ldl

$(BUILD)/embed-threads: examples/embed/threads.c $(LIB_STATIC) $(HEADERS)
	$(CC) $(ALL_CFLAGS) -pthread -o $@ $< $(LIB_STATIC) $(EMBED_LUALIB) $(LDLIBS) -ldl

# The core alone: no Lua headers, no liblua.
$(BUILD)/embed-core: examples/embed/core_only.c $(LIB_CORE) $(PUBLIC_H)
	$(CC) $(WARNFLAGS) $(CFLAGS) -Iinclude -o $@ $< $(LIB_CORE) $(LDLIBS)

embed-test: deps-build check-globals check-exports check-imports $(EMBED_HOSTS)
	$(BUILD)/embed-core
	LUA_PATH='./lua/?.lua;;' $(BUILD)/embed-host examples/embed/game.lua
	LUA_PATH='./lua/?.lua;;' $(BUILD)/embed-world examples/embed/world_game.lua
	$(BUILD)/embed-threads

# The threads host once more, with obb and the host built by clang's
# ThreadSanitizer (Lua itself is not instrumented).
embed-tsan: deps-build
	mkdir -p $(BUILD)
	$(SAN_CC) $(WARNFLAGS) -O1 -g -fsanitize=thread -pthread -I$(LUA_INCDIR) $(INCLUDES) \
	  -o $(BUILD)/embed-threads-tsan examples/embed/threads.c $(CORE_SRC) $(BIND_SRC) \
	  $(EMBED_LUALIB) $(LDLIBS) -ldl
	$(BUILD)/embed-threads-tsan

# The module and libobb.so export the public API and nothing else.
check-exports: $(MODULE) $(LIB_SHARED)
	@sh test/check_exports.sh $(MODULE) $(PUBLIC_H)
	@sh test/check_exports.sh $(LIB_SHARED) $(PUBLIC_H)

# The module and libobb.so import no libm fma (src/core/obb_exact.c
# computes exact products instead) and, with glibc, no symbol version newer
# than GLIBC_MAX, so that they load on any glibc since then
# (test/check_imports.sh; docs/precision.md).
GLIBC_MAX  ?= 2.17
check-imports: $(MODULE) $(LIB_SHARED)
	@GLIBC_MAX=$(GLIBC_MAX) sh test/check_imports.sh $(MODULE) $(LIB_SHARED)

# No C globals: no object may hold a data object in a writable section
# (.data, .bss, common; const tables with pointers sit in .data.rel.ro).
check-globals: $(CORE_OBJ) $(BIND_OBJ)
	@bad=$$(objdump -t $^ | grep -E ' O (\.data|\.bss|\*COM\*|\.tbss|\.tdata)' | grep -v '\.data\.rel\.ro' || true); \
	if [ -n "$$bad" ]; then echo "writable globals in obb:"; echo "$$bad"; exit 1; fi; \
	echo "no writable globals in obb's objects"

# ---- C checks ---------------------------------------------------------------
#   make check-trig   test/trig_check.c: obb_sincos (src/core/obb_trig.c) against
#                     long double sinl/cosl on special values, every double
#                     near a multiple of pi/4 and millions of random angles;
#                     fails beyond 1 ulp, or where the build without GNU C's
#                     vector extension (OBB_TRIG_SCALAR) answers differently.
#                     CI runs it with gcc and clang.
TRIG_CHECK  = $(BUILD)/trig_check
TRIG_SCALAR = $(BUILD)/obb_trig_scalar.o

.PHONY: check-trig

$(TRIG_SCALAR): src/core/obb_trig.c $(HEADERS) | $(BUILD)
	$(CC) $(ALL_CFLAGS) -DOBB_TRIG_SCALAR -Dobb_sincos=obb_sincos_scalar -Dobb_atan2=obb_atan2_scalar -c src/core/obb_trig.c -o $@

$(TRIG_CHECK): test/trig_check.c $(CORE_OBJ) $(TRIG_SCALAR) $(HEADERS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(INCLUDES) $(LDFLAGS) -o $@ test/trig_check.c $(TRIG_SCALAR) $(CORE_OBJ) $(LDLIBS)

check-trig: $(TRIG_CHECK)
	$(TRIG_CHECK)

#   make bump-side-by-side OBB_BUMP=/path/to/bump.lua
#                     obb.bump beside that bump.lua, call by call, in a
#                     bump-style game (test/bump_side_by_side.lua): 0
#                     differences expected (our tree holds no bump.lua)
.PHONY: bump-side-by-side
bump-side-by-side: all
	OBB_BUMP="$(OBB_BUMP)" $(LUA) -e "package.cpath = './$(BUILD)/?.so;' .. package.cpath; package.path = './lua/?.lua;' .. package.path" test/bump_side_by_side.lua $(SIDE_FRAMES)

#   make bump-prof OBB_BENCH_BUMP=/path/to/bump.lua
#                     instructions per move of bench/bump.lua's busy game
#                     under callgrind (bench/bump_prof.lua): bump.lua,
#                     obb.bump and the floor, steadier than times on the
#                     interpreters (not under LuaJIT: docs/performance.md)
.PHONY: bump-prof
bump-prof: all
	LUA_CPATH='./$(BUILD)/?.so;;' LUA_PATH='./bench/?.lua;./lua/?.lua;./lua/?/init.lua;;' \
	  OBB_BENCH_BUMP="$(OBB_BENCH_BUMP)" $(LUA) bench/bump_prof.lua

#   make cross-prof [OBB_BENCH_BUMP=/path/to/bump.lua]
#                     instructions per move of bench/cross.lua's crossing
#                     loop under callgrind (bench/cross_prof.lua): bump.lua,
#                     obb.bump, world:move in obb.world2(), {cell = 16} and
#                     {cell = 0}
.PHONY: cross-prof
cross-prof: all
	LUA_CPATH='./$(BUILD)/?.so;;' LUA_PATH='./bench/?.lua;./lua/?.lua;./lua/?/init.lua;;' \
	  OBB_BENCH_BUMP="$(OBB_BENCH_BUMP)" $(LUA) bench/cross_prof.lua

#   make digest       test/digest.lua's answers on $(LUA), one a line, into
#                     $(BUILD)/digest.txt (docs/precision.md, "The same
#                     answers on every platform")
#   make check-digest the digest on every Lua (DIGEST_LUAS, and LuaJIT on the
#                     classic binding too) byte for byte the same; the cross
#                     builds compare theirs with these (mk/*.mk)
.PHONY: digest check-digest
DIGEST_LUAS ?= lua5.1 lua5.2 lua5.3 lua5.4 luajit
DIGEST_RUN   = -e "package.cpath = './$(BUILD)/?.so;' .. package.cpath; package.path = './lua/?.lua;' .. package.path" test/digest.lua
DIGEST_OUT  ?= $(BUILD)/digest.txt
digest: all
	$(LUA) $(DIGEST_RUN) > $(DIGEST_OUT)
check-digest:
	@for l in $(DIGEST_LUAS); do $(MAKE) -s digest LUA=$$l || exit 1; done
	@OBB_NO_FFI=1 $(MAKE) -s digest LUA=luajit DIGEST_OUT=build/luajit/digest-classic.txt
	@for f in $(DIGEST_LUAS:%=build/%/digest.txt) build/luajit/digest-classic.txt; do \
	  cmp build/lua5.4/digest.txt $$f || exit 1; done
	@echo "digest: $$(wc -l < build/lua5.4/digest.txt) lines, the same on $(DIGEST_LUAS) and LuaJIT's classic binding"

#   make check-exact  test/exact_check.c: obb_two_product and
#                     obb_diff_of_products (src/core/obb_exact.c, the core's
#                     exact products without libm's fma) against the CPU's
#                     fused multiply-add, bit for bit, on tens of millions
#                     of cases over every range of doubles; the test file
#                     alone is built with the instruction (EXACT_FMA), the
#                     core as ever. Run twice: against the core's object,
#                     and against obb_exact.c built the way a compiler
#                     left to its defaults would, with the instruction and
#                     -std=gnu99 (GCC then fuses a*b + c unless the file
#                     says not to, clang does within an expression).
EXACT_CHECK  = $(BUILD)/exact_check
EXACT_FUSED  = $(BUILD)/obb_exact_fused.o
# The fused multiply-add instruction: an option on x86-64, always there on
# aarch64.
EXACT_FMA   ?= $(if $(filter x86_64% i386% i686%,$(shell $(CC) -dumpmachine)),-mfma,)

.PHONY: check-exact

$(EXACT_FUSED): src/core/obb_exact.c $(HEADERS) | $(BUILD)
	$(CC) -std=gnu99 $(CFLAGS) $(EXACT_FMA) -fPIC $(INCLUDES) -c src/core/obb_exact.c -o $@

$(EXACT_CHECK): test/exact_check.c $(BUILD)/core/obb_exact.o $(EXACT_FUSED) $(HEADERS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(EXACT_FMA) $(INCLUDES) $(LDFLAGS) -o $@ test/exact_check.c $(BUILD)/core/obb_exact.o $(LDLIBS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(EXACT_FMA) $(INCLUDES) $(LDFLAGS) -o $@-fused test/exact_check.c $(EXACT_FUSED) $(LDLIBS)

check-exact: $(EXACT_CHECK)
	$(EXACT_CHECK)
	$(EXACT_CHECK)-fused

#   make check-builds test/builds_check.c: the three builds of the 3D test
#                     (scalar, SSE2/NEON pairs, AVX2) give the same verdicts
#                     on 2 million random and near-touching pairs.
.PHONY: check-builds
BUILDS_CHECK = $(BUILD)/builds_check
check-builds: $(HEADERS) | $(BUILD)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(INCLUDES) -U__SSE2__ -DOBB_NO_AVX2 -o $(BUILDS_CHECK)-scalar test/builds_check.c $(CORE_SRC) $(LDLIBS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(INCLUDES) -DOBB_NO_AVX2 -o $(BUILDS_CHECK)-pairs test/builds_check.c $(CORE_SRC) $(LDLIBS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(INCLUDES) -o $(BUILDS_CHECK) test/builds_check.c $(CORE_SRC) $(LDLIBS)
	s=`$(BUILDS_CHECK)-scalar` && p=`$(BUILDS_CHECK)-pairs` && v=`$(BUILDS_CHECK)` && \
	  echo "scalar $$s, pairs $$p, default $$v" && test "$$s" = "$$p" && test "$$p" = "$$v"

# ---- benchmarks (not tests) --------------------------------------------------
#   make bench        prints one table, every row measured in this run: the C
#                     core's pair tests and sweeps, turning and not
#                     (bench/core_bench.c), the pair test
#                     from Lua against an empty C function (bench/emptyc.c)
#                     and a pure-Lua test, memory per box, then the worlds
#                     (bench/world.lua) and world:move (bench/move.lua;
#                     its bump.lua rows need OBB_BENCH_BUMP=/path/to/bump.lua),
#                     the crossing loop (bench/cross.lua), when present,
#                     and sensors' events (bench/events.lua).
#                     Default flags only. OBB_BENCH_ONLY="move cross" runs
#                     only the sections named (bench/run.lua).
BENCH_C     = $(BUILD)/benchc.so
BENCH_CORE  = $(BUILD)/core_bench
BENCH_WORLD = $(BUILD)/world_bench

.PHONY: bench

# (luaopen_benchc is not marked OBB_API: the bench module exports all)
$(BENCH_C): bench/emptyc.c $(HEADERS) | $(BUILD)
	$(CC) $(ALL_CFLAGS) -fvisibility=default $(LIBFLAG) $(LDFLAGS) -o $@ bench/emptyc.c

$(BENCH_CORE): bench/core_bench.c $(CORE_OBJ) $(HEADERS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(INCLUDES) $(LDFLAGS) -o $@ bench/core_bench.c $(CORE_OBJ) $(LDLIBS)

# The world benchmark's C half: obb_world against the O(n^2) loop, no Lua.
$(BENCH_WORLD): bench/world_bench.c $(CORE_OBJ) $(HEADERS)
	$(CC) $(WARNFLAGS) $(CFLAGS) $(INCLUDES) $(LDFLAGS) -o $@ bench/world_bench.c $(CORE_OBJ) $(LDLIBS)

bench: deps-build $(MODULE) $(BENCH_C) $(BENCH_CORE) $(BENCH_WORLD)
	LUA_CPATH='./$(BUILD)/?.so;;' LUA_PATH='./bench/?.lua;./lua/?.lua;./lua/?/init.lua;;' \
	  OBB_WORLD_BENCH='./$(BENCH_WORLD)' $(LUA) bench/run.lua $(BENCH_CORE)

#   make fitratio     the README's table: volume (area) of the tight fits
#                     over the covariance fits on several point sets
.PHONY: fitratio
fitratio: deps-build $(MODULE)
	LUA_CPATH='./$(BUILD)/?.so;;' $(LUA) bench/fit_ratio.lua

clean:
	rm -rf dist
	rm -rf build

include mk/windows.mk
include mk/arm64.mk
include mk/dist.mk
