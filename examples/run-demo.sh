#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make demo`: build the bundled example with instrumentation, record it
# with the bundled config, print its log and the run's status.
set -e
O=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
kft="$O/bin/kft"
out="$O/demo"
mkdir -p "$out"

${CC:-gcc} -g -O0 -finstrument-functions -o "$out/demo" "$here/demo.c"
echo "\$ kft record -c examples/demo.conf -o $out/kft.data -- $out/demo"
"$kft" record -c "$here/demo.conf" -o "$out/kft.data" -- "$out/demo"
echo
echo "\$ kft log $out/kft.data"
"$kft" log "$out/kft.data"
echo
echo "\$ kft status $out/kft.data"
"$kft" status "$out/kft.data"
echo
echo "\$ kft kd -l $out/kft.data"
"$kft" kd -l "$out/kft.data"
