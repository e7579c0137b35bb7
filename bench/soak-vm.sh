#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Soak of irjackd on real kernel devices, in the VM (tests/vm/run; QEMU's
# software emulation, so the figures are an emulated machine's, several
# times slower than the real one).  A benchmark, not a test: not in CI.
#
# For MINUTES (default 10), irjackd reads at once
#   audio  snd-aloop's capture side, while aplay plays IR-dense audio into
#          the playback side: synthesized NEC frames (64 codes in turn, one
#          every ~150 ms, receiver-module model with AC coupling, hum and
#          noise), after a second of silence;
#   ir     rc-loopback's /dev/lircN, while `ir-ctl -S` sends an RC-5 frame
#          every ~200 ms (plus ir-ctl's own start-up time);
# with JSON output.  Every 10 s VmRSS/VmHWM and utime+stime of irjackd
# (and of each of its threads) are sampled from /proc.  At the end:
#   frames expected vs received per source (expected: `irjack decode` of
#   the played file, computed on the host; the ir-ctl frames sent), lost
#   frames, overruns, max RSS and HWM (goal <= 8 MB), CPU seconds per
#   source-minute.
# The audio file (~50 MB for 10 minutes) is made in BUILD/soak/, which the
# guest reads over 9p.
# Usage: bench/soak-vm.sh [MINUTES [BUILD_DIR]]   (default 10, build)
set -u
if [ "${1:-}" = "--guest" ]; then
	shift
	MIN=$1 BUILD=$2 SOAK=$3
	IRJACKD=$BUILD/irjackd
	T=$(mktemp -d)
	LIRC=/dev/$(basename "$(ls -d /sys/class/rc/rc*/lirc* 2>/dev/null | head -1)")
	[ -c "$LIRC" ] || { echo "soak: no LIRC device"; exit 1; }
	[ -e /dev/snd/pcmC0D1c ] || { echo "soak: no snd-aloop"; exit 1; }
	RC=$(basename "$(dirname "$(ls -d /sys/class/rc/rc*/lirc* | head -1)")")
	echo none >/sys/class/rc/"$RC"/protocols
	aplay --version >/dev/null
	ir-ctl --help >/dev/null 2>&1
	cat >"$T/irjackd.conf" <<CONF
[source audio]
type = alsa
device = hw:Loopback,1,0
rate = 44100
# 20 ms periods (80 ms of buffer): software emulation is slow to schedule
period_us = 20000

[source ir]
type = lirc
device = $LIRC

[output json]
path = $T/events.json
CONF
	"$IRJACKD" --config "$T/irjackd.conf" 2>"$T/daemon.err" &
	pid=$!
	sleep 3
	kill -0 "$pid" || { echo "soak: irjackd did not start: $(cat "$T/daemon.err")"; exit 1; }
	# RSS/HWM (kB) and CPU ticks of the process and of each thread
	sample() {
		rss=$(awk '/^VmRSS/ {print $2}' /proc/"$pid"/status)
		hwm=$(awk '/^VmHWM/ {print $2}' /proc/"$pid"/status)
		cpu=$(awk '{print $14 + $15}' /proc/"$pid"/stat)
		threads=$(for t in /proc/"$pid"/task/*; do
			printf '%s:%s ' "${t##*/}" "$(awk '{print $14 + $15}' "$t"/stat)"
		done)
		echo "$(cut -d' ' -f1 /proc/uptime) rss $rss hwm $hwm cpu $cpu threads $threads" >>"$T/samples"
	}
	sample
	start=$(cut -d' ' -f1 /proc/uptime)
	aplay -q -D plughw:Loopback,0,0 "$SOAK/soak.wav" 2>"$T/aplay.err" &
	aplay_pid=$!
	(
		n=0
		while kill -0 "$aplay_pid" 2>/dev/null; do
			sc=$(printf '0x1e%02x' $((n % 64)))
			ir-ctl -d "$LIRC" -S rc5:"$sc" && echo "$sc" >>"$T/sent"
			n=$((n + 1))
			sleep 0.2
		done
	) &
	irctl_pid=$!
	while kill -0 "$aplay_pid" 2>/dev/null; do
		sleep 10
		sample
	done
	wait "$aplay_pid" || echo "soak: aplay failed: $(cat "$T/aplay.err")"
	wait "$irctl_pid"
	sleep 2
	sample
	end=$(cut -d' ' -f1 /proc/uptime)
	overruns=$(grep -c "audio lost" "$T/daemon.err")
	kill "$pid"
	wait "$pid" || echo "soak: irjackd exited $? on SIGTERM"
	python3 - "$T" "$SOAK/want.json" "$start" "$end" "$MIN" "$pid" "$overruns" <<'PY'
