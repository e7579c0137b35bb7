#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): irjackd as a system, on real kernel devices.
# One irjackd reads snd-aloop's capture side (a sound card with a clock) and
# rc-loopback's /dev/lircN at once, with uinput, lircd-socket and JSON
# outputs and a lirc transmitter on the same /dev/lircN:
#   1. NEC frames played with aplay into the loopback and RC-5 frames sent
#      with `ir-ctl -S` come out on the input device (read back through
#      evdev by tests/vm/evdev_probe), on Debian's irw, and as JSON lines
#      tagged "audio" and "ir", frame for frame;
#   2. `irsend SEND_ONCE` makes irjackd transmit on /dev/lircN: rc-loopback
#      loops it back, `ir-ctl -r` reads it and irjackd decodes it again;
#   3. SIGHUP with new keymaps (same scancodes, other keys) changes the keys
#      on evdev and irw, for both sources;
#   4. SIGHUP with a broken configuration is rejected, logged with
#      file:line, and the old keymaps keep working;
#   5. STATUS on the socket counts frames for both sources; SIGTERM stops
#      irjackd cleanly.
# Usage (in the guest): guest-irjackd.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
SRC=$2
IRJACKD=$BUILD/irjackd
IRJACK=$BUILD/irjack
PROBE=$BUILD/tests/evdev_probe
WAV=$SRC/samples/nec-mic-jack-44k.wav
T=$(mktemp -d)
SOCK=$T/lircd
NAME=irjack-vm
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ -e /dev/snd/pcmC0D1c ] || { echo "FAIL: no snd-aloop in the VM"; exit 1; }
for tool in aplay ir-ctl irw irsend python3; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing"; exit 1; }
done
[ -x "$PROBE" ] || { echo "FAIL: $PROBE not built"; exit 1; }
# rc-loopback's LIRC device (another test may have reloaded the module)
LIRC=/dev/$(basename "$(ls -d /sys/class/rc/rc*/lirc* 2>/dev/null | head -1)")
[ -c "$LIRC" ] || { echo "FAIL: no LIRC device (rc-loopback not loaded?)"; exit 1; }
RC=$(basename "$(dirname "$(ls -d /sys/class/rc/rc*/lirc* | head -1)")")
# irjackd decodes the raw timings; the kernel's own decoders are not needed
echo none >/sys/class/rc/"$RC"/protocols
ir-ctl -d "$LIRC" -t 125000 >/dev/null 2>&1

# The reference: the recording after a second of digital silence (the
# demodulator misses a frame that follows digital silence within ~20 ms),
# played as it is; only the frames `irjack decode` finds in it count.
python3 - "$WAV" "$T/ref.wav" <<'PY'
import sys, wave
w = wave.open(sys.argv[1])
o = wave.open(sys.argv[2], "wb")
o.setnchannels(1); o.setsampwidth(2); o.setframerate(w.getframerate())
o.writeframes(b"\0\0" * w.getframerate() + w.readframes(w.getnframes()))
PY
"$IRJACK" decode --json "$T/ref.wav" >"$T/want.json"
[ "$(wc -l <"$T/want.json")" -ge 4 ] || fail "the reference has only $(wc -l <"$T/want.json") frames"

mkdir "$T/keymaps"
write_keymaps() { # NEC 0x0408's key, RC-5 0x1e01's key
	cat >"$T/keymaps/vm-nec.toml" <<TOML
[[protocols]]
name = "vm_nec"
protocol = "nec"
[protocols.scancodes]
0x04fb = "KEY_A"
0x0408 = "$1"
0x0402 = "KEY_C"
TOML
	cat >"$T/keymaps/vm-rc5.toml" <<TOML
[[protocols]]
name = "vm_rc5"
protocol = "rc5"
[protocols.scancodes]
0x1e01 = "$2"
0x1e02 = "KEY_E"
TOML
}
write_keymaps KEY_B KEY_D
cat >"$T/irjackd.conf" <<CONF
[daemon]
keymap = $T/keymaps

[source audio]
type = alsa
device = hw:Loopback,1,0
rate = 44100
# 20 ms periods (80 ms of buffer): software emulation is slow to schedule
period_us = 20000

[source ir]
type = lirc
device = $LIRC

[output uinput]
name = $NAME

[output lircd]
path = $SOCK

[output json]
path = $T/events.json

[transmitter lirc]
type = lirc
device = $LIRC
CONF
"$IRJACKD" --check-config --config "$T/irjackd.conf" || fail "--check-config"

