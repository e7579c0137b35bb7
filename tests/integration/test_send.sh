#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_send.sh IRJACK SOURCE_DIR TX_LIGHT_TOOL - `irjack send` end to end: WAV
# output, the same samples through real alsa-lib (file PCM irsink), keymap
# and lircd.conf buttons through the LED and receiver models, errors, help.
set -u
IRJACK=$1
SHARED=$2/../shared
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$IRJACK" send --help | grep -q "half-carrier-stereo" || fail "help lacks the modes"
"$IRJACK" send nec:0x04fb -o "$T/nec.wav" || fail "send to WAV"
"$IRJACK" send nec:0x04fb --rate 192000 -o "$T/nec192.wav" || fail "send at 192 kHz"
if "$IRJACK" send bang_olufsen:0x1 -o "$T/bo.wav" 2>"$T/err"; then fail "455 kHz accepted at 48 kHz"; fi
grep -q "cannot make a 455000 Hz carrier" "$T/err" || fail "no clear carrier error"
if "$IRJACK" send 2>/dev/null; then fail "nothing to send accepted"; fi

python3 - "$T/nec.wav" <<'PY' || fail "WAV content"
import struct, sys
d = open(sys.argv[1], 'rb').read()
i = d.find(b'data'); n = struct.unpack('<I', d[i+4:i+8])[0]
fmt = d.find(b'fmt ')
ch, rate = struct.unpack('<HI', d[fmt+10:fmt+16])
s = struct.unpack('<%df' % (n // 4), d[i+8:i+8+n])
L, R = s[0::2], s[1::2]
assert ch == 2 and rate == 48000, (ch, rate)
assert all(a == -b for a, b in zip(L, R)), "R is not -L"
print("send WAV: %d frames, peak %.3f" % (len(L), max(L)))
assert 0.79 < max(L) <= 0.8
PY

CONF=$SHARED/notes/alsa-file-pcm.conf
if [ -r "$CONF" ] && [ -r /usr/share/alsa/alsa.conf ]; then
	ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$CONF "$IRJACK" send nec:0x04fb \
		--device "irsink:OUT=$T/nec.raw" 2>"$T/alsa.err" || { cat "$T/alsa.err"; fail "send to irsink"; }
	python3 - "$T/nec.wav" "$T/nec.raw" <<'PY' || fail "ALSA bytes differ from the WAV's"
import struct, sys
d = open(sys.argv[1], 'rb').read(); r = open(sys.argv[2], 'rb').read()
i = d.find(b'data'); n = struct.unpack('<I', d[i+4:i+8])[0]
print("send ALSA irsink: %d bytes, WAV data %d bytes, identical %s" % (len(r), n, d[i+8:i+8+n] == r))
assert d[i+8:i+8+n] == r
PY
else
	echo "skip ALSA part: $CONF missing"
fi
# Keymap buttons (issue #6): `irjack send --keymap` into a WAV, through the
# LED model (tx_light_tool) and the receiver model (`irjack synth
# --timings`), decoded by `irjack decode --keymap` to the same key.
LIGHT=${3:-}
[ -x "$LIGHT" ] || fail "tx_light_tool not given"
MCE=/usr/share/lirc/remotes/mceusb/lircd.conf.mceusb
[ -r "$MCE" ] || fail "$MCE missing (Debian lirc-compat-remotes)"
# the same remote with its own carrier and duty cycle, which send must use
sed 's/^\(\s*gap\s.*\)$/\1\n  frequency 36000\n  duty_cycle 25/' "$MCE" >"$T/mce.conf"
loop() { # WAV CARRIER [single] -> receiver WAV $T/rx.wav
	"$LIGHT" "$1" "$2" ${3:-} >"$T/light.mode2" || fail "LED model of $1"
	"$IRJACK" synth --timings "$T/light.mode2" -o "$T/rx.wav" || fail "receiver model of $1"
}
"$IRJACK" send --keymap "$T/mce.conf" mceusb KEY_PLAY -o "$T/play.wav" || fail "send --keymap REMOTE KEY"
loop "$T/play.wav" 36000
"$IRJACK" decode --keymap "$T/mce.conf" "$T/rx.wav" >"$T/dec" || fail "decode --keymap"
cat "$T/dec"
grep -q "lirc .*KEY_PLAY (mceusb)" "$T/dec" || fail "lircd.conf button did not come back"
# the carrier is the remote's frequency (36 kHz, not the 38 kHz default)
python3 - "$T/light.mode2" <<'PY' || fail "light carrier is not the lircd.conf frequency"
import sys
hz = int(open(sys.argv[1]).readline().split()[1])
print("send --keymap: light carrier %d Hz (lircd.conf frequency 36000, %+.3f %%)" % (hz, 100.0 * (hz - 36000) / 36000))
assert abs(hz - 36000) <= 0.005 * 36000
PY
# and the duty cycle is the remote's: at 192 kHz (full carrier) the WAV is
# the one --carrier 36000 --duty 25 makes from the remote without them
grep -v "frequency\|duty_cycle" "$T/mce.conf" >"$T/mce-plain.conf"
"$IRJACK" send --rate 192000 --keymap "$T/mce.conf" mceusb KEY_PLAY -o "$T/a.wav" || fail "send at 192 kHz"
"$IRJACK" send --rate 192000 --carrier 36000 --duty 25 --keymap "$T/mce-plain.conf" mceusb KEY_PLAY \
	-o "$T/b.wav" || fail "send with --duty"
cmp -s "$T/a.wav" "$T/b.wav" || fail "lircd.conf duty_cycle not used"
"$IRJACK" send --rate 192000 --carrier 36000 --duty 50 --keymap "$T/mce-plain.conf" mceusb KEY_PLAY \
	-o "$T/c.wav" || fail "send with --duty 50"
if cmp -s "$T/a.wav" "$T/c.wav"; then fail "--duty makes no difference"; fi
loop "$T/a.wav" 36000 single
"$IRJACK" decode --keymap "$T/mce.conf" "$T/rx.wav" | grep -q "KEY_PLAY (mceusb)" || fail "192 kHz button"

# a key name alone: the first remote that has it, from an rc_keymaps file
TOML=$2/tests/data/keymaps/nec-irmp.toml
"$IRJACK" send --keymap "$TOML" KEY_DOWN -o "$T/down.wav" || fail "send --keymap KEY"
loop "$T/down.wav" 38000
"$IRJACK" decode --keymap "$TOML" "$T/rx.wav" >"$T/dec" || fail "decode --keymap TOML"
cat "$T/dec"
grep -q "KEY_DOWN" "$T/dec" || fail "TOML key did not come back"
if "$IRJACK" send --keymap "$TOML" KEY_NOPE -o "$T/x.wav" 2>"$T/err"; then fail "unknown key accepted"; fi
grep -q "no remote has a key 'KEY_NOPE'" "$T/err" || fail "no clear unknown-key error"
if "$IRJACK" send --keymap "$MCE" mceusb NOPE -o "$T/x.wav" 2>/dev/null; then fail "unknown button accepted"; fi
echo "test_send: ok"
