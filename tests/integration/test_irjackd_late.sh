#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Late devices: a source whose device is missing when irjackd starts (a
# receiver plugged in later, a recording not written yet) does not stop
# the start: `irjack status` names it waiting, and once the device appears
# it is opened (irw names the keys of a file that appeared after the
# start).  `required = yes` keeps the old exit for those who want it; a
# source that can never open (a bad option) still stops the start.
# Usage: test_irjackd_late.sh IRJACKD IRJACK SOURCE_DIR
set -u
IRJACKD=$1
IRJACK=$2
SRC=$3
TMP=$(mktemp -d)
daemon=
trap '[ -n "$daemon" ] && kill $daemon 2>/dev/null; rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$(dirname "$0")/lib.sh"
command -v irw >/dev/null || { echo "FAIL: irw missing (Debian: lirc)"; exit 1; }
sock=$TMP/lircd

cat >"$TMP/d.conf" <<CONF
[daemon]
keymap = $SRC/tests/data/irmp-nec.toml
[source receiver]
type = lirc
device = /dev/lirc-irjack-test-absent
[source late]
type = file
device = $TMP/late.mode2
[output lircd]
path = $sock
CONF

"$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/daemon.err" &
daemon=$!
eventually lircd_up "$sock" || fail "no socket with both devices missing: $(cat "$TMP/daemon.err")"
kill -0 $daemon 2>/dev/null || fail "irjackd exited with its devices missing: $(cat "$TMP/daemon.err")"
"$IRJACK" status -s "$sock" >"$TMP/status1.out" 2>&1 || fail "irjack status: $(cat "$TMP/status1.out")"
grep -q "^source receiver lirc:.* waiting" "$TMP/status1.out" ||
	fail "status does not show the lirc source waiting: $(cat "$TMP/status1.out")"
grep -q "^source late file:.* waiting" "$TMP/status1.out" ||
	fail "status does not show the file source waiting: $(cat "$TMP/status1.out")"
grep -q "source receiver: waiting for its device" "$TMP/daemon.err" ||
	fail "no 'waiting' in the log: $(cat "$TMP/daemon.err")"

irw "$sock" >"$TMP/irw.out" 2>&1 &
irw=$!
wait_clients "$sock" 1 || fail "irw not served: $(cat "$TMP/daemon.err")"
# whole, by a rename: a retry must not open half a file
put_in_place "$SRC/samples/nec-remote-irmp.mode2" "$TMP/late.mode2"
# the retry wait doubles from 0.25 s to 2 s: opened within 2.5 s of appearing
i=0; while ! grep -q "source late: opened on retry" "$TMP/daemon.err" && [ $i -lt 25 ]; do
	sleep 0.1; i=$((i + 1)); done
grep -q "source late: opened on retry" "$TMP/daemon.err" ||
	fail "the file that appeared was not opened within 2.5 s: $(cat "$TMP/daemon.err")"
wait_for "$TMP/irw.out" ' 00 KEY_VOLUMEUP irmp_nec$' ||
	fail "irw named no key from the late file: $(cat "$TMP/irw.out")"
"$IRJACK" status -s "$sock" >"$TMP/status2.out" 2>&1
grep -q "^source late file:.* waiting" "$TMP/status2.out" &&
	fail "the late file is still waiting: $(cat "$TMP/status2.out")"
grep -q "^source receiver lirc:.* waiting" "$TMP/status2.out" ||
	fail "the absent lirc device is no longer waiting: $(cat "$TMP/status2.out")"
# seconds of retries, one error line: a missing device does not flood the log
n=$(grep -c "source receiver (lirc:" "$TMP/daemon.err")
[ "$n" = 1 ] || fail "the missing device was logged $n times, expected once: $(cat "$TMP/daemon.err")"
kill $irw; wait $irw 2>/dev/null
kill $daemon; wait $daemon; daemon=

# required = yes: the missing device stops the start, as before
sed '/^device = \/dev\/lirc-irjack-test-absent/a required = yes' "$TMP/d.conf" >"$TMP/req.conf"
timeout 10 "$IRJACKD" --config "$TMP/req.conf" >/dev/null 2>"$TMP/req.err"
rc=$?
[ $rc = 1 ] || fail "required = yes with the device missing: exit $rc, expected 1"
grep -q "source receiver: required, and its device is missing" "$TMP/req.err" ||
	fail "required message: $(cat "$TMP/req.err")"
[ -e "$sock" ] && fail "the socket was left behind by the failed start"

# a bad option can never open: not waited for
sed 's|^device = /dev/lirc-irjack-test-absent|device = /dev/lirc-irjack-test-absent?mode=bogus|' \
	"$TMP/d.conf" >"$TMP/bad.conf"
timeout 10 "$IRJACKD" --config "$TMP/bad.conf" >/dev/null 2>"$TMP/bad.err"
rc=$?
[ $rc = 1 ] || fail "a bad lirc option: exit $rc, expected 1"
grep -q "unknown option 'mode=bogus'" "$TMP/bad.err" || fail "bad option message: $(cat "$TMP/bad.err")"

[ $failures = 0 ] && echo "test_irjackd_late: all passed"
exit $((failures > 0))
