#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): `irjack listen` on a real kernel sound
# device with a clock, snd-aloop.  aplay plays a real recording into the
# loopback's playback side while irjack captures the other side:
#   1. every frame decodes as `irjack decode` decodes the file;
#   2. the time from a frame's end to its printed line, relative to the
#      fastest line (printed; bounded loosely: software emulation);
#   3. a stopped process (SIGSTOP, 0.5 s) overruns; the overrun is
#      recovered and counted, and the next playback decodes in full;
#      the same after a storm of 10 stops;
#   4. the card vanishing (its driver unbound, as a USB card unplugged) is
#      reported, the card is reopened once it is back, and decodes in full;
#   5. the same through PortAudio (the card let go so that unbind returns).
# Usage (in the guest): guest-listen.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
SRC=$2
IRJACK=$BUILD/irjack
WAV=$SRC/samples/nec-mic-jack-44k.wav
TMP=$(mktemp -d)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
[ -e /dev/snd/pcmC0D1c ] || { echo "FAIL: no snd-aloop in the VM"; exit 1; }
command -v aplay >/dev/null || { echo "FAIL: aplay (alsa-utils) missing"; exit 1; }

# The reference: the recording after a second of digital silence, which is
# what the loopback gives before aplay starts (test_demod_leading_silence
# checks that silence costs no frame).
python3 - "$WAV" "$TMP/ref.wav" <<'PY'
import sys, wave
w = wave.open(sys.argv[1])
o = wave.open(sys.argv[2], "wb")
o.setnchannels(1); o.setsampwidth(2); o.setframerate(w.getframerate())
o.writeframes(b"\0\0" * w.getframerate() + w.readframes(w.getnframes()))
PY
# scancodes and flags, without the times (the stream starts before the playback)
"$IRJACK" decode "$TMP/ref.wav" | awk '{ $1 = ""; print }' > "$TMP/want.txt"
"$IRJACK" decode --json "$TMP/ref.wav" > "$TMP/want.json"
want=$(wc -l < "$TMP/want.txt")
[ "$want" -ge 4 ] || fail "the reference has only $want frames"

# Periods of 20 ms, 4 per buffer: software emulation is slow to schedule.
listen() {
	exec "$IRJACK" listen -v -d hw:Loopback,1,0 -r 44100 --format S16_LE --period-us 20000 "$@"
}

