#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM: the kernel's LIRC device as irjack's source and sink,
# against rc-loopback (/dev/lirc0: what is transmitted comes back as
# received, through rc-core's raw path and its decoders).
#   source, mode2:    ir-ctl -S sends, irjack's decoders read the timings
#   source, scancode: ir-ctl -S sends, the kernel's decoders read them, irjack
#                     gets struct lirc_scancode records
#   sink, mode2:      irjack send's timings, read back by ir-ctl -r (decoded by
#                     irjack) and by the kernel's own decoders
#   sink, scancode:   irjack send --scancode-mode (the kernel encodes), read
#                     back by ir-ctl -r
# Usage (in the guest): guest-lirc.sh BUILD_DIR
set -u
BUILD=$1
PROBE=$BUILD/tests/lirc_source_probe
IRJACK=$BUILD/irjack
DEV=/dev/lirc0
T=$(mktemp -d)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

[ -c "$DEV" ] || { echo "FAIL: no $DEV (rc-loopback not loaded?)"; exit 1; }
RC=$(basename "$(dirname "$(ls -d /sys/class/rc/rc*/lirc0)")")
echo "rc-loopback: $RC, $(cat /sys/class/rc/"$RC"/uevent | tr '\n' ' ')"

# Starts the probe on SPEC in the background and waits until it listens.
probe_start() {
	"$PROBE" "$@" >"$T/probe.out" 2>"$T/probe.err" &
	probe_pid=$!
	i=0
	while ! grep -q "probe: ready" "$T/probe.err" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { fail "probe did not start: $(cat "$T/probe.err")"; break; }
		sleep 0.1
	done
}
probe_wait() {
	wait "$probe_pid"
	echo "  probe said: $(tail -1 "$T/probe.err")"
	echo "  frames: $(tr '\n' ' ' <"$T/probe.out")"
}
# expect FILE LINE: LINE is one of FILE's lines
expect() {
	if grep -qx "$2" "$1"; then echo "  ok: $2"; else fail "expected '$2' in: $(tr '\n' ' ' <"$1")"; fi
}

echo "== devices: the lirc backend's list"
"$PROBE" --list >"$T/list.txt" || fail "list found nothing"
sed 's/^/  /' "$T/list.txt"
expect "$T/list.txt" "$(printf 'lirc:/dev/lirc0\trc-core loopback device (rc-loopback, rc0), receives mode2 scancode, transmits')"

# The kernel's decoders off for the raw tests: they matter only to scancode mode.
echo none >/sys/class/rc/"$RC"/protocols

echo "== source, mode2: ir-ctl -S → lirc:$DEV"
probe_start "lirc:$DEV" 20 3
ir-ctl -d "$DEV" -S necx:0x123456 || fail "ir-ctl -S necx"
ir-ctl -d "$DEV" -S rc5:0x1e01 || fail "ir-ctl -S rc5"
ir-ctl -d "$DEV" -S nec:0x04fb || fail "ir-ctl -S nec"
probe_wait
expect "$T/probe.out" "necx:0x123456"
expect "$T/probe.out" "rc5:0x1e01"
expect "$T/probe.out" "nec:0x4fb"

echo "== source, scancode mode: ir-ctl -S → the kernel's decoders → lirc:$DEV?mode=scancode"
{ echo +nec >/sys/class/rc/"$RC"/protocols && echo +rc-5 >/sys/class/rc/"$RC"/protocols; } ||
	fail "enabling the kernel's nec and rc-5 decoders"
echo "  kernel protocols: $(cat /sys/class/rc/"$RC"/protocols)"
probe_start "lirc:$DEV?mode=scancode" 20 2
ir-ctl -d "$DEV" -S necx:0x123457 || fail "ir-ctl -S necx"
ir-ctl -d "$DEV" -S rc5:0x1e02 || fail "ir-ctl -S rc5"
probe_wait
expect "$T/probe.out" "necx:0x123457"
expect "$T/probe.out" "rc5:0x1e02"
grep -q "format scancode" "$T/probe.err" || fail "the probe was not in scancode mode"

echo "== sink, mode2: irjack send --device lirc:$DEV → ir-ctl -r, and the kernel's decoders"
probe_start "lirc:$DEV?mode=scancode" 20 1
timeout 20 ir-ctl -d "$DEV" -1 -r"$T/rx-mode2.txt" --mode2 &
rx_pid=$!
sleep 0.5
"$IRJACK" send --device "lirc:$DEV" --transmitters 1 necx:0x123458 || fail "irjack send (mode2)"
wait "$rx_pid" || fail "ir-ctl -r"
probe_wait
echo "  ir-ctl -r read $(grep -c pulse "$T/rx-mode2.txt") pulses"
"$PROBE" "file:$T/rx-mode2.txt" 5 >"$T/decoded.txt" 2>/dev/null
expect "$T/decoded.txt" "necx:0x123458"
expect "$T/probe.out" "necx:0x123458"

