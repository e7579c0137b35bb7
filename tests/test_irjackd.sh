#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjackd: --check-config, configuration errors with file:line, and a
# recording replayed as a source, its frames tagged with the source.
# Usage: test_irjackd.sh IRJACKD_BINARY SOURCE_DIR
set -u
IRJACKD=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_exit() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(head -c 300 "$TMP/err")"
}
expect_out() { grep -q -- "$1" "$TMP/out" || fail "stdout lacks '$1': $(head -c 300 "$TMP/out")"; }
expect_err() { grep -q -- "$1" "$TMP/err" || fail "stderr lacks '$1': $(head -c 300 "$TMP/err")"; }

expect_exit 0 "$IRJACKD" --help; expect_out "Usage: irjackd"
expect_exit 2 "$IRJACKD" --config "$TMP/none.conf"; expect_err "none.conf: No such file"

cat >"$TMP/bad.conf" <<CONF
[source mic]
type = alsa
rate = 1234
CONF
expect_exit 2 "$IRJACKD" --check-config --config "$TMP/bad.conf"
expect_err "bad.conf:3: rate"

cat >"$TMP/ok.conf" <<CONF
[source rec]
type = file
device = $SRC/samples/nec-mic-jack-44k.wav

[source irmp]
type = file
device = $SRC/samples/nec-remote-irmp.mode2

[output json]
path = -
CONF
expect_exit 0 "$IRJACKD" --check-config --config "$TMP/ok.conf"
expect_out "configuration valid"; expect_out "source rec: file"
expect_exit 0 "$IRJACKD" --config "$TMP/ok.conf"
[ "$(grep -c '"source":"rec"' "$TMP/out")" = 6 ] || fail "6 frames from the WAV source: $(cat "$TMP/out")"
[ "$(grep -c '"source":"irmp"' "$TMP/out")" = 5 ] || fail "5 frames from the mode2 source"
grep -q '"protocol":"nec","scancode":1275' "$TMP/out" || fail "nec 0x04fb as JSON"

if [ "$failures" -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "irjackd tests passed"