# Tools run once first: loading them over 9p stalls everything else a while.
aplay --version >/dev/null
ir-ctl --help >/dev/null 2>&1
irw --version >/dev/null 2>&1
irsend --version >/dev/null 2>&1

# A lircd-protocol request ($1) on the socket; prints the reply's data.
lircd_cmd() {
	python3 - "$SOCK" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
buf = b""
while not buf.endswith(b"\nEND\n"):
    chunk = s.recv(65536)
    if not chunk:
        break
    buf += chunk
lines = buf.decode().split("\n")
if "DATA" in lines:
    print("\n".join(lines[lines.index("DATA") + 2:-2]))
PY
}

"$IRJACKD" --config "$T/irjackd.conf" 2>"$T/daemon.err" &
daemon=$!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || { fail "irjackd did not start: $(cat "$T/daemon.err")"; exit 1; }

# Readers for one step, their output in $T/ev.$1 (evdev) and $T/irw.$1
# (each irw line stamped with CLOCK_BOOTTIME on arrival);
# JSON lines from this step on in $T/json.$1.
readers_start() {
	step=$1
	json_mark=$(wc -l <"$T/events.json")
	"$PROBE" "$NAME" 600 >"$T/ev.$step" 2>"$T/ev.$step.err" &
	ev_pid=$!
	python3 -c '
import signal, subprocess, sys, time
p = subprocess.Popen(["irw", sys.argv[1]], stdout=subprocess.PIPE)
signal.signal(signal.SIGTERM, lambda *a: (p.kill(), sys.exit(0)))
for line in iter(p.stdout.readline, b""):
    print("%.6f %s" % (time.clock_gettime(time.CLOCK_BOOTTIME), line.decode().rstrip()), flush=True)
' "$SOCK" >"$T/irw.$step" &
	irw_pid=$!
	i=0
	while ! grep -q "ready" "$T/ev.$step.err" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "ready" "$T/ev.$step.err" || fail "$step: evdev_probe: $(cat "$T/ev.$step.err")"
	i=0
	while ! lircd_cmd STATUS | grep -Eq "output lircd .*, ([2-9]|[1-9][0-9]+) clients" && [ $i -lt 30 ]; do
		sleep 0.3
		i=$((i + 1))
	done
}
readers_stop() {
	sleep 2 # the last key-up (125 ms) and the slow emulated machine
	kill "$ev_pid" "$irw_pid" 2>/dev/null
	wait "$ev_pid" "$irw_pid" 2>/dev/null
	tail -n +"$((json_mark + 1))" "$T/events.json" >"$T/json.$step"
}

# check.py STEP SPEC...: asserts what step STEP's readers saw.  SPEC:
#   json:SOURCE:PROTO:SCANCODE=N  N JSON lines from SOURCE with that frame
#   irw:SCANCODE:KEY:REMOTE=N     N irw lines (one per frame, repeats too)
#   scan:SCANCODE=N               N MSC_SCAN events on evdev (one per frame)
#   key:KEY=N                     N key presses (down and up) on evdev
#   audio=want                    the audio JSON lines are want.json's frames
cat >"$T/check.py" <<'PY'
import json, sys
T, step = sys.argv[1], sys.argv[2]
js = [json.loads(l) for l in open("%s/json.%s" % (T, step))]
irw = [l.split()[1:] for l in open("%s/irw.%s" % (T, step)) if len(l.split()) == 5]
ev = [l.split() for l in open("%s/ev.%s" % (T, step))]
bad = 0
def check(what, got, want):
    global bad
    print("  %-40s %s%s" % (what, got, "" if got == want else "  FAIL: expected %s" % want))
    bad += got != want
for spec in sys.argv[3:]:
    what, n = spec.rsplit("=", 1)
    kind, _, arg = what.partition(":")
    if kind == "audio":
        key = lambda r: (r["protocol"], r["scancode"], r["toggle"], r["repeat"])
        want = [key(r) for r in map(json.loads, open(T + "/want.json"))]
        got = [key(r) for r in js if r["source"] == "audio"]
        check("json audio frames = irjack decode's", "%d frames" % len(got),
              "%d frames" % len(want))
        if got != want:
            print("  FAIL: got %s\n        want %s" % (got, want)); bad += 1
        continue
    if kind == "json":
        src, proto, sc = arg.split(":")
        got = sum(1 for r in js if r["source"] == src and r["protocol"] == proto
                  and r["scancode"] == int(sc, 16))
    elif kind == "irw":
        sc, key, remote = arg.split(":")
        got = sum(1 for l in irw if int(l[0], 16) == int(sc, 16) and l[2:] == [key, remote])
    elif kind == "scan":
        got = sum(1 for l in ev if l[0] == "MSC_SCAN" and int(l[1], 16) == int(arg, 16))
    elif kind == "key":
        downs = sum(1 for l in ev if l[0] == arg and l[1] == "1")
        ups = sum(1 for l in ev if l[0] == arg and l[1] == "0")
        if downs != ups:
            print("  FAIL: %s: %d down, %d up" % (arg, downs, ups)); bad += 1
        got = downs
    check(what, got, int(n))
