# SPDX-License-Identifier: GPL-2.0-only
# What the guest scripts share (sourced by guest.sh and guest-boot.sh):
# "ok - NAME" or "not ok - NAME" per check, failures counted.
PATH=/kft/bin:$PATH
T=/sys/kernel/tracing
failed=0

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; failed=$((failed + 1)); }
# check NAME COMMAND...: the command must succeed
check() { name=$1; shift; if "$@" >/tmp/out 2>&1; then ok "$name"; else not_ok "$name"; sed 's/^/#   /' /tmp/out | head -20; fi; }
