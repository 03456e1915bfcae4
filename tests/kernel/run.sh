#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The kernel tests: stage kft, its libraries and the test programs into an
# initramfs, boot Debian's kernel under QEMU (software emulation; never the
# build machine's own kernel), run guest.sh inside, and report its checks.
#
#   tests/kernel/run.sh [BUILD_DIR]     (default build)
#
# Prints the guest's "ok"/"not ok" lines and ends with "N passed, N failed".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
cc=${CC:-gcc}

stage=$(mktemp -d /tmp/kft-stage.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/kft/bin" "$stage/kft/lib" "$stage/progs"
cp "$build/bin/kft" "$stage/kft/bin/"
cp "$build/lib/libkft.so" "$stage/kft/lib/"
$cc -O2 -g -finstrument-functions -o "$stage/progs/sysprog" "$here/progs/sysprog.c"
cp "$here/guest-lib.sh" "$stage/guest-lib.sh"
# the virtio disk's drivers, in the order they load (Debian builds them as
# modules), when the kernel is the one fetch-kernel.sh unpacked
kernel=${KFT_KERNEL_IMAGE:-$("$here/fetch-kernel.sh")}
mods="$(dirname "$kernel")/../lib/modules/$(basename "$kernel" | sed 's/^vmlinuz-//')/kernel/drivers"
if [ -d "$mods" ]; then
	mkdir -p "$stage/modules"
	n=0
	for m in virtio/virtio_ring virtio/virtio virtio/virtio_pci_legacy_dev \
		 virtio/virtio_pci_modern_dev virtio/virtio_pci block/virtio_blk; do
		f=$(ls "$mods/$m.ko"* 2>/dev/null | head -1 || true)
		[ -n "$f" ] || continue
		n=$((n + 1))
		case $f in
		*.xz) xz -dc "$f" > "$stage/modules/$n-$(basename "$m").ko" ;;
		*) cp "$f" "$stage/modules/$n-$(basename "$m").ko" ;;
		esac
	done
fi

# kft.ko, for the same kernel (a failure to build it is a failed test)
module_built=0
"$here/build-module.sh" "$kernel" "$stage" > "$stage/module.log" 2>&1 && module_built=1

# the shared libraries they need, at the paths the loader looks in
for bin in "$stage/kft/bin/kft" "$stage/kft/lib/libkft.so" "$stage/progs/sysprog"; do
	ldd "$bin" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }'
done | sort -u | while read -r lib; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
# the loader finds the libraries through their standard paths; the
# interpreter of x86-64 programs is /lib64/ld-linux-x86-64.so.2
[ -e "$stage/lib64/ld-linux-x86-64.so.2" ] || {
	mkdir -p "$stage/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib64/"
}

# boot GUEST_SCRIPT [KERNEL_ARGS]: one boot running it; adds to pass and fail
pass=0 fail=0
boot() {
	local log rc p f
	# KFT_KERNEL_GUESTS="guest.sh ...": only those boots (default: all)
	case " ${KFT_KERNEL_GUESTS:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
	log=$(mktemp /tmp/kft-console.XXXXXX)
	cp "$here/$1" "$stage/guest.sh"
	set +e
	"$here/boot.sh" -t "${KFT_KERNEL_TIMEOUT:-900}" ${2:+-a "$2"} "$stage" > "$log" 2>&1
	rc=$?
	set -e
	grep -a -E '^(ok|not ok) - |^#   ' "$log" || true
	p=$(grep -a -c '^ok - ' "$log" || true)
	f=$(grep -a -c '^not ok - ' "$log" || true)
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $1: the guest ran to the end (boot.sh exit $rc)"
		tail -30 "$log" | sed 's/^/#   /'
		f=1
	fi
	rm -f "$log"
	pass=$((pass + p)) fail=$((fail + f))
}
boot guest.sh
# a boot trace: the kernel traced from power-on, as the config says
cp "$here/boot.conf" "$stage/boot.conf"
boot guest-boot.sh "$("$build/bin/kft" kernel bootargs "$here/boot.conf" 2>/dev/null)"
# kft.ko: /proc/kft and /proc/kft_data
if [ "$module_built" = 1 ]; then
	# two CPUs: hooks racing on both, calls returning on another CPU
	KFT_GUEST_CPUS=2 boot guest-module.sh
else
	echo "not ok - kft.ko builds for $(basename "$kernel")"
	sed 's/^/#   /' "$stage/module.log" | tail -20
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
