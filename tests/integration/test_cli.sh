#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The irjack command line: help, exit codes, error messages, decode/encode.
# Usage: test_cli.sh IRJACK_BINARY SOURCE_DIR
set -u
IRJACK=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect_exit CODE CMD...: runs CMD, stdout to $TMP/out, stderr to $TMP/err
expect_exit() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(head -c 300 "$TMP/err")"
}
expect_out() { grep -q -- "$1" "$TMP/out" || fail "stdout lacks '$1': $(head -c 300 "$TMP/out")"; }
expect_err() { grep -q -- "$1" "$TMP/err" || fail "stderr lacks '$1': $(head -c 300 "$TMP/err")"; }

# help everywhere
expect_exit 0 "$IRJACK" --help; expect_out "Usage: irjack COMMAND"
for cmd in decode encode protocols; do
	expect_exit 0 "$IRJACK" "$cmd" --help; expect_out "Usage: irjack $cmd"
	expect_exit 0 "$IRJACK" help "$cmd"; expect_out "Usage: irjack $cmd"
done
# every command's help, as a man page would be read: on an 80-column
# terminal (characters, not bytes: LC_ALL=C.UTF-8)
for cmd in $("$IRJACK" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p'); do
	expect_exit 0 "$IRJACK" "$cmd" --help; expect_out "Usage: irjack $cmd"
	wide=$(LC_ALL=C.UTF-8 wc -L <"$TMP/out")
	[ "$wide" -le 80 ] || fail "irjack $cmd --help: a line of $wide columns: $(LC_ALL=C.UTF-8 grep '.\{81\}' "$TMP/out")"
done
[ "$("$IRJACK" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p' | wc -l)" -ge 14 ] ||
	fail "irjack --help lists fewer than 14 commands"
expect_exit 0 "$IRJACK" --version; expect_out "^irjack [0-9]"
expect_exit 2 "$IRJACK"
expect_exit 2 "$IRJACK" frobnicate; expect_err "unknown command 'frobnicate'"
expect_exit 2 "$IRJACK" decode --bogus-option x

# display --lcddev: a device server, so no screen of its own; no receiver
# here (no USB on the build host): refused before any device is made
expect_exit 0 "$IRJACK" display --help; expect_out "--lcddev NAME"
expect_exit 2 "$IRJACK" display --lcddev lcd0 Hello
expect_err "--lcddev takes no text"
expect_exit 2 "$IRJACK" display --lcddev lcd0 --off
expect_exit 2 "$IRJACK" display -d usb:imon --lcddev lcd0
expect_err "no iMON receiver found"

# the README's main job: a real NEC capture (IRMP's), labelled 0x0007 + 2
# repeats and 0x0006 + 1 repeat
expect_exit 0 "$IRJACK" decode "$SRC/samples/nec-remote-irmp.mode2"
[ "$(grep -c 'nec *0x0007$' "$TMP/out")" = 1 ] || fail "nec 0x0007 frame"
[ "$(grep -c 'nec *0x0007 repeat$' "$TMP/out")" = 2 ] || fail "two repeats of 0x0007"
[ "$(grep -c 'nec *0x0006$' "$TMP/out")" = 1 ] || fail "nec 0x0006 frame"
[ "$(wc -l < "$TMP/out")" = 5 ] || fail "exactly 5 lines"

# JSON lines parse and carry the documented keys
expect_exit 0 "$IRJACK" decode --json "$SRC/samples/nec-remote-irmp.mode2"
python3 - "$TMP/out" <<'PY' || fail "JSON output"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 5, rows
for r in rows:
    assert set(r) >= {"time", "end", "protocol", "scancode", "toggle", "repeat"}, r
    assert isinstance(r["scancode"], int) and isinstance(r["toggle"], bool)
    assert r["end"] > r["time"]
assert [r["scancode"] for r in rows] == [7, 7, 7, 6, 6]
assert [r["scancode_hex"] for r in rows] == ["0x0007"] * 3 + ["0x0006"] * 2, rows
assert [r["repeat"] for r in rows] == [False, True, True, False, True]
assert rows[0]["protocol"] == "nec"
PY

# encode | decode from stdin, several codes, all output formats
"$IRJACK" encode rc5:0x1e01 nec:0x04fb --repeats 1 > "$TMP/codes.mode2" || fail "encode"
grep -q '^carrier 36000$' "$TMP/codes.mode2" || fail "encode prints the carrier"
expect_exit 0 "$IRJACK" decode - < "$TMP/codes.mode2"
grep -q 'rc5 *0x1e01' "$TMP/out" || fail "decode rc5 from stdin"
grep -q 'nec *0x04fb repeat' "$TMP/out" || fail "decode nec repeat from stdin"
"$IRJACK" encode -f compact rc5:0x1e01 > "$TMP/c.txt"
# the ir-ctl man page's vector for rc5:0x1e01
grep -q '^+889 -889 +1778 -1778 +889 -889 +889 -889 +889 -889 +1778 -889 +889 -889 +889 -889 +889 -889 +889 -889 +889 -1778 +889 ' "$TMP/c.txt" || fail "rc5 golden vector"
"$IRJACK" encode -f binary nec:0x1234 > "$TMP/b.bin"
expect_exit 0 "$IRJACK" decode "$TMP/b.bin"; expect_out "nec *0x1234"
expect_exit 2 "$IRJACK" encode nec:0x10000; expect_err "outside nec's mask"
expect_exit 2 "$IRJACK" encode wibble:1; expect_err "unknown protocol 'wibble'"
expect_exit 2 "$IRJACK" encode nec; expect_err "expected PROTOCOL:SCANCODE"
expect_exit 2 "$IRJACK" encode --repeats -1 nec:1
expect_exit 2 "$IRJACK" encode

# --protocols filters
expect_exit 1 "$IRJACK" decode --protocols rc5 "$SRC/samples/nec-remote-irmp.mode2"
[ -s "$TMP/out" ] && fail "filtered decode printed frames"
expect_exit 2 "$IRJACK" decode --protocols nec,bogus x; expect_err "unknown protocol 'bogus'"

# errors name the file and line; no frames is exit 1
printf 'pulse 9000\nspace 4500\npulse banana\n' > "$TMP/bad.mode2"
expect_exit 2 "$IRJACK" decode "$TMP/bad.mode2"; expect_err "bad.mode2:3: "
expect_exit 2 "$IRJACK" decode "$TMP/does-not-exist"; expect_err "No such file"
printf 'pulse 100\nspace 100\n' > "$TMP/noise.mode2"
expect_exit 1 "$IRJACK" decode "$TMP/noise.mode2"
# several files: errors in one do not stop the others, source is labelled
expect_exit 2 "$IRJACK" decode --json "$TMP/bad.mode2" "$SRC/samples/nec-remote-irmp.mode2"
expect_out '"source":".*nec-remote-irmp.mode2"'
# garbage bytes never crash
head -c 4096 /dev/urandom > "$TMP/random.bin"
"$IRJACK" decode "$TMP/random.bin" >/dev/null 2>&1; rc=$?
[ $rc -le 2 ] || fail "random input: exit $rc"

# protocols listing
expect_exit 0 "$IRJACK" protocols; expect_out "^nec "; expect_out "^rc5 "
expect_exit 0 "$IRJACK" protocols --json
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/out" || fail "protocols --json"

# rc_keymaps: every file ir-keytable installs loads, and a keymap names the
# buttons of a capture
if [ -d /lib/udev/rc_keymaps ]; then
	expect_exit 0 "$IRJACK" keymap check /lib/udev/rc_keymaps; expect_out "remotes"
fi
expect_exit 0 "$IRJACK" decode --keymap "$SRC/tests/data/keymaps/nec-irmp.toml" "$SRC/samples/nec-remote-irmp.mode2"
[ "$(grep -c 'nec *0x0007  *KEY_UP (irmp-nec)$' "$TMP/out")" = 1 ] || fail "KEY_UP from the TOML keymap"
[ "$(grep -c 'nec *0x0006  *KEY_DOWN (irmp-nec)$' "$TMP/out")" = 1 ] || fail "KEY_DOWN from the TOML keymap"
printf '[[protocols]]\nprotocol = "nec"\nbits = 3\n' > "$TMP/bad.toml"
expect_exit 2 "$IRJACK" keymap check "$TMP/bad.toml"; expect_err "bad.toml:3: "


# issue #19, as a user met each case: irjack encode | sed | irjack decode -
pipe() { "$IRJACK" encode "$1" | sed "$2" | "$IRJACK" decode - >"$TMP/out" 2>"$TMP/err"; }
pipe nec:0x0408 's/^space 4500$/space 4200/'
grep -q 'nec *0x0408$' "$TMP/out" || fail "nec with a 4.2 ms header space (Pioneer remotes)"
pipe nec:0x0408 's/^space 4500$/space 3950/'
grep -q 'nec *0x0408$' "$TMP/out" || fail "nec with a 3.95 ms header space (the kernel's floor)"
pipe nec:0x0408 's/^pulse 9000$/pulse 9700/'
grep -q 'nec *0x0408$' "$TMP/out" || fail "nec with a 9.7 ms leader"
pipe pioneer:0xa50012 's/^carrier 40000$/carrier 38000/'
grep -q '^ *[0-9.]* *nec *0xa512$' "$TMP/out" || fail "a 38 kHz frame with device 0xA5 is nec"
pipe pioneer:0xa50012 's/^carrier 40000$/carrier 40000/'
grep -q 'pioneer *0xa50012$' "$TMP/out" || fail "a 40 kHz frame with device 0xA5 is pioneer"
pipe nec:0x0408 '$s/^space .*/space 563\npulse 563\nspace 1688\npulse 563\nspace 100000/'
[ -s "$TMP/out" ] && fail "a nec frame with 2 more bits decodes: $(cat "$TMP/out")"

# decode -v says why: each candidate family's reason for a train nothing took
"$IRJACK" encode nec:0x0408 | sed 's/^space 4500$/space 3800/' | "$IRJACK" decode -v - >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] || fail "decode -v of an undecodable train must exit 1"
expect_err '^0.000000-0.067[0-9]* s: 68 edges, no protocol took them$'
expect_err '^  nec: header space 3800 us outside 3937-5067'
# the pulse-distance engine's rows (jvc and sanyo are rows since #19),
# and a hand-written family, say theirs
"$IRJACK" encode rca:0x50012 | sed 's/^space 4000$/space 3300/' | "$IRJACK" decode -v - >"$TMP/out" 2>"$TMP/err"
expect_err '^  rca: header space 3300 us outside 3500-4500$'
"$IRJACK" encode jvc:0x1234 | sed 's/^space 4200$/space 3000/' | "$IRJACK" decode -v - >"$TMP/out" 2>"$TMP/err"
expect_err '^  jvc: header space 3000 us outside 3938-4462$'
"$IRJACK" encode sanyo:0x1234 | sed 's/^space 4500$/space 3000/' | "$IRJACK" decode -v - >"$TMP/out" 2>"$TMP/err"
expect_err '^  sanyo: header space 3000 us outside 4223-4785$'
"$IRJACK" encode kaseikyo:0x20020b01 | sed 's/^space 1728$/space 1000/' | "$IRJACK" decode -v - >"$TMP/out" 2>"$TMP/err"
expect_err '^  kaseikyo: header space, after 0 bits: space 1000 us fits nothing there$'
"$IRJACK" encode nec:0x0408 | "$IRJACK" decode -v - >"$TMP/out" 2>"$TMP/err"
[ -s "$TMP/err" ] && fail "decode -v of a good frame printed reasons: $(cat "$TMP/err")"
# the US protocols through the CLI, and blaupunkt only at its carrier
pipe gi_cable:0x3005a 's/x/x/'
grep -q 'gi_cable *0x3005a$' "$TMP/out" || fail "gi_cable round trip: $(cat "$TMP/out")"
pipe blaupunkt:0x20015 's/^carrier 30300$/carrier 38000/'
grep -q 'grundig *0x095$' "$TMP/out" || fail "blaupunkt's light at 38 kHz is grundig: $(cat "$TMP/out")"
pipe blaupunkt:0x20015 's/x/x/'
grep -q 'blaupunkt *0x20015$' "$TMP/out" || fail "blaupunkt at 30.3 kHz: $(cat "$TMP/out")"

