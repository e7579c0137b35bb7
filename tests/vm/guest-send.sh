#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): `irjack send` on a real kernel sound device
# with a clock, snd-aloop (issue #6).  For each code, arecord captures the
# loopback's other side while `irjack send -d hw:Loopback,0,0` plays; then
#   1. the captured carrier goes through the LED model (tx_light_tool) and
#      the receiver model (`irjack synth --timings`), and `irjack decode`
#      must give back the scancode sent;
#   2. the span from the first to the last sample above 1 % of full scale
#      must equal the encoder's frame (the sum of `irjack encode`'s edges
#      but the trailing space) within one ALSA period of the send;
#   3. the send lasts (wall time to the end of its drain, `send -v`) at
#      least its audio less one period: it returned when the light ended,
#      not when the last sample was queued.  (No upper bound: software
#      emulation stalls at will.)
# Usage (in the guest): guest-send.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
IRJACK=$BUILD/irjack
LIGHT=$BUILD/tests/tx_light_tool
TMP=$(mktemp -d)
PLAY=hw:Loopback,0,0
CAPTURE=hw:Loopback,1,0
STATUS=/proc/asound/Loopback/pcm1c/sub0/status
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[ -e /dev/snd/pcmC0D1c ] && [ -e "$STATUS" ] || { echo "FAIL: no snd-aloop in the VM"; exit 1; }
command -v arecord >/dev/null || { echo "FAIL: arecord (alsa-utils) missing"; exit 1; }
[ -x "$LIGHT" ] || { echo "FAIL: $LIGHT not built"; exit 1; }
# loading them over 9p stalls everything else for a while: once first
arecord --version >/dev/null
python3 -c "import struct"

# Waits (up to 20 s) until the capture side runs, so that it decides the
# cable's format and the send's first sample is captured.
wait_running() {
	i=0
	while ! grep -q "state: RUNNING" "$STATUS" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "state: RUNNING" "$STATUS" || fail "arecord did not start"
}

# nec, rc5, rc6_0, sony12 and jvc: four families' encoders, carriers
# 36, 38 and 40 kHz, and frames from 24 to 68 ms.
# send_and_check CODE: 0 when all holds, 3 when only the frame's length on
# the cable is off, else 1 (after saying why)
send_and_check() {
	code=$1
	rm -f "$TMP/cap.wav"
	"$IRJACK" encode "$code" >"$TMP/enc.mode2" || { fail "encode $code"; return 1; }
	arecord -q -D "$CAPTURE" -f FLOAT_LE -r 48000 -c 2 -t wav "$TMP/cap.wav" 2>"$TMP/arec.err" &
	apid=$!
	wait_running
	"$IRJACK" send -v -d "$PLAY" "$code" 2>"$TMP/send.err" || fail "send $code: $(cat "$TMP/send.err")"
	# the last period reaches the capture side within a period or two
	sleep 0.3
	kill -INT "$apid"
	wait "$apid"
	grep -v "^Aborted by signal" "$TMP/arec.err"
	cat "$TMP/send.err"
	carrier=$(awk '/^carrier/ { print $2 }' "$TMP/enc.mode2")
	"$LIGHT" "$TMP/cap.wav" "${carrier:-38000}" >"$TMP/light.mode2" || { fail "LED model of $code"; return 1; }
	"$IRJACK" synth --timings "$TMP/light.mode2" -o "$TMP/rx.wav" || { fail "receiver model of $code"; return 1; }
	"$IRJACK" decode --json "$TMP/rx.wav" >"$TMP/dec.json" || fail "decode $code"
	python3 - "$code" "$TMP/enc.mode2" "$TMP/cap.wav" "$TMP/send.err" "$TMP/dec.json" <<'PY'
import json, re, struct, sys
code, enc, cap, senderr, dec = sys.argv[1:]
proto, sc = code.split(":")
edges = [l.split() for l in open(enc) if l.startswith(("pulse", "space"))]
while edges and edges[-1][0] == "space":
    edges.pop()
nominal = sum(int(v) for _, v in edges) / 1000.0
d = open(cap, "rb").read()
fmt = d.find(b"fmt ")
tag, ch, rate = struct.unpack("<HHI", d[fmt + 8:fmt + 16])
bits = struct.unpack("<H", d[fmt + 22:fmt + 24])[0]
assert (tag, ch, rate, bits) == (3, 2, 48000, 32), ("capture format", tag, ch, rate, bits)
i = d.find(b"data")
body = d[i + 8:]  # to the file's end: a header arecord could not finish is no matter
body = body[:len(body) // 8 * 8]
left = struct.unpack("<%df" % (len(body) // 4), body)[0::2]
loud = [k for k, v in enumerate(left) if abs(v) > 0.01]
assert loud, "the capture is silent"
measured = (loud[-1] - loud[0] + 1) * 1000.0 / rate
m = re.search(r"period \d+ frames \(([\d.]+) ms\); played \d+ frames \(([\d.]+) ms\) in ([\d.]+) ms",
              open(senderr).read())
assert m, "no period in send -v's line"
period_ms, audio_ms, wall_ms = (float(g) for g in m.groups())
got = [json.loads(l) for l in open(dec)]
first = got[0] if got else {"protocol": "-", "scancode": -1}
print("send %-15s decoded %s:0x%x (%d frame(s)); nominal %.3f ms, measured %.3f ms (%+.3f), period %.1f ms; "
      "send took %.1f ms for %.1f ms of audio"
      % (code, first["protocol"], first["scancode"], len(got), nominal, measured,
         measured - nominal, period_ms, wall_ms, audio_ms))
assert len(got) == 1 and first["protocol"] == proto and first["scancode"] == int(sc, 0), got
assert wall_ms >= audio_ms - period_ms, "send returned before its audio had played"
if abs(measured - nominal) > period_ms:
    print("frame length off by more than a period")
    sys.exit(3)
PY
}

# A length off on the cable is retried once: under emulation the loopback
# once gave a sony12 frame (45 ms of audio sent, 0 underruns) a span of
# 55.6 ms in the capture; a second miss fails.
for code in nec:0x04fb rc5:0x1e0c rc6_0:0x800f sony12:0x10015 jvc:0x1234; do
	send_and_check "$code"
	rc=$?
	if [ "$rc" = 3 ]; then
		echo "retrying $code once (its length on the cable was off)"
		send_and_check "$code"
		rc=$?
	fi
	[ "$rc" = 0 ] || fail "$code"
done
rm -rf "$TMP"
[ "$failures" = 0 ]
