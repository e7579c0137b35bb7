#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A LIRC install moved over: Debian's stock /etc/lirc (lirc_options.conf,
# lircd.conf with its include, lircd.conf.d/devinput.lircd.conf) read by
# irjackd through `[daemon] lirc_options`.  The one edit is the socket's
# path (a test must not take the system's /run/lirc/lircd): irw on that
# path names keys from a file source; LIST shows the devinput remote that
# came through the include; permission 666 is the socket's mode; the
# devinput driver becomes a devinput source (on a host without rc-core it
# waits for a receiver: `irjack status` says so, and the file source is
# served meanwhile); a bad value is an error naming
# lirc_options.conf and its line, an unknown option only a warning;
# driver default with its device is a lirc source, configfile a keymap.
# Usage: test_irjackd_lirc_options.sh IRJACKD SOURCE_DIR [IRJACK]
set -u
IRJACKD=$1
SRC=$2
IRJACK=${3:-$(dirname "$IRJACKD")/irjack}
TMP=$(mktemp -d)
daemon=
trap '[ -n "$daemon" ] && kill $daemon 2>/dev/null; rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$(dirname "$0")/lib.sh"
for tool in irw irsend; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing (Debian: lirc)"; exit 1; }
done
[ -f /etc/lirc/lirc_options.conf ] && [ -f /etc/lirc/lircd.conf.d/devinput.lircd.conf ] ||
	{ echo "FAIL: Debian's stock /etc/lirc missing (Debian: lirc)"; exit 1; }

mkdir "$TMP/lirc"
cp -r /etc/lirc/lircd.conf /etc/lirc/lircd.conf.d "$TMP/lirc/"
sock=$TMP/lircd
sed "s|^output .*|output          = $sock|" /etc/lirc/lirc_options.conf >"$TMP/lirc/lirc_options.conf"
grep -q '^driver *= *devinput' "$TMP/lirc/lirc_options.conf" || fail "stock driver is not devinput"

cat >"$TMP/d.conf" <<CONF
[daemon]
lirc_options = $TMP/lirc/lirc_options.conf
keymap = $SRC/tests/data/irmp-nec.toml
[source irmp]
type = file
device = $TMP/irmp.mode2
CONF

"$IRJACKD" --check-config --config "$TMP/d.conf" >"$TMP/check.out" 2>"$TMP/check.err" ||
	fail "--check-config: $(cat "$TMP/check.err")"
grep -q "output lircd: $sock (mode 0666)" "$TMP/check.out" || fail "socket from output/permission: $(cat "$TMP/check.out")"
grep -q "source lirc: devinput auto" "$TMP/check.out" || fail "driver devinput: $(cat "$TMP/check.out")"
grep -q "driver devinput: not supported" "$TMP/check.err" && fail "devinput still unsupported: $(cat "$TMP/check.err")"

"$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/daemon.err" &
daemon=$!
eventually lircd_up "$sock" || fail "irjackd's socket never answered: $(cat "$TMP/daemon.err")"
[ "$(stat -c %a "$sock" 2>/dev/null)" = 666 ] || fail "socket mode $(stat -c %a "$sock" 2>&1), expected 666"
irw "$sock" >"$TMP/irw.out" 2>&1 &
irw=$!
# the recording put in place once irw is served (the daemon waits for the
# missing file): a replay_delay_ms would race irw's start
wait_clients "$sock" 1 || fail "irw not served: $(cat "$TMP/daemon.err")"
put_in_place "$SRC/samples/nec-remote-irmp.mode2" "$TMP/irmp.mode2"
timeout 60 irsend -d "$sock" LIST "" "" >"$TMP/list.out" 2>&1 || fail "irsend LIST: $(cat "$TMP/list.out")"
grep -q "devinput" "$TMP/list.out" || fail "LIST lacks the included devinput remote: $(cat "$TMP/list.out")"
grep -q "irmp_nec" "$TMP/list.out" || fail "LIST lacks irmp_nec: $(cat "$TMP/list.out")"
if [ ! -d /sys/class/rc ] || [ -z "$(ls /sys/class/rc)" ]; then
	"$IRJACK" status -s "$sock" >"$TMP/status.out" 2>&1
	grep -q "^source lirc devinput:auto waiting" "$TMP/status.out" ||
		fail "the devinput source is not waiting: $(cat "$TMP/status.out")"
fi
wait_for "$TMP/irw.out" ' 00 KEY_VOLUMEUP irmp_nec$'
kill $irw; wait $irw 2>/dev/null
kill $daemon; wait $daemon; daemon=
grep -q ' 00 KEY_VOLUMEUP irmp_nec$' "$TMP/irw.out" || fail "irw named no key: $(cat "$TMP/irw.out") $(cat "$TMP/daemon.err")"

# a bad value: an error with lirc_options.conf's line; unknown: a warning
printf '[lircd]\nfuture-option = 1\npermission = 999\n' >"$TMP/bad_options.conf"
sed "s|^lirc_options = .*|lirc_options = $TMP/bad_options.conf|" "$TMP/d.conf" >"$TMP/bad.conf"
"$IRJACKD" --check-config --config "$TMP/bad.conf" >/dev/null 2>"$TMP/bad.err"
rc=$?
[ $rc = 2 ] || fail "permission = 999: exit $rc, expected 2"
grep -q "bad_options.conf:3: permission" "$TMP/bad.err" || fail "bad permission message: $(cat "$TMP/bad.err")"
grep -q "bad_options.conf:2: .*unknown option 'future-option'" "$TMP/bad.err" ||
	fail "unknown option warning: $(cat "$TMP/bad.err")"

# driver default -> a lirc source on the device; configfile -> the keymap
printf '[lircd]\ndriver = default\ndevice = /dev/lirc3\nconfigfile = %s\n[lircmd]\nuinput = False\n' \
	"$TMP/lirc/lircd.conf.d/devinput.lircd.conf" >"$TMP/default_options.conf"
printf '[daemon]\nlirc_options = %s\n' "$TMP/default_options.conf" >"$TMP/default.conf"
"$IRJACKD" --check-config --config "$TMP/default.conf" >"$TMP/default.out" 2>&1 ||
	fail "driver default: $(cat "$TMP/default.out")"
grep -q "source lirc: lirc /dev/lirc3" "$TMP/default.out" || fail "no lirc source: $(cat "$TMP/default.out")"
grep -q "keymaps: 2 remotes," "$TMP/default.out" || fail "configfile not loaded: $(cat "$TMP/default.out")"

# --lirc-options FILE with no irjackd.conf: the LIRC file alone (where
# no /etc/irjack/irjackd.conf is installed: that one would be read too)
if [ ! -e /etc/irjack/irjackd.conf ]; then
	"$IRJACKD" --check-config --lirc-options "$TMP/default_options.conf" >"$TMP/cli.out" 2>&1 ||
		fail "--lirc-options alone: $(cat "$TMP/cli.out")"
	grep -q "source lirc: lirc /dev/lirc3" "$TMP/cli.out" || fail "--lirc-options: $(cat "$TMP/cli.out")"
fi
"$IRJACKD" --check-config --lirc-options "$TMP/none.conf" >"$TMP/cli.out" 2>&1
rc=$?
[ $rc = 2 ] || fail "--lirc-options of a missing file: exit $rc, expected 2"
grep -q "^irjackd: lirc_options $TMP/none.conf: No such file" "$TMP/cli.out" ||
	fail "missing lirc_options message: $(cat "$TMP/cli.out")"

[ $failures = 0 ] && echo "test_irjackd_lirc_options: all passed"
exit $((failures > 0))
