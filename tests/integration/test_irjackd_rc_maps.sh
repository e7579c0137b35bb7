#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ir-keytable users' keymap choice: `[daemon] rc_maps = /etc/rc_maps.cfg`
# (Debian's own file, from the ir-keytable package) loads the keymaps its
# entries give the receivers of the lirc and devinput sources, matched by
# the driver and kernel table in their uevent (a fake sysfs tree here:
# IRJACK_SYSFS_ROOT): a lirc source on an MCE receiver gets rc6_mce.toml,
# a devinput source on every receiver gets every receiver's keymap, in the
# file's order; a receiver with no entry gets none.  rc_maps naming a file
# that is not a keymap, an rc_maps that is not one, and rc_maps.cfg given
# as a keymap are errors that say what is wrong.
# Usage: test_irjackd_rc_maps.sh IRJACKD
set -u
IRJACKD=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
CFG=/etc/rc_maps.cfg
[ -f $CFG ] && [ -f /lib/udev/rc_keymaps/rc6_mce.toml ] ||
	{ echo "FAIL: Debian's $CFG and rc_keymaps missing (Debian: ir-keytable)"; exit 1; }
mce_line=$(grep -n '^\*[[:space:]]*rc-rc6-mce[[:space:]]' $CFG | cut -d: -f1)
hpg_line=$(grep -n '^\*[[:space:]]*rc-hauppauge[[:space:]]' $CFG | cut -d: -f1)
[ -n "$mce_line" ] && [ -n "$hpg_line" ] || fail "Debian's $CFG lacks rc-rc6-mce or rc-hauppauge"

# rc0: an MCE transceiver (its kernel table rc-rc6-mce), rc1: a cx88 card
# (rc-hauppauge), rc2: rc-loopback (rc-empty: no entry)
S=$TMP/sys/class/rc
mkdir -p "$S/rc0/lirc0" "$S/rc0/input7/event7" "$S/rc1/input8/event8" "$S/rc2/lirc2" "$S/rc2/input9/event9"
printf 'NAME=rc-rc6-mce\nDRV_NAME=mceusb\nDEV_NAME=Media Center Ed. eHome Infrared Remote Transceiver (1784:0008)\n' >"$S/rc0/uevent"
printf 'NAME=rc-hauppauge\nDRV_NAME=cx88xx\nDEV_NAME=cx88 IR (Hauppauge Nova-S-Plus)\n' >"$S/rc1/uevent"
printf 'NAME=rc-empty\nDRV_NAME=rc-loopback\nDEV_NAME=rc-core loopback device\n' >"$S/rc2/uevent"
export IRJACK_SYSFS_ROOT=$TMP/sys

check() { # NAME SOURCE_LINES...: --check-config of a config with those source lines
	name=$1; shift
	{ printf '[daemon]\nrc_maps = %s\nlog_level = info\n[source s]\n' "$CFG"; printf '%s\n' "$@"; } >"$TMP/$name.conf"
	"$IRJACKD" --check-config --config "$TMP/$name.conf" >"$TMP/$name.out" 2>"$TMP/$name.err"
}

check lirc "type = lirc" "device = /dev/lirc0" || fail "lirc: $(cat "$TMP/lirc.err")"
grep -q "^irjackd: $CFG:$mce_line: \* rc-rc6-mce: keymap /lib/udev/rc_keymaps/rc6_mce.toml$" "$TMP/lirc.err" ||
	fail "lirc source on the MCE receiver: $(cat "$TMP/lirc.err")"
grep -q "keymaps: 1 remote," "$TMP/lirc.out" || fail "lirc: $(cat "$TMP/lirc.out")"

check byname "type = devinput" "device = name=cx88 IR*" || fail "byname: $(cat "$TMP/byname.err")"
grep -q "rc-hauppauge: keymap /lib/udev/rc_keymaps/hauppauge.toml" "$TMP/byname.err" ||
	fail "devinput by name: $(cat "$TMP/byname.err")"
grep -q "rc6_mce" "$TMP/byname.err" && fail "devinput by name loaded the other receiver's keymap"

check all "type = devinput" || fail "all: $(cat "$TMP/all.err")"
grep "keymap /lib/udev/rc_keymaps/" "$TMP/all.err" | sed 's/.*keymap //' >"$TMP/all.files"
printf '/lib/udev/rc_keymaps/hauppauge.toml\n/lib/udev/rc_keymaps/rc6_mce.toml\n' >"$TMP/all.want"
[ "$hpg_line" -lt "$mce_line" ] || fail "Debian's file order changed: fix the expected order"
cmp -s "$TMP/all.files" "$TMP/all.want" || fail "devinput auto loaded: $(cat "$TMP/all.files")"
grep -q "keymaps: 2 remotes," "$TMP/all.out" || fail "all: $(cat "$TMP/all.out")"

check none "type = lirc" "device = /dev/lirc2" || fail "none: $(cat "$TMP/none.err")"
grep -q "no entry for the receivers present" "$TMP/none.err" || fail "rc-empty: $(cat "$TMP/none.err")"
grep -q "keymaps: 0 remotes," "$TMP/none.out" || fail "none: $(cat "$TMP/none.out")"

# an entry naming a file that is not a keymap
printf 'garbage that is no keymap\n' >"$TMP/junk.toml"
printf '* rc-rc6-mce %s\n' "$TMP/junk.toml" >"$TMP/junk.cfg"
CFG=$TMP/junk.cfg check junk "type = lirc" "device = /dev/lirc0"
[ $? = 2 ] || fail "a non-keymap in rc_maps: not exit 2"
grep -q "$TMP/junk.toml" "$TMP/junk.err" || fail "the bad keymap's name: $(cat "$TMP/junk.err")"
# an rc_maps that is not one: its line
printf 'begin remote\n  name x\nend remote\n' >"$TMP/notmaps.cfg"
CFG=$TMP/notmaps.cfg check notmaps "type = lirc" "device = /dev/lirc0"
[ $? = 2 ] || fail "a lircd.conf as rc_maps: not exit 2"
grep -q "notmaps.cfg:1: expected three fields" "$TMP/notmaps.err" || fail "bad rc_maps: $(cat "$TMP/notmaps.err")"
# rc_maps.cfg given as a keymap
printf '[daemon]\nkeymap = %s\n[source s]\ntype = lirc\ndevice = /dev/lirc0\n' /etc/rc_maps.cfg >"$TMP/askeymap.conf"
"$IRJACKD" --check-config --config "$TMP/askeymap.conf" >/dev/null 2>"$TMP/askeymap.err"
[ $? = 2 ] || fail "rc_maps.cfg as a keymap: not exit 2"
grep -q "/etc/rc_maps.cfg: an ir-keytable rc_maps.cfg .*not a keymap: name it in \[daemon\] rc_maps" "$TMP/askeymap.err" ||
	fail "rc_maps.cfg as a keymap: $(cat "$TMP/askeymap.err")"

[ $failures = 0 ] && echo "test_irjackd_rc_maps: all passed"
exit $((failures > 0))
