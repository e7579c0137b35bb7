#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_send.sh IRJACK SOURCE_DIR - `irjack send` end to end: WAV output, the
# same samples through real alsa-lib (file PCM irsink), errors and help.
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
echo "test_send: ok"
