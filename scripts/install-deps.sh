#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages kft needs to build and test, if any is missing.
# KFT_NO_DEPS=1 skips this (for machines set up by hand).
set -e
[ -n "$KFT_NO_DEPS" ] && exit 0

need=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd gcc   || need="$need gcc libc6-dev"
have_cmd clang || need="$need clang"
# clang's runtimes: its sanitizers and libFuzzer (tests/fuzz/)
[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a 2>/dev/null)" ] ||
	need="$need libclang-rt-dev"
have_cmd g++   || need="$need g++"	# C++ programs in the tests (clang++ uses its library)
have_cmd make  || need="$need make"
# The sanitizer runtimes ship with gcc's libraries on Debian.
[ -n "$(ls /usr/lib/gcc/*/*/libasan.so 2>/dev/null)" ] || need="$need libasan8"
[ -n "$(ls /usr/lib/gcc/*/*/libubsan.so 2>/dev/null)" ] || need="$need libubsan1"
[ -e /usr/include/cmocka.h ] || need="$need libcmocka-dev"
have_cmd pkg-config || need="$need pkg-config"
[ -e /usr/include/tracefs/tracefs.h ] || need="$need libtracefs-dev"
[ -e /usr/include/traceevent/event-parse.h ] || need="$need libtraceevent-dev"
# ELF symbol tables, build-ids and sections (elfutils' libelf)
[ -e /usr/include/gelf.h ] || need="$need libelf-dev"
# functions' parameters from DWARF, separate debug files (elfutils' libdw)
[ -e /usr/include/elfutils/libdw.h ] || need="$need libdw-dev"
# instructions of programs built without instrumentation, decoded to patch
# their entries (Zydis)
[ -e /usr/include/Zydis/Zydis.h ] || need="$need libzydis-dev"
# C++ and Rust names demangled (libiberty's demangler)
[ -e /usr/include/libiberty/demangle.h ] || need="$need libiberty-dev"
# callgrind counts a plain program's calls for the fidelity test
have_cmd valgrind || need="$need valgrind"
# a Rust program in the tests (Debian's rustc)
[ -x /usr/bin/rustc ] || need="$need rustc"
# compressed logs; Perfetto's deflated packets
[ -e /usr/include/zstd.h ] || need="$need libzstd-dev"
[ -e /usr/include/zlib.h ] || need="$need zlib1g-dev"
# MiniDebugInfo (xz-compressed symbols in stripped binaries); xz makes
# such a binary in the tests
[ -e /usr/include/lzma.h ] || need="$need liblzma-dev"
have_cmd xz || need="$need xz-utils"
# the kernel tests: QEMU, a static busybox for the guest, cpio for its
# initramfs; the kernel image itself is unpacked by tests/kernel/fetch-kernel.sh
have_cmd qemu-system-x86_64 || need="$need qemu-system-x86"
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || need="$need busybox-static"
have_cmd cpio || need="$need cpio"
# the tests read kft export's JSON with jq, kft flame's SVG with xmllint,
have_cmd jq || need="$need jq"
have_cmd xmllint || need="$need libxml2-utils"
# and kft export --perfetto's protobuf with protoc
have_cmd protoc || need="$need protobuf-compiler"
# a real browser for the pictures (tests/e2e/browser.sh)
have_cmd chromium || need="$need chromium"
# peak memory of the views, in the scale tests
[ -x /usr/bin/time ] || need="$need time"

[ -z "$need" ] && exit 0
if ! have_cmd apt-get; then
	echo "kft: missing packages:$need (install them, or set KFT_NO_DEPS=1)" >&2
	exit 1
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
echo "kft: installing$need" >&2
$sudo apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $need >/dev/null
