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
#      the panel and protocol packets of the source's own start-up;
#   4. a 15c2:ffdc receiver (the gadget chatters reports whose byte 6 is
#      the configuration byte): 0x9f is driven as an LCD (the 0xffdc
#      command bytes 0x50/0x51), 0x24 as a VFD, 0x21 (a Knob) is refused,
#      by `irjack display` and by irjackd's source;
#   5. [output lcddev]: irjackd makes /dev/lcd0 (CUSE) for a VFD receiver
#      (15c2:0044); a 2-byte write is the padded screen, a 33-byte one
#      fails with EINVAL and sends nothing; Debian's LCDd (lcdproc) with
#      its imon driver on /dev/lcd0 puts its Hello screen on the wire and
#      its GoodBye screen last, every write a whole 6-packet screen;
#   6. `irjack display --lcddev lcd1` on an LCD (15c2:0038): an 8-byte
#      write goes out as it is (no start-up sequence), a 7-byte one fails
#      with EINVAL; SIGINT ends it and removes the node.
# Usage (in the guest): guest-display.sh BUILD_DIR [SOURCE_DIR]
set -u
BUILD=$1
IRJACK=$BUILD/irjack
IRJACKD=$BUILD/irjackd
W=$(mktemp -d)
. "$(dirname "$0")/gadget.sh"
failures=0
fail() { echo "guest-display: FAIL: $*"; echo "--- OUT:"; cat "$W/out.log"; failures=$((failures + 1)); }
cleanup() { gadget_down; }
# gadget PID [--ffdc-config BYTE]: an iMON receiver 15c2:PID, bound and
# enumerated (with the option: a 0xffdc chattering reports with that
# configuration byte)
gadget() {
	pid=$1
	shift
	[ $# = 0 ] && set -- --imon
	gadget_up imon 0x15c2 "$pid" "$@" || { echo "guest-display: $gadget_error"; exit 1; }
	M=0
}
# vfd_want LINE1 LINE2: the six packets of a VFD screen, from the protocol
# (kernel imon.c vfd_write): the two lines padded with spaces to 16
# characters each, then FF FF FF; 7 bytes a packet with the sequence
# byte 00, 02, .. 08 last; then 01 00 00 00 00 FF FF 0A.
vfd_want() {
	printf '%-16.16s%-16.16s' "$1" "$2" | od -An -v -tx1 | tr -d ' \n' >"$W/screen.hex"
	printf 'ffffff' >>"$W/screen.hex"
	hex=$(cat "$W/screen.hex")
	seq=0
	while [ -n "$hex" ]; do
		printf '%.14s%02x ' "$hex" "$seq"
		hex=${hex#??????????????}
		seq=$((seq + 2))
	done
	echo "0100000000ffff0a "
}
# irjackd_up CONFIG_BODY: irjackd with this configuration, once its iMON
# source sent its start-up packets (the protocol packet .. 86 last)
irjackd_up() {
	mark
	printf '%s\n' "$1" >"$W/irjackd.conf"
	"$IRJACKD" --config "$W/irjackd.conf" 2>"$W/daemon.err" &
	daemon=$!
	i=0
	until tail -n +$((M + 1)) "$W/out.log" | grep -q "^OUT 0[01]00000000000086"; do
		i=$((i + 1)); [ $i -gt 100 ] && { fail "irjackd did not start the receiver: $(cat "$W/daemon.err")"; break; }
		sleep 0.1
	done
	mark
}
# waitdev NODE: true once NODE is a character device (5 s at most)
waitdev() {
	i=0
	until [ -c "$1" ]; do
		i=$((i + 1)); [ $i -gt 50 ] && return 1
		sleep 0.1
	done
}
irjackd_down() {
	kill "$daemon"
	wait "$daemon"
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
irjackd_up "[source panel]
type = imon

[output lircd]
path = $W/lircd"
"$IRJACK" display --socket "$W/lircd" --icons music,vol I >"$W/reply" 2>&1 ||
	fail "DISPLAY refused: $(cat "$W/reply")"
[ "$(out)" = "$init$bitmap$icons" ] || fail "LCD packets through irjackd differ"
echo "   shown through irjackd (at $(cut -d" " -f1 /proc/uptime) s)"
irjackd_down
echo "   irjackd stopped (at $(cut -d" " -f1 /proc/uptime) s)"
cleanup

echo "== 4. 0xffdc: the display from the configuration byte (at $(cut -d" " -f1 /proc/uptime) s)"
# 0x9f: an LCD (kernel imon.c), whose 0xffdc display command byte is 0x50
# and alarm byte 0x51: --off is 08 .. 50, then .. 51
gadget 0xffdc --ffdc-config 0x9f
"$IRJACK" display -d usb:imon --off || fail "irjack display refused the 0xffdc LCD"
[ "$(out)" = "0800000000000050 0000000000000051 " ] || fail "0xffdc 0x9f not driven as an LCD"
cleanup
# 0x24: a VFD: --off is a blank screen
gadget 0xffdc --ffdc-config 0x24
"$IRJACK" display -d usb:imon --off || fail "irjack display refused the 0xffdc VFD"
[ "$(out)" = "$(vfd_want "" "")" ] || fail "0xffdc 0x24 not driven as a VFD"
cleanup
# 0x21: an iMON Knob, no display: refused, nothing sent
gadget 0xffdc --ffdc-config 0x21
"$IRJACK" display -d usb:imon --off >"$W/reply" 2>&1 && fail "a 0xffdc Knob (0x21) took a screen"
grep -q "has no VFD or LCD" "$W/reply" || fail "no reason for the Knob: $(cat "$W/reply")"
[ "$(out)" = "" ] || fail "packets sent to a 0xffdc Knob"
# irjackd's source reads the byte from the reports it receives (0x9f: LCD)
cleanup
gadget 0xffdc --ffdc-config 0x9f
irjackd_up "[source panel]
type = imon

[output lircd]
path = $W/lircd"
sleep 0.5 # reports every 10 ms: the source has seen one
"$IRJACK" display --socket "$W/lircd" --off >"$W/reply" 2>&1 || fail "DISPLAY OFF refused: $(cat "$W/reply")"
[ "$(out)" = "0800000000000050 0000000000000051 " ] || fail "irjackd did not take 0xffdc 0x9f for an LCD"
irjackd_down
cleanup
echo "   0x9f LCD, 0x24 VFD, 0x21 none; irjackd 0x9f LCD (at $(cut -d" " -f1 /proc/uptime) s)"

echo "== 5. [output lcddev]: /dev/lcd0 as lirc_imon's, and Debian's LCDd on it (at $(cut -d" " -f1 /proc/uptime) s)"
gadget 0x0044 # a VFD (Antec Veris Elite), the kernel's 5 ms spacing
irjackd_up "[source panel]
type = imon

[output lcddev]
name = lcd0
source = panel"
# lcd_part5: the writes and LCDd, once /dev/lcd0 is there (a write to a
# missing node would make a plain file of it)
lcd_part5() {
# a short write is the screen padded with spaces (one write: dd)
printf 'AB' | dd of=/dev/lcd0 bs=32 count=1 2>"$W/dd.err" || fail "2-byte write refused: $(cat "$W/dd.err")"
[ "$(out)" = "$(vfd_want AB "")" ] || fail "2-byte write: packets differ"
mark
# 33 bytes: EINVAL, as lirc_imon; nothing sent
dd if=/dev/zero of=/dev/lcd0 bs=33 count=1 2>"$W/dd.err" && fail "a 33-byte write was taken"
grep -q "Invalid argument" "$W/dd.err" || fail "33 bytes: not EINVAL: $(cat "$W/dd.err")"
[ "$(out)" = "" ] || fail "33 bytes: packets sent"
mark
busybox ip link set lo up # LCDd listens on 127.0.0.1 (busybox: iproute2 is not in the apt line)
cat >"$W/LCDd.conf" <<CONF
[server]
DriverPath=/usr/lib/x86_64-linux-gnu/lcdproc/
Driver=imon
Bind=127.0.0.1
Port=13666
ReportLevel=4
ReportToSyslog=no
User=root
Foreground=yes
Heartbeat=off
ServerScreen=no
Hello="irjack lcddev"
Hello="  LCDd says hi"
GoodBye="LCDd on irjack"
GoodBye="  says goodbye"

[imon]
Device=/dev/lcd0
Size=16x2
CharMap=none
CONF
LCDd -c "$W/LCDd.conf" -f >"$W/lcdd.log" 2>&1 &
lcdd=$!
hello=$(vfd_want "irjack lcddev" "  LCDd says hi")
i=0
until case "$(out)" in *"$hello"*) true ;; *) false ;; esac; do
	i=$((i + 1)); [ $i -gt 60 ] && { fail "LCDd's Hello screen never came: $(cat "$W/lcdd.log")"; break; }
done
echo "   LCDd's Hello screen on the wire (at $(cut -d" " -f1 /proc/uptime) s)"
kill "$lcdd"
wait "$lcdd"
goodbye=$(vfd_want "LCDd on irjack" "  says goodbye")
case "$(out)" in *"$goodbye") ;; *) fail "LCDd's GoodBye screen is not the last one: $(cat "$W/lcdd.log")" ;; esac
# every packet LCDd caused is part of a whole screen (6 packets, sequence 00..08, 0a)
n=$(tail -n +$((M + 1)) "$W/out.log" | grep -c '^OUT')
[ $((n % 6)) = 0 ] || fail "LCDd's writes gave $n packets, not whole screens"
echo "   $((n / 6)) screens from LCDd, the last its GoodBye (at $(cut -d" " -f1 /proc/uptime) s)"
}
if waitdev /dev/lcd0; then lcd_part5; else fail "no /dev/lcd0: $(cat "$W/daemon.err")"; fi
irjackd_down
cleanup

