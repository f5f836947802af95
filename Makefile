# obb: oriented bounding boxes for Lua, in C.
#
#   make              build obb.so for $(LUA)
#   make test         run the busted suite on $(LUA) (installs what is missing)
#   make demo         run examples/demo.lua and write demo.svg
#   make install      install under $(DESTDIR)$(PREFIX)
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
ALL_CFLAGS  = $(WARNFLAGS) $(CFLAGS) -fPIC -I$(LUA_INCDIR) -Isrc
LIBFLAG    ?= -shared
LDLIBS     ?= -lm

PREFIX     ?= /usr/local
INST_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
INST_LUADIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
INST_INCDIR ?= $(PREFIX)/include/obb

BUILD       = build/$(LUA)
CORE_SRC    = $(filter-out src/lobb%.c,$(wildcard src/*.c))
BIND_SRC    = $(wildcard src/lobb*.c)
CORE_OBJ    = $(CORE_SRC:src/%.c=$(BUILD)/%.o)
BIND_OBJ    = $(BIND_SRC:src/%.c=$(BUILD)/%.o)
MODULE      = $(BUILD)/obb.so
HEADERS     = $(wildcard src/*.h)

.PHONY: all test demo install uninstall clean deps deps-build check-warnings

all: $(MODULE)

$(BUILD)/%.o: src/%.c $(HEADERS) | $(BUILD)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(MODULE): $(CORE_OBJ) $(BIND_OBJ)
	$(CC) $(LIBFLAG) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD):
	mkdir -p $@

# Installs the Debian packages a build or test needs, only when missing.
deps-build:
	@sh .ci/deps.sh build $(LUA)
deps:
	@sh .ci/deps.sh test $(LUA)

test: deps
	$(MAKE) all
	$(BUSTED) --lua=$(LUA) --cpath='./$(BUILD)/?.so'

demo: deps-build
	$(MAKE) all
	LUA_CPATH='./$(BUILD)/?.so;;' LUA_PATH='./lua/?.lua;./lua/?/init.lua;;' $(LUA) examples/demo.lua

# Warnings as errors, as CI builds it.
check-warnings:
	$(MAKE) clean
	$(MAKE) all CFLAGS='-O2 -Werror'

install: $(MODULE)
	mkdir -p $(DESTDIR)$(INST_LIBDIR) $(DESTDIR)$(INST_LUADIR)/obb $(DESTDIR)$(INST_INCDIR)
	cp $(MODULE) $(DESTDIR)$(INST_LIBDIR)/obb.so
	cp lua/obb/*.lua $(DESTDIR)$(INST_LUADIR)/obb/
	cp src/obb.h src/lobb.h $(DESTDIR)$(INST_INCDIR)/

uninstall:
	rm -f $(DESTDIR)$(INST_LIBDIR)/obb.so
	rm -rf $(DESTDIR)$(INST_LUADIR)/obb $(DESTDIR)$(INST_INCDIR)

clean:
	rm -rf build
