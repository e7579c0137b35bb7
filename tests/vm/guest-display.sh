#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): the iMON front-panel display on the wire.
# tests/vm/mce_gadget --imon plays an iMON receiver (FunctionFS on
# dummy_hcd) and logs every 8-byte OUT packet; the expected packets below
# are written out by hand from the protocol (kernel imon.c, lcdproc
# imonlcd), not produced by irjack's builder:
#   1. as a VFD receiver (15c2:0036): `irjack display Hello World` sends
#      the 35-byte screen in five packets with sequence bytes 0..8 and the
#      closing packet 01 00 00 00 00 FF FF 0A; --clock sends the set-clock
#      packet (today's date and weekday, tag 0x40) and 00 00 01 .. 42;
#   2. as an LCD receiver (15c2:0038): `irjack display --icons music,vol I`
#      sends the start-up sequence, the 28 bitmap packets 0x20..0x3B of
#      an "I" in the first cell, and the icon packet; --off sends the
#      backlight-off and alarm packets;
#   3. irjackd holding the LCD receiver as its usb:imon source takes
#      "DISPLAY ICONS music,vol TEXT I|" on its lircd socket (sent by
#      `irjack display --socket`) and sends the same packets as in 2, after
#      the panel and protocol packets of the source's own start-up.
# Usage (in the guest): guest-display.sh BUILD_DIR [SOURCE_DIR]
set -u
BUILD=$1
IRJACK=$BUILD/irjack
IRJACKD=$BUILD/irjackd
W=$(mktemp -d)
G=/sys/kernel/config/usb_gadget/irjack_imon
failures=0
fail() { echo "guest-display: FAIL: $*"; echo "--- OUT:"; cat "$W/out.log"; failures=$((failures + 1)); }
cleanup() {
	[ -e "$G/UDC" ] && echo "" >"$G/UDC" 2>/dev/null
	[ -n "${GP:-}" ] && kill "$GP" 2>/dev/null
	wait "${GP:-}" 2>/dev/null
	GP=
	umount /dev/ffs-imon 2>/dev/null
	rm -f "$G/configs/c.1/ffs.imon"
	rmdir "$G/configs/c.1/strings/0x409" "$G/configs/c.1" "$G/functions/ffs.imon" \
		"$G/strings/0x409" "$G" 2>/dev/null
	cd /
}
waitfor() {
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# gadget PID: an iMON receiver 15c2:PID, bound and enumerated
gadget() {
	mkdir "$G" && cd "$G" || { echo "guest-display: no configfs gadget support"; exit 1; }
	echo 0x15c2 >idVendor
	echo "$1" >idProduct
	mkdir -p strings/0x409 configs/c.1 functions/ffs.imon
	echo "irjack test" >strings/0x409/manufacturer
	ln -s functions/ffs.imon configs/c.1/
	mkdir -p /dev/ffs-imon
	mount -t functionfs imon /dev/ffs-imon || { echo "guest-display: cannot mount functionfs"; exit 1; }
	rm -f "$W/out.log"
	M=0
	"$BUILD/tests/mce_gadget" --imon /dev/ffs-imon "$W/out.log" >"$W/gadget.log" 2>&1 &
	GP=$!
	waitfor "$W/gadget.log" READY 5 || { echo "guest-display: gadget not ready"; exit 1; }
	echo dummy_udc.0 >UDC || { echo "guest-display: cannot bind dummy_udc.0"; exit 1; }
	i=0
	until grep -qs "15c2" /sys/bus/usb/devices/*/idVendor; do
		i=$((i + 1)); [ $i -gt 50 ] && { echo "guest-display: never enumerated"; exit 1; }; sleep 0.1
	done
	cd /
}
# mark: remember how far the OUT log is (the gadget keeps writing at its
# own offset: truncating the file would leave NULs before the new lines)
mark() { M=$(wc -l <"$W/out.log"); }
# out: the OUT packets logged since the mark, one hex string each, space-separated
out() { sleep 0.3; tail -n +$((M + 1)) "$W/out.log" | sed -n 's/^OUT //p' | tr '\n' ' '; }
M=0
t0=$(cut -d' ' -f1 /proc/uptime)

echo "== 1. VFD (15c2:0036) (at $(cut -d" " -f1 /proc/uptime) s)"
gadget 0x0036
"$IRJACK" display -d usb:imon Hello World || fail "irjack display refused the VFD"
# "Hello" and "World" each padded to 16 with spaces (0x20), then FF FF FF
want="48656c6c6f202000 2020202020202002 2020576f726c6404 2020202020202006 20202020ffffff08 0100000000ffff0a "
[ "$(out)" = "$want" ] || fail "VFD text packets differ"
mark
"$IRJACK" display -d usb:imon --clock || fail "irjack display --clock refused"
# YY MM-1 DD weekday (hex), then hh mm ss and the tag 40
date_hex=$(date '+%y %m %d %w' | awk '{printf "%02x%02x%02x%02x", $1, $2 - 1, $3, $4}')
got=$(out)
case "$got" in
"$date_hex"??????40\ 0000010000000042\ ) ;;
*) fail "VFD clock packets differ (want ${date_hex}hhmmss40 0000010000000042)" ;;
esac
cleanup

echo "== 2. LCD (15c2:0038) (at $(cut -d" " -f1 /proc/uptime) s)"
gadget 0x0038
"$IRJACK" display -d usb:imon --icons music,vol I || fail "irjack display refused the LCD"
# start-up: display on (40 .. 88), alarm cleared (.. 8a), contrast 8
# (08 0a 58 00 ff ff ff 03), init (.. 02), icons off (.. 01), bars off
# (.. 10, 11, 12); the "I" glyph's columns 00 82 fe 82 00 in the first
# cell; empty bitmap packets 21..3a; the last one ends in the four FF pad
# bytes; icons: music bit 7, vol bit 33
init="4000000000000088 000000000000008a 080a5800ffffff03 0000000000000002 0000000000000001 0000000000000010 0000000000000011 0000000000000012 "
bitmap="0082fe8200000020 "
for c in 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f 30 31 32 33 34 35 36 37 38 39 3a; do
	bitmap="${bitmap}00000000000000$c "
done
bitmap="${bitmap}000000ffffffff3b "
icons="8000000002000001 "
[ "$(out)" = "$init$bitmap$icons" ] || fail "LCD packets differ"
mark
"$IRJACK" display -d usb:imon --off || fail "irjack display --off refused"
[ "$(out)" = "0800000000000088 000000000000008a " ] || fail "LCD off packets differ"

echo "== 3. irjackd's DISPLAY socket command (LCD) (at $(cut -d" " -f1 /proc/uptime) s)"
mark
cat >"$W/irjackd.conf" <<CONF
[source panel]
type = imon

[output lircd]
path = $W/lircd
CONF
"$IRJACKD" --config "$W/irjackd.conf" 2>"$W/daemon.err" &
daemon=$!
i=0
# the source's start-up ends with the protocol packet: 00 (iMON) or 01
# (MCE, as here: every protocol is enabled) .. 86
until tail -n +$((M + 1)) "$W/out.log" | grep -q "^OUT 0[01]00000000000086"; do
	i=$((i + 1)); [ $i -gt 100 ] && { fail "irjackd did not start the receiver: $(cat "$W/daemon.err")"; break; }
	sleep 0.1
done
mark
"$IRJACK" display --socket "$W/lircd" --icons music,vol I >"$W/reply" 2>&1 ||
	fail "DISPLAY refused: $(cat "$W/reply")"
[ "$(out)" = "$init$bitmap$icons" ] || fail "LCD packets through irjackd differ"
echo "   shown through irjackd (at $(cut -d" " -f1 /proc/uptime) s)"
kill "$daemon"
wait "$daemon"
echo "   irjackd stopped (at $(cut -d" " -f1 /proc/uptime) s)"
cleanup
t1=$(cut -d' ' -f1 /proc/uptime)
echo "guest-display: $failures failure(s); $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
rm -rf "$W"
[ "$failures" = 0 ]