sys.exit(1 if bad else 0)
PY
check() { python3 "$T/check.py" "$T" "$@" || fail "step $1"; }
overruns() { grep -c "audio lost" "$T/daemon.err"; }
# Runs the step function $1 (which plays audio, checks and returns the
# check's status) once more when it failed and the capture overran during
# it: software emulation sometimes starves even a real-time capture thread
# for longer than its buffer, and an overrun in a frame loses the frame,
# as it should.
with_retry() {
	ov=$(overruns)
	"$1" "$1" && return
	if [ "$(overruns)" -gt "$ov" ]; then
		echo "  retrying once: $(($(overruns) - ov)) capture overrun(s) during the step (emulation)"
		"$1" "$1-retry" && return
	fi
	fail "step $1"
}

# The audio expectations, from the reference: per NEC scancode, its frames.
nec_count() { grep -c "\"scancode\":$1," "$T/want.json"; }
NA=$(nec_count 1275) NB=$(nec_count 1032) NC=$(nec_count 1026)
# (0x04fb, the recording's first frame, is too close to the silence: 0)
[ "$NB" -ge 1 ] && [ "$NC" -ge 1 ] || fail "the reference lacks NEC 0x0408 or 0x0402"

echo "== 1. NEC into snd-aloop and RC-5 into $LIRC, at once"
step_both() {
	readers_start "$1"
	# (plughw: irjackd chose the capture side's sample format)
	aplay -q -D plughw:Loopback,0,0 "$T/ref.wav" &
	aplay_pid=$!
	for n in 1 2 3; do
		ir-ctl -d "$LIRC" -S rc5:0x1e01 || fail "ir-ctl -S rc5"
		sleep 0.4
	done
	wait "$aplay_pid" || fail "aplay"
	readers_stop
	python3 "$T/check.py" "$T" "$1" audio=want "json:ir:rc5:1e01=3" "irw:04fb:KEY_A:vm_nec=$NA" \
		"irw:0408:KEY_B:vm_nec=$NB" "irw:0402:KEY_C:vm_nec=$NC" "irw:1e01:KEY_D:vm_rc5=3" \
		"scan:4fb=$NA" "scan:408=$NB" "scan:402=$NC" "scan:1e01=3" key:KEY_B=1 key:KEY_C=1 \
		"key:KEY_D=3" && last_ok=$1
}
last_ok=step_both
with_retry step_both
# Latency: each irw line's arrival minus its frame's end (stream time) is
# the latency plus one constant (when playback began, which aplay's start
# and exit under emulation blur by hundreds of ms); relative to the fastest
# line it shows how much later the others came.
python3 - "$T/irw.$last_ok" "$T/want.json" <<'PY'
import json, sys
want = [json.loads(l) for l in open(sys.argv[2])]
lines = [l.split() for l in open(sys.argv[1]) if l.split()[-1] == "vm_nec"]
offs = [float(l[0]) - r["end"] for l, r in zip(lines, want)]
print("  irw lines (audio) after the fastest one: %s ms"
      % " ".join("%.0f" % (1000 * (o - min(offs))) for o in offs))
PY

echo "== 2. irsend SEND_ONCE: irjackd transmits on $LIRC, rc-loopback brings it back"
readers_start send
timeout 30 ir-ctl -d "$LIRC" -1 -r"$T/rx.mode2" --mode2 &
rx_pid=$!
sleep 1
timeout 10 irsend -d "$SOCK" SEND_ONCE vm_rc5 KEY_E || fail "irsend SEND_ONCE vm_rc5 KEY_E"
wait "$rx_pid" || fail "ir-ctl -r"
timeout 10 irsend -d "$SOCK" SEND_ONCE vm_nec KEY_B || fail "irsend SEND_ONCE vm_nec KEY_B"
readers_stop
echo "  ir-ctl -r read $(grep -c pulse "$T/rx.mode2") pulses: $("$IRJACK" decode "$T/rx.mode2" 2>&1 | tr -s ' ' | tr '\n' ';')"
"$IRJACK" decode "$T/rx.mode2" 2>/dev/null | grep -q "rc5 *0x1e02" || fail "ir-ctl -r did not read rc5 0x1e02"
check send "json:ir:rc5:1e02=1" "json:ir:nec:0408=1" "json:audio:nec:0408=0" \
	"irw:1e02:KEY_E:vm_rc5=1" "irw:0408:KEY_B:vm_nec=1" "scan:1e02=1" "scan:408=1" \
	key:KEY_E=1 key:KEY_B=1

