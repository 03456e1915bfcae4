#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot Debian's kernel under QEMU (software emulation) with a busybox
# initramfs holding the files of STAGE, run STAGE/guest.sh as root inside,
# and print the guest's console. Exit status: guest.sh's, 124 on timeout,
# 125 when the guest never said how it ended (panic, crash).
#
#   tests/kernel/boot.sh [-t SECONDS] [-o CONSOLE_LOG] [-a KERNEL_ARGS] STAGE
#
# The kernel is KFT_KERNEL_IMAGE, or Debian's linux-image-amd64 unpacked
# into $KFT_KERNEL_CACHE (default build/kernel-cache) by fetch-kernel.sh.
# The guest has a virtio disk of 16 MiB (/dev/vda once the stage's
# virtio modules are loaded), for a device to interrupt, and
# KFT_GUEST_CPUS CPUs (default 1).
set -euo pipefail

timeout_s=600 log= extra=
while getopts "t:o:a:" opt; do
	case $opt in
	t) timeout_s=$OPTARG ;;
	o) log=$OPTARG ;;
	a) extra=$OPTARG ;;
	*) sed -n '3,11p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '3,11p' "$0"; exit 2; }
stage=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
kernel=${KFT_KERNEL_IMAGE:-$("$here/fetch-kernel.sh")}

work=$(mktemp -d /tmp/kft-boot.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list-full); do
	[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
done
cat > "$root/init" <<'INIT'
#!/bin/sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
cd /tmp
sh /guest.sh
echo "KFT-GUEST-EXIT=$?"
poweroff -f
INIT
chmod +x "$root/init"
cp -a "$stage"/. "$root"/
chmod 755 "$root"	# the stage came from mktemp -d (0700): others must see /
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"
head -c 16M /dev/urandom > "$work/disk.img"

# KVM is left alone: on hosts without vmx/svm /dev/kvm may exist and crawl.
# Several CPUs take turns on one host thread: with a thread each, a CPU
# was seen to run on stale code after ftrace patched the kernel's text
# (an int3 already gone from memory, taken again and again).
accel=tcg
[ "${KFT_GUEST_CPUS:-1}" -gt 1 ] && accel=tcg,thread=single
set +e
timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 -accel "$accel" -cpu max -smp "${KFT_GUEST_CPUS:-1}" -m 768M \
	-kernel "$kernel" -initrd "$work/initrd.gz" \
	-drive file="$work/disk.img",if=virtio,format=raw \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=3${extra:+ $extra}" \
	-nographic -monitor none -serial stdio -no-reboot -nodefaults </dev/null \
	| sed -u 's/\r$//' | tee "$work/console" ${log:+"$log"}
qemu_rc=${PIPESTATUS[0]}
set -e
[ "$qemu_rc" = 124 ] && { echo "boot.sh: timeout after ${timeout_s}s" >&2; exit 124; }
rc=$(grep -a -o 'KFT-GUEST-EXIT=[0-9]*' "$work/console" | tail -1 | cut -d= -f2 || true)
[ -n "$rc" ] || { echo "boot.sh: the guest did not finish (qemu rc $qemu_rc)" >&2; exit 125; }
exit "$rc"
