#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# test_monitor.sh IRJACK SOURCE_DIR - `irjack devices` and `irjack monitor`:
# the devices the test ALSA config defines (through PortAudio), the monitor's
# plain lines on recordings (clean, clipped, buried in noise, live through
# PortAudio), and its in-place view in a real terminal (tmux).
set -u
IRJACK=$1
SRC=$2
T=$(mktemp -d)
TMUX_SOCKET="irjack-monitor-$$"
cleanup() {
	for quit in q C-c; do tmux -L "$TMUX_SOCKET-$quit" kill-server 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:$SRC/tests/data/alsa-portaudio.conf
IRJACK_TEST_PCM_IN=$T/in.f32
export ALSA_CONFIG_PATH IRJACK_TEST_PCM_IN

# The PCM's input: the NEC recording as raw float.  It must exist before
# listing: alsa-lib cannot open (so PortAudio omits) a file PCM without it.
python3 - "$SRC/tests/data/nec-mic-jack-48k.wav" "$IRJACK_TEST_PCM_IN" <<'PY' || fail "making the raw input"
import array, sys, wave
w = wave.open(sys.argv[1])
s = array.array('h', w.readframes(w.getnframes()))
array.array('f', [v / 32768.0 for v in s]).tofile(open(sys.argv[2], 'wb'))
PY

# ---- irjack devices
"$IRJACK" devices --help > "$T/out" || fail "devices --help"
grep -q "^Usage: irjack devices" "$T/out" || fail "devices --help text"
grep -q "portaudio" "$T/out" || fail "devices --help lists the backends"
"$IRJACK" devices > "$T/out" 2> "$T/err" || fail "devices exited $?"
grep -q "^# portaudio: " "$T/out" || fail "no portaudio header: $(cat "$T/out")"
grep -q "^# file: " "$T/out" || fail "no file header"
grep -q "^portaudio:irpa	ALSA, " "$T/out" || fail "the config's PCM irpa is not listed: $(cat "$T/out")"
grep -q "^portaudio:default	ALSA, " "$T/out" || fail "the config's default is not listed"
[ -s "$T/err" ] && fail "devices printed the libraries' chatter: $(head -c 300 "$T/err")"
"$IRJACK" devices --backend portaudio --capture > "$T/out" || fail "devices --capture"
grep -q "^portaudio:irpa	" "$T/out" || fail "--capture lacks irpa"
grep -q "^# file" "$T/out" && fail "--backend portaudio listed another backend"
"$IRJACK" devices --backend bogus > /dev/null 2> "$T/err"; rc=$?
[ "$rc" = 2 ] || fail "devices --backend bogus exited $rc"
grep -q "unknown or not built-in backend 'bogus'" "$T/err" || fail "bad backend message"

# ---- test signals: the clean recording, clipped (x6) and buried in noise
python3 - "$SRC/samples/rc5-photodiode-192k.wav" "$T" <<'PY' || fail "making the test WAVs"
import array, random, sys, wave
src, out = sys.argv[1], sys.argv[2]
w = wave.open(src)
rate, n = w.getframerate(), w.getnframes()
s = array.array('h', w.readframes(n))
def write(name, samples, r=rate):
    o = wave.open(out + '/' + name, 'wb')
    o.setnchannels(1); o.setsampwidth(2); o.setframerate(r)
    o.writeframes(array.array('h', samples).tobytes()); o.close()
clamp = lambda v: max(-32768, min(32767, int(round(v))))
write('clipped.wav', [clamp(v * 6) for v in s])
random.seed(4)
# (σ 250 LSB: the demodulator reports 18 dB; at 200 it read 16 dB before
# the carrier front-end, dsp/ir_envelope.h, and 20.3 dB with it: the edges
# it decides on stand 3.7 dB higher once the carrier counts)
write('noisy.wav', [clamp(v * 0.05 + random.gauss(0, 250)) for v in s])
# 6 s of the recording over and over, for the terminal view
write('long.wav', list(s) * 11)
PY

# ---- monitor: plain lines on a clean recording, in real time
"$IRJACK" monitor --help > "$T/out" || fail "monitor --help"
grep -q "^Usage: irjack monitor" "$T/out" || fail "monitor --help text"
# the live-source options it shares with listen and record
for o in --backend --period-us --format --rate --source; do
	grep -q -- "$o" "$T/out" || fail "monitor --help lacks $o"
done
"$IRJACK" monitor --period-us 5 > /dev/null 2> "$T/err"; rc=$?
[ "$rc" = 2 ] && grep -q -- "--period-us: 5 is out of range" "$T/err" || fail "monitor --period-us 5: rc $rc, $(cat "$T/err")"
"$IRJACK" monitor --backend bogus > /dev/null 2> "$T/err"; rc=$?
[ "$rc" = 2 ] && grep -q "bogus" "$T/err" || fail "monitor --backend bogus: rc $rc, $(cat "$T/err")"
start=$(date +%s.%N)
"$IRJACK" monitor --device "file:$SRC/samples/rc5-photodiode-192k.wav" --duration 2 > "$T/clean" \
	|| fail "monitor on the clean recording exited $?"
elapsed=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
cat "$T/clean"
grep -q '^frame .* rc5 *0x1e01$' "$T/clean" || fail "clean: no rc5 0x1e01 frame"
grep -q '^frame .* rc5 *0x1e02 toggle$' "$T/clean" || fail "clean: no rc5 0x1e02 frame"
grep -q '^advice' "$T/clean" && fail "clean: advice on a clean signal"
python3 - "$T/clean" "$elapsed" <<'PY' || fail "clean: figures"
import re, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('level ')]
kv = [dict(re.findall(r'(\w+)=(\S+)', l)) for l in lines]
# real time at >= 10 Hz: the 0.55 s recording gives at least 5 updates
assert len(kv) >= 5, len(kv)
assert float(sys.argv[2]) >= 0.5, "not paced: %s s" % sys.argv[2]
snr = max(float(k['snr'].rstrip('dB')) for k in kv)
assert snr > 20, snr
assert all(k['polarity'] == 'high' for k in kv[1:]), [k['polarity'] for k in kv]
# (36 kHz within the README's ±0.05 %: which samples make up each burst
# follows the demodulator's edges, and moved the estimate by 1-2 Hz)
assert any(k['carrier'].endswith('Hz') and abs(float(k['carrier'][:-2]) - 36000) <= 18
           for k in kv), [k['carrier'] for k in kv]
