#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# valgrind memcheck over the weak-signal path (the sequence detector, its
# τ fits and decision feedback, the unit grids): frames at 2 dB under a
# 5 ms coupling at 16 kHz, where every frame goes through them.  Any
# memory error fails (exit 99).  It caught a read of a τ fit before it
# was computed (fb_update), a choice that had depended on the stack.
# Usage: test_weak_memcheck.sh IRJACK_BINARY
# IRJACK_VALGRIND: the memcheck command line (tests/CMakeLists.txt's, as
# the daemon's memcheck tests use it).
set -u
IRJACK=$1
VALGRIND=${IRJACK_VALGRIND:-valgrind -q --error-exitcode=99}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$IRJACK" synth rc5:0x0a01 rc5:0x0a02 nec:0x04 nec:0x08 sony12:0x10015 --rate 16000 \
	--ac-tau-ms 5 --snr-db 2 --hum 50:0.02 --seed 7 -o "$TMP/weak.wav" ||
	{ echo "FAIL: synth"; exit 1; }
$VALGRIND "$IRJACK" decode "$TMP/weak.wav" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
if [ $rc != 0 ]; then
	cat "$TMP/err"
	echo "FAIL: irjack decode under memcheck exited $rc"
	exit 1
fi
# (the path must have run: at 2 dB most of these frames decode)
n=$(grep -c . "$TMP/out")
[ "$n" -ge 3 ] || { echo "FAIL: $n frames decoded, at least 3 expected"; exit 1; }
echo "ok: $n frames under memcheck, no error"
