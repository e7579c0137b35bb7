#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM: a fake MCE transceiver (configfs gadget 0471:0815 with a
# FunctionFS function on dummy_hcd, served by tests/vm/mce_gadget) read by
# the usb source (tests/vm/usb_source_probe, through ir_source_open()):
#   1. the first NEC frame it replays (split packet, long durations)
#      decodes to nec 0x408;
#   2. unbinding the UDC (an unplug) gives GONE, rebinding gives BACK, and
#      the frame sent after the rebind decodes to nec 0x1020; run twice:
#      without udevd (libusb never reports ARRIVED: the source rescans) and
#      with Debian's udevd running (from build-vm/udevroot, see build.sh):
#      then BACK must come from the hotplug ARRIVED event, within 3 s,
#      before the source's 5 s safety rescan;
#   3. the init commands and a transmit reach the device byte for byte as
#      the device table and the TX builder say, in writes of <= 128 bytes;
#   0. first, with the kernel's own mceusb driver bound to the device: the
#      source refuses to open it without detach_kernel (saying why), takes
#      it over with detach_kernel, and the kernel driver has it back once
#      the source is closed;
#   4. then, as an iMON receiver (15c2:0038, 8-byte interrupt packets),
#      usb:imon reports a PAD key press and a pad move as imon scancodes
#      (release and idle chatter: nothing) after the panel and protocol
#      packets went out.
# Usage (in the guest): guest-usb.sh BUILD_DIR
set -u
BUILD=$1
UDEVROOT=$(cd "$(dirname "$0")/../.." && pwd)/build-vm/udevroot
W=$(mktemp -d)
. "$(dirname "$0")/gadget.sh"
fail() { echo "guest-usb: FAIL: $*"; echo "--- probe:"; cat "$W/probe.log"; echo "--- gadget:"; cat "$W/gadget.log"; echo "--- OUT:"; cat "$W/out.log"; cleanup; exit 1; }
cleanup() {
	[ -n "${PP:-}" ] && kill "$PP" 2>/dev/null
	wait "${PP:-}" 2>/dev/null
	PP=
	gadget_down
}
# gadget VID PID [--imon]: configures and binds the fake device
gadget() {
	: >"$W/probe.log"
	gadget_up mce "$@" || fail "$gadget_error"
}
# mce_phase BACK_TIMEOUT: one plug/unplug/replug/transmit round
mce_phase() {
	gadget 0x0471 0x0815
	"$BUILD/tests/usb_source_probe" usb:mceusb 2 30 >"$W/probe.log" 2>&1 &
	PP=$!
	waitfor "$W/probe.log" "^FRAME" 10 || fail "no frame from the first connection"
	grep -q "^FRAME nec 0x408$" "$W/probe.log" || fail "first frame is not nec 0x408"
	tg=$(cut -d' ' -f1 /proc/uptime)
	echo "" >"$GADGET_DIR/UDC"
	waitfor "$W/probe.log" "^EVENT GONE" 10 || fail "unplug not reported"
	gone=$(echo "$tg $(cut -d' ' -f1 /proc/uptime)" | awk '{printf "%.1f", $2 - $1}')
	tb=$(cut -d' ' -f1 /proc/uptime)
	echo dummy_udc.0 >"$GADGET_DIR/UDC" || fail "cannot rebind"
	waitfor "$W/probe.log" "^EVENT BACK" "$1" || fail "replug not reported within $1 s"
	back=$(echo "$tb $(cut -d' ' -f1 /proc/uptime)" | awk '{printf "%.1f", $2 - $1}')
	wait "$PP"
	rc=$?
	PP=
	[ $rc = 0 ] || fail "probe exited with $rc"
	grep -q "^FRAME nec 0x1020$" "$W/probe.log" || fail "frame after the replug is not nec 0x1020"
	[ "$(grep -c '^FRAME' "$W/probe.log")" = 2 ] || fail "expected exactly 2 frames"
	sleep 0.3 # the gadget's OUT reader logs asynchronously
	stream=$(sed -n 's/^OUT //p' "$W/out.log" | tr -d '\n')
	init=$(sed -n 's/^EXPECT-INIT //p' "$W/probe.log")
	tx=$(sed -n 's/^EXPECT-TX //p' "$W/probe.log")
	[ -n "$init" ] && [ -n "$tx" ] || fail "probe printed no expectations"
	case "$stream" in "$init"*) ;; *) fail "init commands differ";; esac
	case "$stream" in *"$init"*"$init"*) ;; *) fail "no init after the replug";; esac
	case "$stream" in *"$tx") ;; *) fail "transmitted bytes differ from the builder's";; esac
	long=$(sed -n 's/^OUT //p' "$W/out.log" | awk 'length($0) > 256' | wc -l)
	[ "$long" = 0 ] || fail "$long OUT writes over 128 bytes"
	mce="nec 0x408, GONE ${gone} s after the unbind, BACK ${back} s after the rebind, nec 0x1020, init and $(( ${#tx} / 2 )) TX bytes byte-exact in $(grep -c . "$W/out.log") OUT writes; $(grep '^STATS' "$W/probe.log")"
	cleanup
}
# mceusb_bound: true while the kernel's mceusb driver has the gadget
mceusb_bound() { ls /sys/bus/usb/drivers/mceusb/ 2>/dev/null | grep -q ':1\.0$'; }
t0=$(cut -d' ' -f1 /proc/uptime)
modprobe -d /tmp/vm-modules mceusb || fail "cannot load mceusb (tests/vm/build.sh, init)"
gadget 0x0471 0x0815
i=0
until mceusb_bound; do
	i=$((i + 1)); [ $i -gt 50 ] && fail "mceusb did not bind"; sleep 0.1
