#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The receiver's cost (demodulator + decoders), the issue 18 figures:
#  - instructions per audio sample, counted by callgrind (exact and
#    repeatable, unlike wall time), in ir_receiver_process only:
#      idle    10 s of quiet noise at 48 kHz (a receiver's usual state)
#      frames  10 s of back-to-back NEC frames at 48 kHz
#  - throughput, times real time on one core (48 and 192 kHz, idle and
#    IR-dense), and latency from a frame's last edge to its report, per
#    protocol (bench_audio throughput, latency: wall time, this machine).
# Count on a Release build (-O2): a Debug build's figures are several times
# larger and say nothing about the shipped code.
# Usage: bench/callgrind.sh [path/to/bench_audio]   (default: build-rel's, else build's)
set -eu
if [ $# -gt 0 ]; then
	BENCH=$1
elif [ -x build-rel/bench/bench_audio ]; then
	BENCH=build-rel/bench/bench_audio
else
	BENCH=build/bench/bench_audio
fi
echo "bench: $BENCH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --toggle-collect=ir_receiver_process \
		"$BENCH" "$1" "$2" >"$tmp/log" 2>&1
	callgrind_annotate "$tmp/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}'
}
for what in silence dense; do
	ir=$(count "$what" 10)
	# the rendered length (frames run a little past 10 s)
	samples=$(awk '/^processed/ {print $2}' "$tmp/log")
	label=idle
	[ "$what" = dense ] && label=frames
	echo "$label ($what): $ir instructions in ir_receiver_process for $samples samples = $(awk "BEGIN {printf \"%.1f\", $ir / $samples}") per sample"
done
"$BENCH" throughput
"$BENCH" latency --frames 200
