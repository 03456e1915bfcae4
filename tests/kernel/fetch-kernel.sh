#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the path of a Debian kernel image for the QEMU tests, unpacking
# linux-image-amd64's kernel into $KFT_KERNEL_CACHE (default
# build/kernel-cache) the first time. Unpacking the .deb, rather than
# installing it, leaves the build machine's boot setup untouched.
set -e
cache=${KFT_KERNEL_CACHE:-$(cd "$(dirname "$0")/../.." && pwd)/build/kernel-cache}
img=$(ls "$cache"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
if [ -z "$img" ]; then
	mkdir -p "$cache"
	find_pkg() {
		apt-cache depends linux-image-amd64 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
	}
	pkg=$(find_pkg)
	[ -n "$pkg" ] || { apt-get update -qq >/dev/null 2>&1 && pkg=$(find_pkg); }
	[ -n "$pkg" ] || { echo "fetch-kernel: no linux-image-amd64 in apt's lists (apt-get update?)" >&2; exit 1; }
	(cd "$cache" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
		{ echo "fetch-kernel: apt-get download $pkg failed" >&2; exit 1; }
	dpkg-deb -x "$cache/$pkg"_*.deb "$cache"
	rm -f "$cache/$pkg"_*.deb
	img=$(ls "$cache"/boot/vmlinuz-* | sort -V | tail -1)
fi
echo "$img"
