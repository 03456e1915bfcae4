#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A trace directory as one input of fuzz-trace: each file as its name's
# length (one byte), the name, its size (four bytes, little-endian), its data.
#   tests/fuzz/pack-trace.sh DIR > FILE
set -eu
byte() { printf "\\$(printf %03o "$1")"; }
for f in "$1"/*; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	size=$(stat -c %s "$f")
	byte ${#name}
	printf %s "$name"
	for shift in 0 8 16 24; do
		byte $(((size >> shift) & 255))
	done
	cat "$f"
done
