#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): irjackd's [output lircdev], the CUSE LIRC
# device, on a real kernel.  The source is snd-aloop's capture side; the
# reference recording (NEC) is played into its playback side:
#   1. /dev/lirc-irjack appears, a character device;
#   2. Debian's `ir-ctl --features` lists it as a raw IR receiver that
#      cannot send, with the source's 125000 us timeout;
#   3. `ir-ctl -r -1 --mode2` prints one frame's timings, which
#      `irjack decode` reads as the reference's first frame;
#   4. a reader in LIRC_MODE_SCANCODE (Python: ioctl, select, read) gets
#      struct lirc_scancode records: rc_proto 9 (NEC) with the reference's
#      scancodes, in order;
#   5. Debian's lircd with its `default` driver on the device decodes the
#      frames against a lircd.conf and Debian's irw prints them;
#   6. SIGTERM removes the device;
#   7. `irjack listen --lircdev lirc-listen` on the same capture serves
#      `ir-ctl -r` the same way, and removes its device on SIGINT.
# Usage (in the guest): guest-lircdev.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
SRC=$2
IRJACKD=$BUILD/irjackd
IRJACK=$BUILD/irjack
WAV=$SRC/samples/nec-mic-jack-44k.wav
DEV=/dev/lirc-irjack
T=$(mktemp -d)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ -e /dev/snd/pcmC0D1c ] || { echo "FAIL: no snd-aloop in the VM"; exit 1; }
for tool in aplay ir-ctl python3 lircd irw; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing"; exit 1; }
done
if [ ! -c /dev/cuse ]; then
	echo "FAIL: no /dev/cuse in the VM; the kernel's cuse module:"
	grep -w cuse /proc/modules || echo "  not loaded"
	ls /lib/modules/"$(uname -r)"/kernel/fs/fuse/ 2>&1 | sed 's/^/  /'
	exit 1
fi

# The reference: the recording after a second of digital silence (as
# guest-irjackd.sh: the demodulator misses a frame within ~20 ms of
# digital silence); its frames as `irjack decode` finds them.
python3 - "$WAV" "$T/ref.wav" <<'PY'
import sys, wave
w = wave.open(sys.argv[1])
o = wave.open(sys.argv[2], "wb")
o.setnchannels(1); o.setsampwidth(2); o.setframerate(w.getframerate())
o.writeframes(b"\0\0" * w.getframerate() + w.readframes(w.getnframes()))
PY
"$IRJACK" decode --json "$T/ref.wav" >"$T/want.json"
first=$(python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); print("%s 0x%x" % (r["protocol"], r["scancode"]))' "$T/want.json")
echo "  reference: $(wc -l <"$T/want.json") frames, the first $first"

cat >"$T/irjackd.conf" <<CONF
[source audio]
type = alsa
device = hw:Loopback,1,0
rate = 44100
period_us = 20000

[output lircdev]
name = lirc-irjack
source = audio
CONF
"$IRJACKD" --check-config --config "$T/irjackd.conf" | grep -q "output lircdev: $DEV, source audio" ||
	fail "--check-config does not show the lircdev output"
aplay --version >/dev/null
ir-ctl --help >/dev/null 2>&1

"$IRJACKD" --config "$T/irjackd.conf" 2>"$T/daemon.err" &
daemon=$!
i=0
while [ ! -c "$DEV" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done

echo "== 1. the device"
ls -l "$DEV" | sed 's/^/  /'
[ -c "$DEV" ] || { fail "no $DEV: $(cat "$T/daemon.err")"; kill "$daemon"; exit 1; }

echo "== 2. ir-ctl --features"
ir-ctl -d "$DEV" --features >"$T/features" 2>&1 || fail "ir-ctl --features: $?"
sed 's/^/  /' "$T/features"
grep -q "Device can receive raw IR" "$T/features" || fail "not a raw IR receiver"
grep -q "Device cannot send" "$T/features" || fail "claims to send"
grep -q "125000" "$T/features" || fail "no 125000 us receive timeout"

play() { aplay -q -D plughw:Loopback,0,0 "$T/ref.wav" || fail "aplay"; }

echo "== 3. ir-ctl -r: one frame's timings"
step_mode2() {
	timeout 60 ir-ctl -d "${1:-$DEV}" -r -1 --mode2 >"$T/rx.mode2" 2>"$T/rx.err" &
	rx=$!
	sleep 1
	play
	wait "$rx" || fail "ir-ctl -r: $? $(cat "$T/rx.err")"
	echo "  $(grep -c pulse "$T/rx.mode2") pulses, $(grep -c space "$T/rx.mode2") spaces: $(head -4 "$T/rx.mode2" | tr '\n' ' ')..."
	got=$("$IRJACK" decode --json "$T/rx.mode2" 2>/dev/null | python3 -c 'import json,sys
r=[json.loads(l) for l in sys.stdin]
print("%s 0x%x" % (r[0]["protocol"], r[0]["scancode"]) if r else "nothing")')
	echo "  irjack decode: $got"
	[ "$got" = "$first" ]
}
step_mode2 || { echo "  retrying once (emulation)"; step_mode2; } || fail "ir-ctl -r read '$got', expected '$first'"

echo "== 4. LIRC_MODE_SCANCODE reads"
cat >"$T/scancodes.py" <<'PY'
import fcntl, json, os, select, struct, sys, time
LIRC_SET_REC_MODE, LIRC_GET_REC_MODE, LIRC_MODE_SCANCODE = 0x40046912, 0x80046902, 8
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, LIRC_SET_REC_MODE, struct.pack("I", LIRC_MODE_SCANCODE))
mode = struct.unpack("I", fcntl.ioctl(fd, LIRC_GET_REC_MODE, b"\0" * 4))[0]
print("  rec mode %d" % mode, flush=True)
open(sys.argv[2], "w").close()          # ready
end = time.time() + float(sys.argv[3])
got = []
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.5)
    if not r:
        continue
    buf = os.read(fd, 24 * 16)
    for i in range(0, len(buf), 24):
        ts, flags, proto, key, sc = struct.unpack("<QHHIQ", buf[i:i + 24])
        got.append((proto, sc, flags))
