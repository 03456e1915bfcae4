# SPDX-License-Identifier: GPL-2.0-only
# kft: build, test, install. `make help` lists the targets.

ifeq ($(origin CC),default)
CC      := gcc
endif
O       ?= build
PREFIX  ?= /usr/local
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
BASE    := -std=gnu11 -D_GNU_SOURCE $(WARN)
SANITIZE ?=
# the kernel backend: libtracefs and libtraceevent (Debian's -dev packages)
TRACEFS_CFLAGS := $(shell pkg-config --cflags libtracefs libtraceevent 2>/dev/null || echo -I/usr/include/tracefs -I/usr/include/traceevent)
TRACEFS_LIBS   := $(shell pkg-config --libs libtracefs libtraceevent 2>/dev/null || echo -ltracefs -ltraceevent)

SHARED_SRCS  := src/common/error.c src/common/own-lib.c src/common/mono-clock.c src/common/tsc-rate.c src/config/config.c src/format/control.c \
                src/symbols/elf-symtab.c src/symbols/demangle.c src/symbols/xz.c \
                src/format/trace-files.c src/format/zcodec-rice.c src/format/zwriter.c
RUNTIME_SRCS := $(SHARED_SRCS) $(wildcard src/runtime/*.c) $(wildcard src/runtime/*.S)
TOOL_SRCS    := $(SHARED_SRCS) $(wildcard src/cli/*.c) $(wildcard src/record/*.c) \
                $(wildcard src/views/*.c) \
                $(wildcard src/analysis/*.c) src/common/strmap.c \
                src/format/zcodec.c src/format/reader.c src/format/args-file.c src/format/call-args.c src/format/enum-defs.c src/format/trace-state.c src/format/thread-records.c src/format/inherited.c src/format/zreader.c src/format/compress-dir.c src/format/trace-stream.c src/format/kernel-join.c src/format/entry-order.c src/format/thread-stream.c src/format/thread-walk.c src/format/text-log.c src/format/switches.c src/format/forks.c src/format/read-progress.c src/format/live-trace.c src/symbols/symbolizer.c src/symbols/symbol-text.c \
                src/common/addrmap.c src/common/process.c src/common/spill.c src/common/file-io.c src/common/heap.c src/common/protobuf.c src/common/tempfile.c src/common/sort.c src/common/bigarray.c \
                src/symbols/symmap.c src/symbols/frame-funcs.c src/symbols/saved-symbols.c src/symbols/symbols-save.c src/symbols/rewrite.c src/symbols/dwarf-params.c src/symbols/libc-params.c src/format/thread-writer.c src/format/args-writer.c \
                $(wildcard src/kernel/*.c)
UNIT_SRCS    := $(wildcard tests/unit/test-*.c)
FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz-*.c)

RUNTIME_OBJS := $(patsubst %.S,$(O)/pic/%.o,$(patsubst %.c,$(O)/pic/%.o,$(RUNTIME_SRCS)))
TOOL_OBJS    := $(patsubst %.c,$(O)/obj/%.o,$(TOOL_SRCS))
LIB_OBJS     := $(filter-out $(O)/obj/src/cli/%,$(TOOL_OBJS))
UNIT_BINS    := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRCS))
FUZZ_BINS    := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(filter-out %/fuzz-util.c,$(FUZZ_SRCS)))
# libFuzzer (clang): the library's code built for coverage, each target linked with its main
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_TIME    ?= 60

all: $(O)/bin/kft $(O)/lib/libkft.so $(O)/include/kft.h

# The runtime never calls the program's allocator: its code, and what it
# shares with the tool, allocate from its own (src/runtime/own-alloc.h)
$(O)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) -fPIC -fvisibility=hidden -ffunction-sections -fdata-sections \
		-include src/runtime/own-alloc.h -MMD -MP -c $< -o $@

$(O)/pic/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

$(O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(SANITIZE) $(TRACEFS_CFLAGS) -MMD -MP -c $< -o $@

# The tools demangle C++ and Rust through libiberty (libiberty-dev)
$(O)/obj/src/symbols/demangle.o: CFLAGS += -DKFT_LIBIBERTY

# The hooks' short path touches no vector register: the -pg stubs save
# those only for the whole path (src/runtime/hooks-short.c)
ifeq ($(shell uname -m),x86_64)
$(O)/pic/src/runtime/hooks-short.o: CFLAGS += -mgeneral-regs-only
endif

# The runtime goes into other programs: only the hooks and kft.h are
# exported, and it is never built with sanitizers. What it shares with
# the tool but never calls (config printing, trace unpacking, ELF exports)
# is left out by --gc-sections.
$(O)/lib/libkft.so: $(RUNTIME_OBJS) src/runtime/libkft.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,--version-script=src/runtime/libkft.map -Wl,-z,defs -Wl,--gc-sections \
		-o $@ $(RUNTIME_OBJS) -lelf -ldl -lpthread

$(O)/bin/kft: $(TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(SANITIZE) -o $@ $(TOOL_OBJS) $(TRACEFS_LIBS) -lZydis -ldw -lelf -lzstd -lz -liberty -ldl -lpthread -lm

$(O)/include/kft.h: include/kft.h
	@mkdir -p $(dir $@)
	cp $< $@

$(O)/tests/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(SANITIZE) -Isrc -o $@ $< $(LIB_OBJS) -lcmocka $(TRACEFS_LIBS) -lZydis -ldw -lelf -lzstd -lz -liberty -ldl -lm

unit: $(UNIT_BINS)

$(O)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz-util.c tests/fuzz/fuzz.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CFLAGS) $(SANITIZE) -fsanitize=fuzzer -Isrc -o $@ $< tests/fuzz/fuzz-util.c \
		$(LIB_OBJS) $(TRACEFS_LIBS) -lZydis -ldw -lelf -lzstd -lz -liberty -ldl -lm

fuzz-targets: $(FUZZ_BINS)

# each fuzz target for FUZZ_TIME seconds, from the committed corpus (clang)
fuzz: deps
	$(MAKE) -s O=build-fuzz CC=clang SANITIZE="$(FUZZ_SAN)" fuzz-targets
	tests/fuzz/run.sh build-fuzz $(FUZZ_TIME)

# `make check` runs every test; it installs what it needs first.
check: deps
	tests/run.sh

check-fast: all unit
	KFT_NO_DEPS=1 tests/run.sh

# every call of Debian's dash counted exactly, in every variant (also
# part of check): tests/fidelity/run.sh
check-fidelity: deps all
	tests/fidelity/run.sh $(O) $(O)-fidelity

# the kernel tests alone: Debian's kernel under QEMU (also part of check)
check-kernel: deps all
	tests/kernel/run.sh $(O)

# a trace of 1.4 billion calls read by the views, each within 64 MiB
# (not part of check: some 20 minutes, 20 GB of disk): tests/scale.sh
check-scale: all
	tests/scale.sh $(O)

deps:
	@scripts/install-deps.sh

demo: deps all
	@examples/run-demo.sh $(O)

# kft.ko, KFT's /proc/kft, for the running kernel (KDIR: another kernel's
# build tree, e.g. /usr/src/linux-headers-VERSION)
module:
	$(MAKE) -C module $(if $(KDIR),KDIR=$(KDIR))

# kft against uftrace and LTTng-UST (installs them if missing)
bench: deps all
	bench/run.sh

# kft.ko against function_graph with tracing_thresh, in the QEMU guest
bench-kernel: deps
	bench/kernel-module.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(O)/bin/kft $(DESTDIR)$(PREFIX)/bin/kft
	install -m 644 $(O)/lib/libkft.so $(DESTDIR)$(PREFIX)/lib/libkft.so
	install -m 644 include/kft.h $(DESTDIR)$(PREFIX)/include/kft.h
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man4 \
		$(DESTDIR)$(PREFIX)/share/man/man5
	install -m 644 docs/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 docs/*.4 $(DESTDIR)$(PREFIX)/share/man/man4/
	install -m 644 docs/*.5 $(DESTDIR)$(PREFIX)/share/man/man5/

clean:
	rm -rf $(O) build-*

help:
	@echo "make            build bin/kft and lib/libkft.so under $(O)/"
	@echo "make demo       install missing packages, build, trace examples/, show the log"
	@echo "make check      install missing packages, build, run every test"
	@echo "make check-kernel  the kernel tests alone (QEMU, Debian's kernel)"
	@echo "make check-fidelity  every call of Debian's dash counted, in every variant"
	@echo "make check-scale  1.4 billion calls read by each view within 64 MiB (20 min)"
	@echo "make module     kft.ko (/proc/kft, /proc/kft_data) for the running kernel"
	@echo "make bench      kft against uftrace and LTTng-UST, same workloads, one run"
	@echo "make bench-kernel  kft.ko against function_graph+tracing_thresh (QEMU)"
	@echo "make fuzz       each libFuzzer target for FUZZ_TIME seconds (default 60)"
	@echo "make install PREFIX=DIR"

.PHONY: all unit check check-fast check-fidelity check-kernel check-scale deps demo module bench bench-kernel fuzz fuzz-targets install clean help

-include $(shell find $(O) -name '*.d' 2>/dev/null)
