#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): the tests that need a real kernel's devices.
# Usage (in the guest): guest-tests.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
SRC=$2
failures=0
run() {
	echo "== $*"
	"$@"
	rc=$?
	if [ "$rc" != 0 ]; then
		echo "FAIL ($rc): $*"
		failures=$((failures + 1))
	fi
}
ls /dev/uinput >/dev/null 2>&1 || { echo "no /dev/uinput in the VM"; exit 1; }
run "$BUILD/tests/test_out_uinput"
run sh "$SRC/tests/vm/guest-lirc.sh" "$BUILD"
run sh "$SRC/tests/vm/guest-usb.sh" "$BUILD"
if [ -x "$SRC/tests/vm/guest-irjackd.sh" ]; then
	run sh "$SRC/tests/vm/guest-irjackd.sh" "$BUILD" "$SRC"
fi
run sh "$SRC/tests/vm/guest-listen.sh" "$BUILD" "$SRC"
run sh "$SRC/tests/vm/guest-send.sh" "$BUILD" "$SRC"
run sh "$SRC/tests/vm/guest-remotes.sh" "$BUILD" "$SRC"
run sh "$SRC/tests/vm/guest-lircdev.sh" "$BUILD" "$SRC"
run sh "$SRC/tests/vm/guest-devinput.sh" "$BUILD" "$SRC"
run sh "$SRC/tests/vm/guest-display.sh" "$BUILD" "$SRC"
echo "VM tests: $failures failure(s)"
[ "$failures" = 0 ]