want = [json.loads(l) for l in open(sys.argv[4])]
print("  records:", " ".join("%d:0x%x%s" % (p, s, "r" if f & 2 else "") for p, s, f in got))
# every record is NEC (rc_proto 9); the frames (not repeats) are the
# reference's, in order (emulation may lose one to an overrun: a prefix
# check on what came would hide a wrong scancode, so compare them all)
frames = [(p, s) for p, s, f in got if not f & 2]
want_frames = [(9, r["scancode"]) for r in want if not r["repeat"]]
ok = mode == LIRC_MODE_SCANCODE and got and all(p == 9 for p, s, f in got) and frames == want_frames
print("  frames %s, want %s" % (frames, want_frames))
sys.exit(0 if ok else 1)
PY
step_scancodes() {
	rm -f "$T/ready"
	python3 "$T/scancodes.py" "$DEV" "$T/ready" 12 "$T/want.json" &
	py=$!
	i=0
	while [ ! -e "$T/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	play
	wait "$py"
}
step_scancodes || { echo "  retrying once (emulation)"; step_scancodes; } || fail "scancode reads"

echo "== 5. Debian's lircd, default driver, on the device; irw on its socket"
# NEC in lircd.conf's bit order: address, ~address, command, ~command, each
# byte sent LSB first, so 0x04/0x08 (rc-core 0x0408) is 0x20df10ef.
cat >"$T/lircd.conf" <<'LIRCD'
begin remote
  name  vm_nec
  bits           32
  flags SPACE_ENC|CONST_LENGTH
  eps            30
  aeps          100
  header       9000  4500
  one           560  1690
  zero          560   560
  ptrail        560
  repeat       9000  2250
  gap          108000
  frequency    38000
      begin codes
          KEY_A  0x20DFDF20
          KEY_B  0x20DF10EF
          KEY_C  0x20DF40BF
      end codes
end remote
LIRCD
printf '[lircd]\n' >"$T/lirc_options.conf"
step_lircd() {
	rm -f "$T/lircd.sock"
	# -i: open the device at start, not when irw connects (under emulation
	# that came after the first frame had gone by)
	lircd -O "$T/lirc_options.conf" -n -i -H default -d "$DEV" -o "$T/lircd.sock" \
		-P "$T/lircd.pid" -L "$T/lircd.log" --loglevel=info "$T/lircd.conf" 2>"$T/lircd.err" &
	lircd_pid=$!
	i=0
	while [ ! -S "$T/lircd.sock" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	irw "$T/lircd.sock" >"$T/irw.out" 2>&1 &
	irw_pid=$!
	sleep 2
	play
	sleep 2
	kill "$irw_pid" "$lircd_pid" 2>/dev/null
	wait "$irw_pid" "$lircd_pid" 2>/dev/null
	sed 's/^/  irw: /' "$T/irw.out"
	for k in KEY_A KEY_B KEY_C; do
		[ "$(grep -c " 00 $k vm_nec" "$T/irw.out")" = 1 ] || return 1
	done
}
step_lircd || { echo "  retrying once (emulation)"; step_lircd; } || {
	fail "lircd + irw did not print KEY_A, KEY_B, KEY_C once each"
	grep -iE "error|warn|default|$DEV" "$T/lircd.log" "$T/lircd.err" | head -20 | sed 's/^/  lircd: /'
}

echo "== 6. SIGTERM removes the device"
kill "$daemon"
wait "$daemon" || fail "irjackd exited $? on SIGTERM: $(tail -5 "$T/daemon.err")"
sleep 0.5
[ -e "$DEV" ] && fail "$DEV left behind"
grep -E "warning|error" "$T/daemon.err" | grep -v "audio lost" | sed 's/^/  daemon: /'

echo "== 7. irjack listen --lircdev"
"$IRJACK" listen -d alsa:hw:Loopback,1,0 --rate 44100 --period-us 20000 --lircdev lirc-listen \
	>"$T/listen.out" 2>"$T/listen.err" &
listen=$!
i=0
while [ ! -c /dev/lirc-listen ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
if [ -c /dev/lirc-listen ]; then
	step_mode2 /dev/lirc-listen || { echo "  retrying once (emulation)"; step_mode2 /dev/lirc-listen; } ||
		fail "listen: ir-ctl -r read '$got', expected '$first'"
else
	fail "no /dev/lirc-listen: $(cat "$T/listen.err")"
fi
kill -INT "$listen"
wait "$listen"
lrc=$?
echo "  listen printed $(wc -l <"$T/listen.out") frames, exit $lrc"
[ "$lrc" = 0 ] || fail "irjack listen exited $lrc: $(cat "$T/listen.err")"
sleep 0.5
[ -e /dev/lirc-listen ] && fail "/dev/lirc-listen left behind"
echo "lircdev VM test: $failures failure(s)"
rm -rf "$T"
[ "$failures" = 0 ]
