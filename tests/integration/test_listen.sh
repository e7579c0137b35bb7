#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjack listen / record --device through real alsa-lib: the file plugin
# (tests/data/alsa-file-pcm.conf) plays a real recording's raw samples into
# the capture path; the lines must equal `irjack decode` on the recording.
# Usage: test_listen.sh IRJACK_BINARY SOURCE_DIR
set -u
IRJACK=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$SRC/tests/data/alsa-file-pcm.conf
export ALSA_CONFIG_PATH

WAV=$SRC/samples/nec-mic-jack-44k.wav
RATE=44100
# The raw S16_LE samples, through irjack itself: record --device of a WAV
# file source writes what was captured; here from the file, then raw.
python3 - "$WAV" "$TMP/in.raw" <<'PY' || { echo "FAIL: cannot make the raw file"; exit 1; }
import sys, wave
w = wave.open(sys.argv[1])
assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == 44100
open(sys.argv[2], "wb").write(w.readframes(w.getnframes()))
PY
FRAMES=$(( $(wc -c < "$TMP/in.raw") / 2 ))
# exactly the file's length: the file plugin repeats stale samples after it
DURATION=$(python3 -c "print(repr($FRAMES / $RATE))")

"$IRJACK" decode "$WAV" > "$TMP/decode.txt" || fail "decode"
[ "$(wc -l < "$TMP/decode.txt")" -ge 3 ] || fail "decode found too few frames"
"$IRJACK" decode --json "$WAV" > "$TMP/decode.json" || fail "decode --json"

# S16 straight from the file plugin, at several periods
for period in 1451 5805 23220 92880; do
	"$IRJACK" listen --device "alsa:irfile:IN=$TMP/in.raw" --rate $RATE --format S16_LE \
		--period-us $period --duration "$DURATION" > "$TMP/listen.txt" 2> "$TMP/err" ||
		fail "listen period $period: $(cat "$TMP/err")"
	cmp -s "$TMP/decode.txt" "$TMP/listen.txt" || fail "listen period $period differs: $(diff "$TMP/decode.txt" "$TMP/listen.txt")"
done
# a bare PCM name, through plug, the format left to irjack (FLOAT), JSON
"$IRJACK" listen -d "irplug:IN=$TMP/in.raw,RATE=$RATE" -r $RATE -j -v -t "$DURATION" \
	> "$TMP/listen.json" 2> "$TMP/err" || fail "listen plug: $(cat "$TMP/err")"
cmp -s "$TMP/decode.json" "$TMP/listen.json" || fail "listen --json through plug differs"
grep -q "FLOAT_LE, 44100 Hz, 1 channel" "$TMP/err" || fail "--verbose names the format: $(cat "$TMP/err")"
grep -q " 0 overruns, 0 samples dropped" "$TMP/err" || fail "--verbose counts: $(cat "$TMP/err")"

# SIGTERM stops it cleanly (exit 0: frames were decoded) well before a timeout
"$IRJACK" listen -d "alsa:irfile:IN=$TMP/in.raw" -r $RATE --format S16_LE > "$TMP/sig.txt" 2>/dev/null &
pid=$!
# the first frame printed says the loop runs (a fixed sleep lost this race on a
# loaded CI machine: the signal came before listen had set up its handler)
for _ in $(seq 200); do
	[ -s "$TMP/sig.txt" ] && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 0 ] || fail "listen after SIGTERM exited $rc"
[ "$(head -1 "$TMP/sig.txt")" = "$(head -1 "$TMP/decode.txt")" ] || fail "listen before SIGTERM printed $(head -1 "$TMP/sig.txt")"

# other sources through the same loop: a file replayed, timings
"$IRJACK" listen -d "$WAV" > "$TMP/file.txt" || fail "listen -d WAV"
cmp -s "$TMP/decode.txt" "$TMP/file.txt" || fail "listen -d WAV differs from decode"
"$IRJACK" listen -d "file:$SRC/samples/nec-remote-irmp.mode2" > "$TMP/mode2.txt" || fail "listen -d file:mode2"
"$IRJACK" decode "$SRC/samples/nec-remote-irmp.mode2" | cmp -s - "$TMP/mode2.txt" || fail "listen -d file:mode2 differs"

# errors
"$IRJACK" listen -d alsa:no_such_pcm -t 1 > /dev/null 2> "$TMP/err"
[ $? = 2 ] || fail "unknown PCM exit status"
grep -q "no_such_pcm" "$TMP/err" || fail "unknown PCM message"
"$IRJACK" listen --backend nosuch > /dev/null 2>&1
[ $? = 2 ] || fail "unknown backend exit status"
"$IRJACK" listen --help | grep -q "Usage: irjack listen" || fail "listen --help"

# record --device: the captured audio as WAV, the edges as mode2
"$IRJACK" record --device "alsa:irfile:IN=$TMP/in.raw" --rate $RATE --sample-format S16_LE \
	-t "$DURATION" -o "$TMP/rec.wav" 2> "$TMP/err" || fail "record --device to WAV: $(cat "$TMP/err")"
"$IRJACK" decode "$TMP/rec.wav" > "$TMP/rec.txt" || fail "decode of the recorded WAV"
cmp -s "$TMP/decode.txt" "$TMP/rec.txt" || fail "recorded WAV decodes differently"
python3 - "$TMP/rec.wav" "$TMP/in.raw" <<'PY' || fail "recorded WAV samples differ from the input"
import sys, wave
w = wave.open(sys.argv[1])
assert w.getframerate() == 44100 and w.getnchannels() == 1, (w.getframerate(), w.getnchannels())
assert w.readframes(w.getnframes()) == open(sys.argv[2], "rb").read()
PY
"$IRJACK" record "$WAV" -o "$TMP/file.mode2" || fail "record from a file"
"$IRJACK" record --device "alsa:irfile:IN=$TMP/in.raw" --rate $RATE --sample-format S16_LE \
	-t "$DURATION" -o "$TMP/live.mode2" 2> "$TMP/err" || fail "record --device to mode2: $(cat "$TMP/err")"
cmp -s "$TMP/file.mode2" "$TMP/live.mode2" || fail "live mode2 differs from the file's: $(diff "$TMP/file.mode2" "$TMP/live.mode2" | head -5)"

# --lircdev: a bad name and a missing /dev/cuse (the VM test,
# tests/vm/guest-lircdev.sh, serves a real one) are clear errors, exit 2.
"$IRJACK" listen --device "alsa:irfile:IN=$TMP/in.raw" --lircdev ../x 2>"$TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "lircdev name '../x'" "$TMP/err" || fail "--lircdev ../x: exit $rc, $(cat "$TMP/err")"
if [ ! -e /dev/cuse ]; then
	"$IRJACK" listen --device "alsa:irfile:IN=$TMP/in.raw" --lircdev lirc-t 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] && grep -q "/dev/cuse: No such file or directory (is the cuse module loaded" "$TMP/err" ||
		grep -q "built without libfuse3" "$TMP/err" || fail "--lircdev without /dev/cuse: exit $rc, $(cat "$TMP/err")"
fi

[ $failures = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "listen/record through alsa-lib's file plugin: OK"
