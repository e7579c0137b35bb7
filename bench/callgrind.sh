#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Instructions per audio sample of the receiver (demodulator + decoders),
# counted by callgrind (exact and repeatable, unlike wall time):
#   silence  10 s of quiet noise at 48 kHz (a receiver's usual state)
#   dense    10 s of back-to-back NEC frames at 48 kHz
# The fixed cost of rendering the test signal is measured separately (0 s
# of processing) and subtracted.
# Usage: bench/callgrind.sh [build/bench/bench_audio]
set -eu
BENCH=${1:-build/bench/bench_audio}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --toggle-collect=ir_receiver_process \
		"$BENCH" "$1" "$2" >"$tmp/log" 2>&1
	callgrind_annotate "$tmp/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}'
}
for what in silence dense; do
	ir=$(count "$what" 10)
	samples=480000
	echo "$what: $ir instructions in ir_receiver_process for $samples samples = $(awk "BEGIN {printf \"%.1f\", $ir / $samples}") per sample"
done
