#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/check-layers must fail on what it is there to catch: a tree of two
# layers (low <- high) gets, one at a time, an include against the data
# flow, a call against it (seen only in the objects' symbols), a cycle of
# calls between two files of one layer, and a layer file out of order.
# Usage: test_check_layers.sh SOURCE_DIR
set -u
CHECK=$1/tools/check-layers
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A fresh tree: high/b.c includes low/a.h and calls a().
setup() {
	rm -rf "$TMP/t" && mkdir -p "$TMP/t/lib/low" "$TMP/t/lib/high"
	printf 'low lib/low\nhigh lib/high low\n' >"$TMP/t/layers.txt"
	printf 'int a(void);\n' >"$TMP/t/lib/low/a.h"
	printf '#include "a.h"\nint a(void) { return 1; }\n' >"$TMP/t/lib/low/a.c"
	printf 'int b(void);\n' >"$TMP/t/lib/high/b.h"
	printf '#include "b.h"\n#include "a.h"\nint b(void) { return a(); }\n' >"$TMP/t/lib/high/b.c"
}

# Compiles every .c as CMake lays out a layer library's objects.
build() {
	for layer in low high; do
		for c in "$TMP/t/lib/$layer"/*.c; do
			o="$TMP/t/build/CMakeFiles/irjack_$layer.dir/lib/$layer/$(basename "$c").o"
			mkdir -p "$(dirname "$o")"
			cc -c -I"$TMP/t/lib/low" -I"$TMP/t/lib/high" "$c" -o "$o" || fail "cc $c"
		done
	done
}

# expect STATUS PATTERN: check-layers exits STATUS and prints PATTERN.
expect() {
	"$CHECK" --source "$TMP/t" --build "$TMP/t/build" >"$TMP/out" 2>&1
	status=$?
	[ "$status" = "$1" ] || fail "exit $status, expected $1: $(cat "$TMP/out")"
	grep -q "$2" "$TMP/out" || fail "no '$2' in: $(cat "$TMP/out")"
}

setup; build
expect 0 'no back-edge, no cycle'

setup
printf '#include "b.h"\nint a(void) { return 1; }\n' >"$TMP/t/lib/low/a.c"
build
expect 1 'layer low may not use layer high: lib/low/a.c:1: #include "b.h"'

setup
printf 'int b(void);\nint a(void) { return b(); }\n' >"$TMP/t/lib/low/a.c"
build
expect 1 'layer low may not use layer high: lib/low/a.c uses b (lib/high/b.c)'

setup
printf 'int d(void);\nint c(int n) { return n ? d() : 0; }\n' >"$TMP/t/lib/low/c.c"
printf 'int c(int);\nint d(void) { return c(0); }\n' >"$TMP/t/lib/low/d.c"
build
expect 1 'cycle between files lib/low/c.c, lib/low/d.c'

setup
printf 'high lib/high low\nlow lib/low\n' >"$TMP/t/layers.txt"
build
expect 1 'depends on low, which is not listed above it'

[ "$failures" = 0 ] && echo "check-layers caught every planted problem"
exit "$failures"