# A FIFO is read once: the writer sends its data and closes, and decode
# ends (the format probe used to consume it and a second open waited for a
# writer forever).  Mode2 and WAV alike; `timeout` makes a hang a failure.
mkfifo "$TMP/fifo"
for f in nec-remote-irmp.mode2 nec-mic-jack-44k.wav; do
	cat "$SRC/samples/$f" >"$TMP/fifo" &
	writer=$!
	expect_exit 0 timeout 10 "$IRJACK" decode "$TMP/fifo"
	expect_out "nec  *0x0"
	kill $writer 2>/dev/null; wait $writer 2>/dev/null
done
# a directory says so (it was "Input/output error")
expect_exit 2 "$IRJACK" decode "$TMP"; expect_err "Is a directory"
expect_exit 2 "$IRJACK" synth --timings "$TMP" -o "$TMP/x.wav"; expect_err ": Is a directory"
# a broken WAV says it is one, with libsndfile's reason (it was named as a
# binary timing file: "x.wav:1: word 0x46464952 has unknown type 0x46")
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[20:22] = b"\x99\x00"; open(sys.argv[2], "wb").write(d)' \
	"$SRC/samples/nec-mic-jack-44k.wav" "$TMP/bad.wav"
expect_exit 2 "$IRJACK" decode "$TMP/bad.wav"; expect_err "bad.wav: a broken audio file: .*fmt"

if [ $failures -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "all CLI checks passed"