echo "== 3. SIGHUP with new keymaps: NEC 0x0408 -> KEY_X, RC-5 0x1e01 -> KEY_F"
write_keymaps KEY_X KEY_F
kill -HUP "$daemon"
i=0
while ! grep -q "reloaded" "$T/daemon.err" && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
grep "reload" "$T/daemon.err" | sed 's/^/  /'
step_newkeys() {
	readers_start "$1"
	aplay -q -D plughw:Loopback,0,0 "$T/ref.wav" &
	aplay_pid=$!
	sleep 0.3
	ir-ctl -d "$LIRC" -S rc5:0x1e01 || fail "ir-ctl -S rc5"
	wait "$aplay_pid" || fail "aplay"
	readers_stop
	python3 "$T/check.py" "$T" "$1" audio=want "irw:0408:KEY_X:vm_nec=$NB" \
		"irw:0408:KEY_B:vm_nec=0" "irw:1e01:KEY_F:vm_rc5=1" "irw:1e01:KEY_D:vm_rc5=0" \
		key:KEY_X=1 key:KEY_B=0 key:KEY_F=1 key:KEY_D=0 "scan:408=$NB" "scan:1e01=1"
}
with_retry step_newkeys

echo "== 4. SIGHUP with a broken configuration: rejected, the old keymaps stay"
cp "$T/irjackd.conf" "$T/irjackd.conf.good"
write_keymaps KEY_Y KEY_G # would be loaded if the config were accepted
printf '\n[source broken\ntype = lirc\n' >>"$T/irjackd.conf"
badline=$(grep -n '^\[source broken' "$T/irjackd.conf" | cut -d: -f1)
kill -HUP "$daemon"
i=0
while ! grep -q "reload rejected" "$T/daemon.err" && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
grep -A1 "irjackd.conf:" "$T/daemon.err" | sed 's/^/  /'
grep -q "$T/irjackd.conf:$badline: " "$T/daemon.err" || fail "the log does not name irjackd.conf:$badline"
kill -0 "$daemon" 2>/dev/null || fail "irjackd died on a broken configuration"
readers_start broken
ir-ctl -d "$LIRC" -S rc5:0x1e01 || fail "ir-ctl -S rc5"
readers_stop
check broken "json:ir:rc5:1e01=1" "irw:1e01:KEY_F:vm_rc5=1" "irw:1e01:KEY_G:vm_rc5=0" \
	key:KEY_F=1 key:KEY_G=0

echo "== 5. STATUS, then SIGTERM"
lircd_cmd STATUS >"$T/status.txt"
sed 's/^/  /' "$T/status.txt"
for s in audio ir; do
	n=$(sed -n "s/^source $s .*, frames \([0-9]*\),.*/\1/p" "$T/status.txt")
	[ "${n:-0}" -gt 0 ] || fail "STATUS: no frames for source $s"
done
grep -q "reloads 1 (1 rejected)" "$T/status.txt" || fail "STATUS: reloads not counted"
kill "$daemon"
wait "$daemon" || fail "irjackd exited $? on SIGTERM: $(tail -5 "$T/daemon.err")"
[ -S "$SOCK" ] && fail "socket left behind"
# Under software emulation the capture thread (4 ms periods) overruns now
# and then, mostly in the silence between steps; the frames are checked.
echo "  capture overruns (emulation): $(grep -c "audio lost" "$T/daemon.err")"
grep -E "warning|error" "$T/daemon.err" | grep -v "irjackd.conf:$badline\|reload rejected\|audio lost" |
	sed 's/^/  daemon: /'

echo "irjackd VM test: $(cat "$T"/json.* | wc -l) JSON frames, $(cat "$T"/irw.* | wc -l) irw lines, $(cat "$T"/ev.* | grep -c MSC_SCAN) MSC_SCAN; $failures failure(s)"
rm -rf "$T"
[ "$failures" = 0 ]