# Waits (up to 20 s) until the listen writing stderr to $1 has the card open.
wait_listening() {
	i=0
	while ! grep -q "listening on" "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# 1 + 2: decode, with each line stamped on arrival.  aplay and python run
# once first: loading them over 9p stalls everything else for a while.
aplay --version >/dev/null
python3 -c "import json"
# Software emulation sometimes starves even a real-time thread for longer
# than the buffer (an overrun in the middle of a frame loses that frame, as
# it should): one retry, and only when the first try counted overruns.
plain_run() {
	listen --duration 4 --json 2> "$TMP/err1" | python3 -c '
import sys, time, json
for line in sys.stdin:
    print(repr(time.monotonic()), line, end="", flush=True)
' > "$TMP/stamped.txt" &
	# (the card open, not a fixed sleep: loading irjack over 9p under
	# software emulation took longer than 0.5 s, and the first frame
	# played before the capture ran)
	wait_listening "$TMP/err1"
	aplay -q -D hw:Loopback,0,0 "$WAV" || fail "aplay"
	wait
	cat "$TMP/err1"
	python3 - "$TMP/stamped.txt" "$TMP/want.json" <<'PY'
import json, sys
got = [(float(l.split(" ", 1)[0]), json.loads(l.split(" ", 1)[1])) for l in open(sys.argv[1])]
want = [json.loads(l) for l in open(sys.argv[2])]
key = lambda r: (r["protocol"], r["scancode"], r["toggle"], r["repeat"])
assert [key(r) for _, r in got] == [key(r) for r in want], (got, want)
# Each line's arrival minus its frame's end (stream time) is the latency
# plus a constant offset; relative to the fastest line it shows how much
# later the others came.  Under software emulation the consumer (not
# real-time) stalls for hundreds of ms while aplay starts, so the bound is
# loose: below the ring (500 ms) plus a second.  The goal on real hardware,
# period + 5 ms, needs a machine with a clock of its own to be checked.
offs = [t - r["end"] for t, r in got]
base = min(offs)
spread = [1000 * (o - base) for o in offs]
print("listen on snd-aloop: %d/%d frames; arrival after the fastest line: %s ms"
      % (len(got), len(want), " ".join("%.1f" % s for s in spread)))
assert max(spread) < 1500, spread
PY
}
tries=0
while :; do
	tries=$((tries + 1))
	if plain_run; then
		break
	elif [ $tries -ge 2 ] || grep -q " 0 overruns" "$TMP/err1"; then
		fail "frames or latency"
		break
	fi
	echo "retrying the plain run once (overruns under emulation)"
done
grep -q " 0 overruns" "$TMP/err1" || echo "note: overruns during the plain run: $(tail -1 "$TMP/err1")"

# 3: SIGSTOP/SIGCONT
listen --duration 7 > "$TMP/out3" 2> "$TMP/err3" &
pid=$!
wait_listening "$TMP/err3"
kill -STOP "$pid"
sleep 0.5
kill -CONT "$pid"
sleep 0.5
aplay -q -D hw:Loopback,0,0 "$WAV" || fail "aplay after SIGCONT"
wait "$pid" || fail "listen after SIGSTOP/SIGCONT exited $?"
cat "$TMP/err3"
grep -q "overrun, 1 so far" "$TMP/err3" || fail "no overrun reported after SIGSTOP"
awk '{ $1 = ""; print }' "$TMP/out3" > "$TMP/got3.txt"
cmp -s "$TMP/want.txt" "$TMP/got3.txt" || fail "after the overrun: $(cat "$TMP/got3.txt")"
echo "listen after SIGSTOP/SIGCONT: $(wc -l < "$TMP/got3.txt")/$want frames, $(grep -o '[0-9]* overruns' "$TMP/err3")"

# 3b: an overrun storm: the consumer stopped 10 times for 0.3 s (longer
# than the 80 ms buffer) within 5 s; every overrun is recovered and
# counted, and the playback that follows decodes in full.
listen --duration 10 > "$TMP/out3b" 2> "$TMP/err3b" &
pid=$!
wait_listening "$TMP/err3b"
for i in 1 2 3 4 5 6 7 8 9 10; do
	kill -STOP "$pid"
	sleep 0.3
	kill -CONT "$pid"
	sleep 0.2
done
aplay -q -D hw:Loopback,0,0 "$WAV" || fail "aplay after the overrun storm"
wait "$pid" || fail "listen after the overrun storm exited $?"
overruns=$(grep -c "overrun, [0-9]* so far" "$TMP/err3b")
[ "$overruns" -ge 5 ] || fail "overrun storm: only $overruns overruns reported: $(cat "$TMP/err3b")"
awk '{ $1 = ""; print }' "$TMP/out3b" > "$TMP/got3b.txt"
cmp -s "$TMP/want.txt" "$TMP/got3b.txt" || fail "after the overrun storm: $(cat "$TMP/got3b.txt")"
echo "listen after an overrun storm (10 stops of 0.3 s): $overruns overruns recovered, $(wc -l < "$TMP/got3b.txt")/$want frames after it"

# 4: unbind/bind the card under it
ALOOP=/sys/bus/platform/drivers/snd_aloop
listen --duration 6 > "$TMP/out4" 2> "$TMP/err4" &
pid=$!
wait_listening "$TMP/err4"
echo snd_aloop.0 > $ALOOP/unbind || fail "unbind snd_aloop.0"
sleep 0.5
echo snd_aloop.0 > $ALOOP/bind || fail "bind snd_aloop.0"
sleep 1.5
aplay -q -D hw:Loopback,0,0 "$WAV" || fail "aplay after the card came back"
wait "$pid" || fail "listen after unbind/bind exited $?"
grep -v "^ALSA lib" "$TMP/err4"
grep -q "the device is gone" "$TMP/err4" || fail "no 'gone' reported"
grep -q "the device is back" "$TMP/err4" || fail "no 'back' reported"
grep -q " 1 reopens" "$TMP/err4" || fail "reopens not counted"
awk '{ $1 = ""; print }' "$TMP/out4" > "$TMP/got4.txt"
cmp -s "$TMP/want.txt" "$TMP/got4.txt" || fail "after the card came back: $(cat "$TMP/got4.txt")"
echo "listen across unbind/bind: $(wc -l < "$TMP/got4.txt")/$want frames"

# 5: the same through PortAudio, which has no hot-plug and keeps a vanished
# card open (holding up the kernel's unbind): irjack's supervisor must let
# it go, say so, and reopen it.  PortAudio captures FLOAT, which the
# loopback then asks of the player too: aplay goes through plughw.
card=$(awk '/Loopback/ { print $1; exit }' /proc/asound/cards)
"$IRJACK" listen -v --backend portaudio -d "Loopback: PCM (hw:$card,1)" -r 44100 \
	--period-us 20000 --duration 9 > "$TMP/out5" 2> "$TMP/err5" &
pid=$!
wait_listening "$TMP/err5"
t0=$(date +%s%N)
timeout 20 sh -c "echo snd_aloop.0 > $ALOOP/unbind" || fail "unbind under PortAudio (held up 20 s)"
unbind_ms=$((($(date +%s%N) - t0) / 1000000))
sleep 0.5
echo snd_aloop.0 > $ALOOP/bind || fail "bind snd_aloop.0 (PortAudio)"
sleep 2.5
aplay -q -D plughw:Loopback,0,0 "$WAV" || fail "aplay after the card came back (PortAudio)"
wait "$pid" || fail "listen (PortAudio) after unbind/bind exited $?"
grep -q "the device is gone" "$TMP/err5" || fail "PortAudio: no 'gone' reported: $(grep irjack "$TMP/err5")"
grep -q "the device is back" "$TMP/err5" || fail "PortAudio: no 'back' reported"
grep -q " 1 reopens" "$TMP/err5" || fail "PortAudio: reopens not counted: $(grep irjack "$TMP/err5")"
awk '{ $1 = ""; print }' "$TMP/out5" > "$TMP/got5.txt"
cmp -s "$TMP/want.txt" "$TMP/got5.txt" || fail "PortAudio, after the card came back: $(cat "$TMP/got5.txt")"
echo "listen (PortAudio) across unbind/bind: unbind waited $unbind_ms ms for the card to be let go, $(wc -l < "$TMP/got5.txt")/$want frames after"
rm -rf "$TMP"
[ "$failures" = 0 ]