echo "== 6. irjack display --lcddev on an LCD: one 8-byte packet per write (at $(cut -d" " -f1 /proc/uptime) s)"
gadget 0x0038
mark
"$IRJACK" display -d usb:imon --lcddev lcd1 2>"$W/lcddev.err" &
served=$!
lcd_part6() {
# imonlcd's "display on" packet, sent as written: no start-up sequence
printf '\100\000\000\000\000\000\000\210' | dd of=/dev/lcd1 bs=8 count=1 2>"$W/dd.err" ||
	fail "8-byte write refused: $(cat "$W/dd.err")"
[ "$(out)" = "4000000000000088 " ] || fail "LCD write: packets differ"
mark
printf '\100\000\000\000\000\000\000' | dd of=/dev/lcd1 bs=8 count=1 2>"$W/dd.err" &&
	fail "a 7-byte LCD write was taken"
grep -q "Invalid argument" "$W/dd.err" || fail "7 bytes: not EINVAL: $(cat "$W/dd.err")"
[ "$(out)" = "" ] || fail "7 bytes: packets sent"
}
if waitdev /dev/lcd1; then lcd_part6; else fail "no /dev/lcd1: $(cat "$W/lcddev.err")"; fi
kill -INT "$served"
wait "$served" || fail "irjack display --lcddev exited with $? on SIGINT"
[ -e /dev/lcd1 ] && fail "/dev/lcd1 still there after irjack display ended"
cleanup
t1=$(cut -d' ' -f1 /proc/uptime)
echo "guest-display: $failures failure(s); $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
rm -rf "$W"
[ "$failures" = 0 ]
