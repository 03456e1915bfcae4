#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build kft.ko for a kernel image (.../vmlinuz-VERSION) into OUT_DIR,
# against Debian's linux-headers-VERSION, installed if missing. The
# module's sources are built in a copy: the tree stays clean.
#
#   tests/kernel/build-module.sh KERNEL_IMAGE OUT_DIR
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=$1 out=$2
ver=$(basename "$kernel" | sed 's/^vmlinuz-//')
kdir=/usr/src/linux-headers-$ver
if [ ! -e "$kdir/Makefile" ]; then
	sudo=
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	install() { DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "linux-headers-$ver" >/dev/null 2>&1; }
	install || { $sudo apt-get update -qq >/dev/null 2>&1 && install; } ||
		{ echo "build-module: cannot install linux-headers-$ver" >&2; exit 1; }
fi
work=$(mktemp -d /tmp/kft-module.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cp -r "$top/module" "$work/"
cp -r "$top/src/config" "$top/src/common" "$work/src/"
if ! make -C "$kdir" M="$work/module" modules > "$work/log" 2>&1; then
	cat "$work/log" >&2
	exit 1
fi
# warnings are errors here too (objtool's among them)
if grep -E -i 'warning:' "$work/log" >&2; then
	exit 1
fi
cp "$work/module/kft.ko" "$out/"
