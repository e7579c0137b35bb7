# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the guest scripts that play a USB device (guest-usb.sh,
# guest-display.sh): one configfs gadget with a FunctionFS function on
# dummy_hcd, served by tests/vm/mce_gadget, set up and torn down the same
# way for every script.
#
# The sourcing script sets BUILD (the build dir: tests/mce_gadget) and W
# (its work dir: the gadget writes W/out.log, one "OUT <hex>" line per
# transfer from the host, and W/gadget.log, its own messages).
#
#   waitfor FILE PATTERN SECONDS  true once PATTERN is in FILE
#   gadget_up NAME VID PID [mce_gadget options...]
#                                 configures gadget irjack_NAME (function
#                                 ffs.NAME on /dev/ffs-NAME), starts
#                                 mce_gadget, binds dummy_udc.0 and waits
#                                 until the host enumerated it; false with
#                                 the reason in $gadget_error
#   gadget_down                   unbinds, stops mce_gadget, removes it all
#                                 (safe to call when nothing is up)

GADGET_DIR=
GADGET_FFS=
GADGET_NAME=
GP=
gadget_error=

waitfor() {
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

gadget_up() {
	GADGET_NAME=$1
	GADGET_DIR=/sys/kernel/config/usb_gadget/irjack_$1
	GADGET_FFS=/dev/ffs-$1
	vid=$2
	pid=$3
	shift 3
	mkdir "$GADGET_DIR" || { gadget_error="no configfs gadget support"; return 1; }
	echo "$vid" >"$GADGET_DIR/idVendor"
	echo "$pid" >"$GADGET_DIR/idProduct"
	mkdir -p "$GADGET_DIR/strings/0x409" "$GADGET_DIR/configs/c.1" \
		"$GADGET_DIR/functions/ffs.$GADGET_NAME"
	echo "irjack test" >"$GADGET_DIR/strings/0x409/manufacturer"
	ln -s "$GADGET_DIR/functions/ffs.$GADGET_NAME" "$GADGET_DIR/configs/c.1/"
	mkdir -p "$GADGET_FFS"
	mount -t functionfs "$GADGET_NAME" "$GADGET_FFS" ||
		{ gadget_error="cannot mount functionfs"; return 1; }
	# a fresh log before the writer starts: truncating it later would
	# leave NULs up to the writer's offset
	: >"$W/out.log"
	"$BUILD/tests/mce_gadget" "$@" "$GADGET_FFS" "$W/out.log" >"$W/gadget.log" 2>&1 &
	GP=$!
	waitfor "$W/gadget.log" READY 5 || { gadget_error="gadget not ready"; return 1; }
	echo dummy_udc.0 >"$GADGET_DIR/UDC" || { gadget_error="cannot bind dummy_udc.0"; return 1; }
	i=0
	until grep -qs "${vid#0x}" /sys/bus/usb/devices/*/idVendor; do
		i=$((i + 1))
		[ $i -gt 50 ] && { gadget_error="gadget never enumerated"; return 1; }
		sleep 0.1
	done
	return 0
}

gadget_down() {
	[ -n "$GADGET_DIR" ] || return 0
	[ -e "$GADGET_DIR/UDC" ] && echo "" >"$GADGET_DIR/UDC" 2>/dev/null
	[ -n "$GP" ] && kill "$GP" 2>/dev/null
	[ -n "$GP" ] && wait "$GP" 2>/dev/null
	GP=
	umount "$GADGET_FFS" 2>/dev/null
	rm -f "$GADGET_DIR/configs/c.1/ffs.$GADGET_NAME"
	rmdir "$GADGET_DIR/configs/c.1/strings/0x409" "$GADGET_DIR/configs/c.1" \
		"$GADGET_DIR/functions/ffs.$GADGET_NAME" "$GADGET_DIR/strings/0x409" \
		"$GADGET_DIR" 2>/dev/null
	GADGET_DIR=
	cd /
}