assert all(float(k['clipped'].rstrip('%')) == 0 for k in kv)
assert kv[-1]['frames'] == '2' and kv[-1]['xruns'] == '0'
print("clean: %d updates in %.2f s, SNR up to %.1f dB" % (len(kv), float(sys.argv[2]), snr))
PY

# ---- --keymap names the keys; --once gives one summary line at the end
printf '[[protocols]]\nname = "monitor-test"\nprotocol = "rc5"\n[protocols.scancodes]\n0x1e01 = "KEY_VOLUMEUP"\n0x1e02 = "KEY_VOLUMEDOWN"\n' > "$T/k.toml"
"$IRJACK" monitor --device "file:$SRC/samples/rc5-photodiode-192k.wav" --once --keymap "$T/k.toml" > "$T/keys" \
	|| fail "monitor --keymap exited $?"
grep -q '^frame .* rc5 *0x1e01  KEY_VOLUMEUP (monitor-test)$' "$T/keys" || fail "keymap: $(cat "$T/keys")"
grep -q '^frame .* rc5 *0x1e02 toggle  KEY_VOLUMEDOWN (monitor-test)$' "$T/keys" || fail "keymap: 0x1e02"
[ "$(grep -c '^level ' "$T/keys")" = 1 ] || fail "--once printed other than one level line"
grep -q '^level t=0.55 .* frames=2$' "$T/keys" || fail "--once summary: $(grep '^level' "$T/keys")"
"$IRJACK" monitor --duration banana > /dev/null 2> "$T/err"; rc=$?
[ "$rc" = 2 ] || fail "--duration banana exited $rc"
grep -q "duration: 'banana'" "$T/err" || fail "bad --duration message"

# ---- a clipped recording: the warning, and which control to turn
"$IRJACK" monitor --device "file:$T/clipped.wav" --duration 2 > "$T/clipped" || fail "monitor clipped"
grep '^advice' "$T/clipped"
grep -q "^advice clipping (.*): lower the capture gain (ALSA mixer control 'Capture' / 'Mic Boost' — run alsamixer)" \
	"$T/clipped" || fail "clipped: no clipping advice: $(cat "$T/clipped")"
grep -q 'clipped=0\.000%' "$T/clipped" && ! grep -q 'clipped=[1-9]\|clipped=0\.[0-9]*[1-9]' "$T/clipped" \
	&& fail "clipped: no clipped figure"

