#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): Debian's stock LIRC setup, moved over.
# irjackd reads /etc/lirc's lirc_options.conf, lircd.conf and its include
# (lircd.conf.d/devinput.lircd.conf) unchanged but for the socket path; its
# `driver = devinput` becomes a devinput source on rc-loopback's input
# device, where the kernel's NEC decoder and keymap turn `ir-ctl -S`
# frames into MSC_SCAN and KEY_ events:
#   - a key the kernel's keymap names: irw says KEY_VOLUMEUP devinput-64,
#     as with lircd's devinput driver;
#   - a scancode the kernel does not map (MSC_SCAN only): named by an
#     rc_keymaps TOML through the protocol selected in sysfs (nec);
#   - `irjack status` shows the source running on /dev/input/eventN.
# Usage (in the guest): guest-devinput.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
SRC=$2
IRJACKD=$BUILD/irjackd
IRJACK=$BUILD/irjack
T=$(mktemp -d)
SOCK=$T/lircd
failures=0
daemon=
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
trap '[ -n "$daemon" ] && kill $daemon 2>/dev/null' EXIT

for tool in ir-ctl ir-keytable irw; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing"; exit 1; }
done
RC=$(basename "$(dirname "$(ls -d /sys/class/rc/rc*/lirc* 2>/dev/null | head -1)")")
[ -n "$RC" ] && [ "$RC" != . ] || { echo "FAIL: no rc-loopback in the VM"; exit 1; }
LIRC=/dev/$(basename "$(ls -d /sys/class/rc/"$RC"/lirc* | head -1)")
EVENT=$(basename "$(ls -d /sys/class/rc/"$RC"/input*/event* | head -1)")
[ -c "/dev/input/$EVENT" ] || { echo "FAIL: no /dev/input/$EVENT (evdev loaded?)"; exit 1; }
# The kernel decodes NEC; its keymap (rc-loopback's own is empty) names one
# scancode (ir-keytable 1.22's -k says "Invalid scancode" for any: a file)
cat >"$T/kernel.toml" <<TOML
[[protocols]]
name = "kernel_nec"
protocol = "nec"
[protocols.scancodes]
0x04fb = "KEY_VOLUMEUP"
TOML
ir-keytable -s "$RC" -c -w "$T/kernel.toml" >"$T/keytable.out" 2>&1 ||
	fail "ir-keytable: $(cat "$T/keytable.out")"
echo "  $RC protocols: $(cat /sys/class/rc/"$RC"/protocols)"
ir-keytable -s "$RC" -r 2>&1 | sed "s/^/  table: /"

mkdir "$T/lirc"
cp -r /etc/lirc/lircd.conf /etc/lirc/lircd.conf.d "$T/lirc/"
sed "s|^output .*|output          = $SOCK|" /etc/lirc/lirc_options.conf >"$T/lirc/lirc_options.conf"
grep -q '^driver *= *devinput' "$T/lirc/lirc_options.conf" || fail "stock driver is not devinput"
cat >"$T/scan.toml" <<TOML
[[protocols]]
name = "scan_nec"
protocol = "nec"
[protocols.scancodes]
0x0408 = "KEY_OK"
TOML
cat >"$T/d.conf" <<CONF
[daemon]
lirc_options = $T/lirc/lirc_options.conf
keymap = $T/scan.toml
log_level = debug
CONF

"$IRJACKD" --config "$T/d.conf" 2>"$T/daemon.err" &
daemon=$!
i=0; while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || fail "no socket: $(cat "$T/daemon.err")"
"$IRJACK" status -s "$SOCK" >"$T/status.out" 2>&1
grep -q "^source lirc devinput:/dev/input/$EVENT running" "$T/status.out" ||
	fail "status: $(cat "$T/status.out")"
timeout 10 irw "$SOCK" >"$T/irw.out" 2>&1 &
irw=$!
# irw must be connected before the first frame (software emulation is slow:
# 0.5 s was seen to be too short)
sleep 3
ir-ctl -d "$LIRC" -S nec:0x04fb || fail "ir-ctl -S nec:0x04fb"
sleep 1
ir-ctl -d "$LIRC" -S nec:0x0408 || fail "ir-ctl -S nec:0x0408"
wait $irw
echo "  irw: $(tr '\n' '|' <"$T/irw.out")"
n=$(grep -c ' 00 KEY_VOLUMEUP devinput-64$' "$T/irw.out")
[ "$n" = 1 ] || fail "KEY_VOLUMEUP devinput-64 seen $n times, expected once"
grep -q ' 00 KEY_OK scan_nec$' "$T/irw.out" || fail "the unmapped scancode was not named by the TOML keymap"
grep -q 'devinput-32' "$T/irw.out" && fail "devinput-32 named a key devinput-64 has"
kill $daemon; wait $daemon; daemon=
sed "s/^/  daemon: /" "$T/daemon.err"
grep -q "source lirc" "$T/daemon.err" && echo "  log: $(grep 'source lirc' "$T/daemon.err" | head -2 | tr '\n' '|')"
[ $failures = 0 ] && echo "guest-devinput: all passed"
exit $((failures > 0))