import collections, json, sys
T, want_path, start, end, minutes, pid, overruns = sys.argv[1:]
elapsed = float(end) - float(start)
got = [json.loads(l) for l in open(T + "/events.json")]
want = [json.loads(l) for l in open(want_path)]
import os
sent = [int(l, 16) for l in open(T + "/sent")] if os.path.exists(T + "/sent") else []
key = lambda r: (r["protocol"], r["scancode"], r["repeat"])
def lost(want_keys, got_keys, what):
    # frames of `want` not matched, in order, by `got` (a greedy walk with
    # a window of 8: close to the longest common subsequence for counting);
    # the first lost ones are named, to tell where they went
    matched, j, missing = 0, 0, []
    for i, k in enumerate(want_keys):
        for jj in range(j, min(j + 8, len(got_keys))):
            if got_keys[jj] == k:
                matched += 1
                j = jj + 1
                break
        else:
            missing.append("#%d %s" % (i, k))
    if missing:
        print("  %s lost: %s%s" % (what, ", ".join(missing[:10]), " ..." if len(missing) > 10 else ""))
    return len(want_keys) - matched, len(got_keys) - matched
audio = [key(r) for r in got if r["source"] == "audio"]
ir = [r["scancode"] for r in got if r["source"] == "ir"]
la, xa = lost([key(r) for r in want], audio, "audio")
li, xi = lost(sent, ir, "ir (scancode)")
print("soak: %.1f min of audio + lirc frames (%.0f s elapsed in the guest)" % (float(minutes), elapsed))
print("  audio: expected %d frames, received %d, lost %d, extra %d; %s overrun warnings"
      % (len(want), len(audio), la, xa, overruns))
print("  ir:    sent %d frames (ir-ctl), received %d, lost %d, extra %d"
      % (len(sent), len(ir), li, xi))
samples = [l.split() for l in open(T + "/samples")]
rss = [int(s[2]) for s in samples]
hwm = [int(s[4]) for s in samples]
# RSS over time: one value a minute (kB), to tell a plateau from a leak
t_start = float(samples[0][0])
by_minute = {}
for smp in samples:
    by_minute.setdefault(int((float(smp[0]) - t_start) // 60), int(smp[2]))
print("  VmRSS at each minute (kB): %s" % " ".join(str(v) for _, v in sorted(by_minute.items())))
cpu0, cpu1 = int(samples[0][6]), int(samples[-1][6])
ticks = 100.0  # USER_HZ
cpu = (cpu1 - cpu0) / ticks
print("  memory: VmRSS max %.1f MB (first %.1f, last %.1f), VmHWM %.1f MB; %d samples"
      % (max(rss) / 1024, rss[0] / 1024, rss[-1] / 1024, max(hwm) / 1024, len(samples)))
print("  cpu: %.1f s in %.1f s (%.1f%% of one emulated core), %.2f s per source-minute (2 sources)"
      % (cpu, elapsed, 100 * cpu / elapsed, cpu / (2 * elapsed / 60)))
t0 = dict(t.split(":") for t in samples[0][8:])
t1 = dict(t.split(":") for t in samples[-1][8:])
for tid in sorted(t1, key=int):
    d = (int(t1[tid]) - int(t0.get(tid, 0))) / ticks
    print("    thread %s%s: %.1f s (%.2f s per minute)"
          % (tid, " (main loop: decoding, outputs, lirc source)" if tid == pid else "",
             d, d / (elapsed / 60)))
PY
	echo "  daemon log (warnings other than overruns):"
	grep -v "audio lost" "$T/daemon.err" | head -20 | sed 's/^/    /'
	rm -rf "$T"
	exit 0
fi

MIN=${1:-10}
BUILD=$(cd "${2:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
SOAK=$BUILD/soak
mkdir -p "$SOAK"
# One block: 64 NEC codes, one every ~150 ms (a 108 ms NEC frame period + 40 ms gap).
codes=$(i=0; while [ $i -lt 64 ]; do printf 'nec:0x%04x ' $((0x0100 + i)); i=$((i + 1)); done)
# shellcheck disable=SC2086
"$BUILD/irjack" synth -r 44100 --ac-tau-ms 10 --snr-db 30 --gap-ms 40 --seed 1 $codes \
	-o "$SOAK/block.wav" >/dev/null || exit 1
python3 - "$SOAK/block.wav" "$SOAK/soak.wav" "$MIN" <<'PY'
import sys, wave
b = wave.open(sys.argv[1])
frames = b.readframes(b.getnframes())
o = wave.open(sys.argv[2], "wb")
o.setnchannels(b.getnchannels()); o.setsampwidth(b.getsampwidth()); o.setframerate(b.getframerate())
o.writeframes(b"\0" * b.getsampwidth() * b.getnchannels() * b.getframerate())
total = int(float(sys.argv[3]) * 60 * b.getframerate())
n = 0
while n < total:
    o.writeframes(frames)
    n += b.getnframes()
PY
"$BUILD/irjack" decode --json "$SOAK/soak.wav" >"$SOAK/want.json"
echo "soak: $(wc -l <"$SOAK/want.json") frames in $SOAK/soak.wav ($(du -h "$SOAK/soak.wav" | cut -f1))"
VM_TIMEOUT=$(awk "BEGIN {print int($MIN * 60 * 1.5 + 300)}") \
	"$HERE/../tests/vm/run" "$HERE/soak-vm.sh" --guest "$MIN" "$BUILD" "$SOAK"