# ---- a signal near the noise floor: raise the gain
"$IRJACK" monitor --device "file:$T/noisy.wav" --once > "$T/noisy" || fail "monitor noisy"
cat "$T/noisy"
[ "$(grep -c '^level ' "$T/noisy")" = 1 ] || fail "--once printed other than one level line"
grep -q "^advice the signal is near the noise floor (SNR [0-9.]* dB): raise the capture gain" "$T/noisy" \
	|| fail "noisy: no raise-the-gain advice"

# ---- live through PortAudio (alsa-lib's file PCM; 1 s of the NEC recording)
"$IRJACK" monitor --device portaudio:irpa --channel left --duration 1 > "$T/pa" 2>/dev/null || fail "monitor portaudio exited $?"
grep -q '^frame .* nec *0x04fb$' "$T/pa" || fail "portaudio: no nec 0x04fb: $(cat "$T/pa")"
grep -q '^frame .* nec *0x0408 repeat$' "$T/pa" || fail "portaudio: no 0x0408 repeat"
tail -n 1 "$T/pa" | grep -q '^level t=1\.00 .* xruns=0 dropped=0 frames=4$' || fail "portaudio: last line $(tail -n 1 "$T/pa")"
"$IRJACK" monitor --device portaudio:no-such-pcm --duration 1 > /dev/null 2> "$T/err"; rc=$?
[ "$rc" = 2 ] || fail "monitor on a missing device exited $rc"
grep -q "portaudio:no-such-pcm: no such input device" "$T/err" || fail "missing device message"

# ---- the in-place view in a real terminal; 'q' (or Ctrl-C) quits with 0 and
# gives the terminal back as it was (canonical mode, echo, main screen)
after_exit="echo monitor-exit=\$?; stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\?icanon' -e '-\\?echo'; sleep 30"
# wait_pane SOCKET PATTERN FILE: capture the pane into FILE until PATTERN
# shows (at most 10 s: the suite may share a loaded machine)
wait_pane() {
	i=0
	while [ $i -lt 100 ]; do
		tmux -L "$1" capture-pane -p > "$3"
		grep -q -- "$2" "$3" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
for quit in q C-c; do
	tmux -L "$TMUX_SOCKET-$quit" -f /dev/null new-session -d -x 120 -y 30 \
		"'$IRJACK' monitor --device 'file:$T/long.wav'; $after_exit" || fail "tmux did not start"
	# two rc5 frames decoded: the view has been drawn for 0.3 s
	wait_pane "$TMUX_SOCKET-$quit" "rc5 *0x1e02" "$T/screen" || fail "tty: no frame within 10 s"
	sleep 0.3
	tmux -L "$TMUX_SOCKET-$quit" capture-pane -p > "$T/screen"
	if [ "$quit" = q ]; then
		cat "$T/screen"
		grep -q "^irjack monitor  file:" "$T/screen" || fail "tty: no title line"
		grep -q "^peak  .* dBFS  \[#*\.*\]" "$T/screen" || fail "tty: no peak bar"
		grep -q "^noise .* dBFS  \[#*\.*\]" "$T/screen" || fail "tty: no noise bar"
		grep -q "^SNR  *[0-9.]* dB" "$T/screen" || fail "tty: no SNR"
		grep -q "^polarity  high" "$T/screen" || fail "tty: no polarity"
		grep -q "^carrier   36.0 kHz" "$T/screen" || fail "tty: no carrier"
		grep -q "xruns 0" "$T/screen" || fail "tty: no xrun count"
		grep -q "rc5 *0x1e0[12]" "$T/screen" || fail "tty: no decoded frames"
		[ "$(grep -c '^peak' "$T/screen")" = 1 ] || fail "tty: not updated in place"
	fi
	tmux -L "$TMUX_SOCKET-$quit" send-keys "$quit"
	wait_pane "$TMUX_SOCKET-$quit" "^monitor-exit=" "$T/after"
	sleep 0.2
	tmux -L "$TMUX_SOCKET-$quit" capture-pane -p > "$T/after"
	grep -q "^monitor-exit=0" "$T/after" || fail "tty: $quit did not end the monitor with 0: $(cat "$T/after")"
	grep -q "^icanon$" "$T/after" || fail "tty: canonical mode not restored after $quit"
	grep -q "^echo$" "$T/after" || fail "tty: echo not restored after $quit"
	grep -q "^peak" "$T/after" && fail "tty: the alternate screen was not left after $quit"
	tmux -L "$TMUX_SOCKET-$quit" kill-server 2>/dev/null
done

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "test_monitor: all passed"