echo "== sink, mode2, a held key longer than one write (500 ms): irjack send -n 6"
# NEC frame + 6 repeat codes at 110 ms: ~770 ms, so two writes.  rc-loopback
# ends every write with a timeout of its own (it cannot know the real gap),
# so the receiver sees exactly one timeout per write, and repeat codes
# after the cut have no frame to repeat: only the timings are checked
# whole, the repeats decoded are printed.
probe_start "lirc:$DEV" 6 0 300000
"$IRJACK" send --device "lirc:$DEV" -n 6 nec:0x0104 || fail "irjack send -n 6"
probe_wait
expect "$T/probe.out" "nec:0x104"
grep -q "(46 pulses)" "$T/probe.err" || fail "expected 34 + 6 x 2 = 46 pulses"
n=$(grep -c "probe: timeout 300000" "$T/probe.err")
echo "  writes seen (one timeout each): $n; repeat codes decoded: $(grep -cx "nec:0x104 repeat" "$T/probe.out")"
[ "$n" = 2 ] || fail "expected 2 writes, saw $n timeouts"
ir-ctl -d "$DEV" -t 125000 >/dev/null 2>&1

echo "== sink, scancode mode: irjack send --scancode-mode → ir-ctl -r"
timeout 20 ir-ctl -d "$DEV" -1 -r"$T/rx-sc.txt" --mode2 &
rx_pid=$!
sleep 0.5
"$IRJACK" send --device "lirc:$DEV" --scancode-mode rc5:0x1e0c || fail "irjack send --scancode-mode"
wait "$rx_pid" || fail "ir-ctl -r"
echo "  ir-ctl -r read $(grep -c pulse "$T/rx-sc.txt") pulses"
"$PROBE" "file:$T/rx-sc.txt" 5 >"$T/decoded.txt" 2>/dev/null
expect "$T/decoded.txt" "rc5:0x1e0c"

echo "== sink errors are clear"
"$IRJACK" send --device "lirc:$DEV" --transmitters 3 nec:0x01 2>"$T/err.txt" && fail "transmitter 3 accepted"
grep -q "the device has 2" "$T/err.txt" || fail "transmitter error: $(cat "$T/err.txt")"

echo "== the receive timeout: lirc:$DEV with timeout_us 20000 (LIRC_SET_REC_TIMEOUT)"
echo none >/sys/class/rc/"$RC"/protocols
probe_start "lirc:$DEV" 20 1 20000
ir-ctl -d "$DEV" -S nec:0x0103 || fail "ir-ctl -S nec"
probe_wait
expect "$T/probe.out" "nec:0x103"
grep -q "probe: timeout 20000" "$T/probe.err" || fail "no 20000 us timeout: $(cat "$T/probe.err")"

echo "== carrier reports: lirc:$DEV?carrier=1, irjack send --carrier 40000"
# (rc-loopback 6.1 then also turns its end-of-signal timeout into a
# frequency word: only the 40000 is checked.  With no timeout word the
# silence after the frame never arrives as a word; the NEC family's 2250 us
# of it come from the source's own idle time, so one frame is enough.)
probe_start "lirc:$DEV?carrier=1" 20 1
"$IRJACK" send --device "lirc:$DEV" --carrier 40000 --duty 40 nec:0x0102 || fail "irjack send --carrier"
probe_wait
expect "$T/probe.out" "nec:0x102"
grep -q "probe: carrier 40000" "$T/probe.err" || fail "no carrier 40000 report: $(cat "$T/probe.err")"
ir-ctl -d "$DEV" -M -t 125000 >/dev/null 2>&1

echo "== source survives the device going away: rmmod rc-loopback, insmod it again"
KO=$(find /tmp/initrd/lib/modules -name 'rc-loopback.ko*' | head -1)
if [ -z "$KO" ]; then
	fail "rc-loopback.ko not found under /tmp/initrd (tests/vm/init copies it there)"
else
	echo none >/sys/class/rc/"$RC"/protocols
	probe_start "lirc:rc-loopback" 30 2
	ir-ctl -d "$DEV" -S necx:0x123459 || fail "ir-ctl -S before rmmod"
	sleep 0.5
	rmmod rc_loopback || fail "rmmod rc-loopback"
	sleep 0.5
	insmod "$KO" || fail "insmod $KO"
	# the probe retries after 0.1, 0.3, 0.7, 1.5 s...
	sleep 3
	NEWDEV=/dev/$(basename "$(ls -d /sys/class/rc/rc*/lirc* | head -1)")
	echo "  after reload: $NEWDEV"
	ir-ctl -d "$NEWDEV" -S necx:0x12345a || fail "ir-ctl -S after insmod"
	probe_wait
	expect "$T/probe.out" "necx:0x123459"
	expect "$T/probe.out" "necx:0x12345a"
	grep -q "1 reopens" "$T/probe.err" || fail "no reopen counted: $(cat "$T/probe.err")"
	grep "event" "$T/probe.err" | sed 's/^/  /'
fi

rm -rf "$T"
echo "lirc VM tests: $failures failure(s)"
[ "$failures" = 0 ]
