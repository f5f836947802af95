# ---- Linux ARM64, cross-built and run under qemu-aarch64 (issue 28) --------
#   make cross-arm64  build/linux-arm64/lua5.4/ and build/linux-arm64/luajit/:
#                     obb.so built by $(ARM64_CC) with the usual flags
#                     (warnings as errors), an arm64 interpreter (Debian's
#                     own package, unpacked into build/linux-arm64/sysroot by
#                     test/cross/arm64_sysroot.sh, which installs the cross
#                     compiler and qemu when missing) and `run`:
#                       build/linux-arm64/luajit/run script.lua [args]
#                     runs a script there with obb.so and lua/obb/ on the paths.
#   make test-arm64   the specs under qemu on both interpreters, and the
#                     digests: x86-64 and arm64 must answer alike
#                     (test/cross/arm64_test.sh says which, and why)
ARM64         = build/linux-arm64
ARM64_SYSROOT = $(ARM64)/sysroot
ARM64_CC     ?= aarch64-linux-gnu-gcc
ARM64_CFLAGS ?= -O2 -Werror
ARM64_LUAS    = lua5.4 luajit
# Each interpreter's headers in the sysroot; Debian's luaconf.h for 5.4
# includes lua5.4-deb-multiarch.h from the architecture's folder.
ARM64_INC_lua5.4 = $(ARM64_SYSROOT)/usr/include/lua5.4 -I$(ARM64_SYSROOT)/usr/include/aarch64-linux-gnu
ARM64_INC_luajit = $(ARM64_SYSROOT)/usr/include/luajit-2.1

.PHONY: cross-arm64 test-arm64

$(ARM64_SYSROOT)/.packages: test/cross/arm64_sysroot.sh
	sh test/cross/arm64_sysroot.sh $(ARM64)
	touch $@

# The Makefile's own rules build each module (objects beside it), then
# test/cross/ gives each folder its `run` and its bin/LUA.
define ARM64_BUILD
	$(MAKE) --no-print-directory all LUA=$(1) BUILD=$(ARM64)/$(1) CC=$(ARM64_CC) \
	  CFLAGS='$(ARM64_CFLAGS)' LUA_INCDIR='$(ARM64_INC_$(1))'
	mkdir -p $(ARM64)/$(1)/bin
	cp test/cross/arm64_run.sh $(ARM64)/$(1)/run
	cp test/cross/arm64_qemu.sh $(ARM64)/$(1)/bin/$(1)
	chmod +x $(ARM64)/$(1)/run $(ARM64)/$(1)/bin/$(1)

endef

cross-arm64: $(ARM64_SYSROOT)/.packages
	$(foreach l,$(ARM64_LUAS),$(call ARM64_BUILD,$(l)))

# This machine's digests too (make digest: build/LUA/digest.txt), which
# arm64's must equal byte for byte.
test-arm64: cross-arm64
	@sh .ci/deps.sh build lua5.4
	@sh .ci/deps.sh build luajit
	$(MAKE) --no-print-directory digest LUA=lua5.4
	$(MAKE) --no-print-directory digest LUA=luajit
	sh test/cross/arm64_test.sh