done
"$BUILD/tests/usb_source_probe" usb:mceusb 0 5 rx >"$W/probe.log" 2>&1 &&
	fail "opened a device the kernel driver holds"
grep -q "^OPEN-FAILED the kernel's mceusb driver holds 0471:0815 (use --detach-kernel" "$W/probe.log" ||
	fail "no clear refusal without detach"
"$BUILD/tests/usb_source_probe" usb:mceusb 0 5 rx detach >"$W/probe.log" 2>&1 ||
	fail "no takeover with detach"
grep -q "^OPEN usb:mceusb" "$W/probe.log" || fail "takeover did not open"
i=0
until mceusb_bound; do
	i=$((i + 1)); [ $i -gt 50 ] && fail "mceusb did not get the device back"; sleep 0.1
done
cleanup
rmmod mceusb || fail "cannot unload mceusb"
echo "guest-usb: kernel driver: refused without detach, taken over with it, given back"
mce_phase 10
echo "guest-usb: without udevd: $mce"
[ -x "$UDEVROOT/bin/udevadm" ] || fail "no udev in $UDEVROOT (tests/vm/build.sh fetches it)"
mkdir -p /run/udev
# udevadm runs as the daemon when called by that name
ln -s "$UDEVROOT/bin/udevadm" "$W/systemd-udevd"
"$W/systemd-udevd" --daemon || fail "udevd does not start"
UDEVD=$(pgrep -x systemd-udevd)
i=0
until [ -e /run/udev/control ]; do
	i=$((i + 1)); [ $i -gt 50 ] && fail "udevd made no /run/udev/control"; sleep 0.1
done
mce_phase 3
echo "guest-usb: with udevd: $mce"
kill $UDEVD
gadget 0x15c2 0x0038 --imon
"$BUILD/tests/usb_source_probe" usb:imon 2 10 rx >"$W/probe.log" 2>&1 &
PP=$!
wait "$PP"
rc=$?
PP=
[ $rc = 0 ] || fail "iMON probe exited with $rc"
[ "$(grep '^FRAME' "$W/probe.log" | tr '\n' ' ')" = "FRAME imon 0x2a8195b7 FRAME imon 0x1008000 " ] ||
	fail "iMON frames differ"
[ "$(sed -n 's/^OUT //p' "$W/out.log" | tr '\n' ' ')" = "4000000000000088 0000000000000086 " ] ||
	fail "iMON panel/protocol packets differ"
t1=$(cut -d' ' -f1 /proc/uptime)
echo "guest-usb: ok: MCE twice; iMON: imon 0x2a8195b7, imon 0x1008000;" \
	"$(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
cleanup
rm -rf "$W"
exit 0
