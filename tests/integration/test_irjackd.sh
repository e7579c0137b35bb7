#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjackd: --check-config, configuration errors with file:line, and a
# recording replayed as a source, its frames tagged with the source.
# Usage: test_irjackd.sh IRJACKD_BINARY SOURCE_DIR
# IRJACKD_WRAPPER: a command every irjackd run goes through (valgrind: see
# tests/CMakeLists.txt); its exit status counts as irjackd's.
set -u
WRAP=${IRJACKD_WRAPPER:-}
IRJACKD=$1
SRC=$2
TMP=$(mktemp -d)
clients=
trap 'for p in $clients; do kill $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
failures=0
. "$(dirname "$0")/lib.sh"

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_exit() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(head -c 300 "$TMP/err")"
}
expect_out() { grep -q -- "$1" "$TMP/out" || fail "stdout lacks '$1': $(head -c 300 "$TMP/out")"; }
expect_err() { grep -q -- "$1" "$TMP/err" || fail "stderr lacks '$1': $(head -c 300 "$TMP/err")"; }

expect_exit 0 $WRAP "$IRJACKD" --help; expect_out "Usage: irjackd"
expect_exit 2 $WRAP "$IRJACKD" --config "$TMP/none.conf"; expect_err "none.conf: No such file"

cat >"$TMP/bad.conf" <<CONF
[source mic]
type = alsa
rate = 1234
CONF
expect_exit 2 $WRAP "$IRJACKD" --check-config --config "$TMP/bad.conf"
expect_err "bad.conf:3: rate"

cat >"$TMP/ok.conf" <<CONF
[source rec]
type = file
device = $SRC/samples/nec-mic-jack-44k.wav

[source irmp]
type = file
device = $SRC/samples/nec-remote-irmp.mode2

[output json]
path = -
CONF
expect_exit 0 $WRAP "$IRJACKD" --check-config --config "$TMP/ok.conf"
expect_out "configuration valid"; expect_out "source rec: file"
expect_exit 0 $WRAP "$IRJACKD" --config "$TMP/ok.conf"
[ "$(grep -c '"source":"rec"' "$TMP/out")" = 6 ] || fail "6 frames from the WAV source: $(cat "$TMP/out")"
[ "$(grep -c '"source":"irmp"' "$TMP/out")" = 5 ] || fail "5 frames from the mode2 source"
grep -q '"protocol":"nec","scancode":1275,"scancode_hex":"0x04fb"' "$TMP/out" || fail "nec 0x04fb as JSON"

# [output lcddev] is opened at start: without /dev/cuse (this host; the VM
# test tests/vm/guest-display.sh serves a real one) the start fails, saying why
cat >"$TMP/lcddev.conf" <<CONF
[source irmp]
type = file
device = $SRC/samples/nec-remote-irmp.mode2
[output lcddev]
name = lcd-test
CONF
expect_exit 0 $WRAP "$IRJACKD" --check-config --config "$TMP/lcddev.conf"
expect_out "output lcddev: /dev/lcd-test, source (every display)"
if [ ! -e /dev/cuse ]; then
	expect_exit 1 $WRAP "$IRJACKD" --config "$TMP/lcddev.conf"
	grep -q "/dev/cuse\|built without libfuse3" "$TMP/err" || fail "lcddev without /dev/cuse: $(cat "$TMP/err")"
fi

# At log level debug, a train no protocol took is logged with each
# candidate family's reason (as `irjack decode -v` prints it).
# NEC 0x0408 (bytes 04 FB 08 F7, LSB first) with a 3.8 ms header space
{
	echo "pulse 9000"; echo "space 3800"
	for byte in 4 251 8 247; do
		for bit in 0 1 2 3 4 5 6 7; do
			echo "pulse 563"
			[ $(((byte >> bit) & 1)) = 1 ] && echo "space 1688" || echo "space 563"
		done
	done
	echo "pulse 563"; echo "space 40000"
} >"$TMP/bad.mode2"
cat >"$TMP/debug.conf" <<CONF
[daemon]
log_level = debug
[source bad]
type = file
device = $TMP/bad.mode2
[output json]
path = -
CONF
expect_exit 0 $WRAP "$IRJACKD" --config "$TMP/debug.conf"
expect_err "source bad: 68 edges (67.4 ms) no protocol took"
expect_err "source bad: nec: header space 3800 us outside 3937-5067"

# Real lirc clients on irjackd's lircd socket: irw prints the presses,
# irsend lists and sends, irexec runs a command for a button.
if command -v irw >/dev/null && command -v irsend >/dev/null && command -v irexec >/dev/null; then
	sock=$TMP/lircd
	# the recording is put in place once irw and irexec are served (the
	# daemon waits for a missing file, retrying every 2 s): under valgrind
	# on a loaded host a replay_delay_ms lost the race to them
	# the repeat counters compared below count on the press not being
	# released between a frame and its repeat 108 ms later: the key-up timer
	# runs on the clock, and a daemon starved for 125 ms (valgrind on a loaded
	# host: "00" twice, no "02") released it
	cat >"$TMP/live.conf" <<CONF
[daemon]
keymap = $SRC/tests/data/irmp-nec.toml
keyup_timeout_ms = 1000
[source irmp]
type = file
device = $TMP/irmp.mode2
[output lircd]
path = $sock
[transmitter out]
type = file
device = $TMP/sent.mode2
CONF
	cat >"$TMP/lircrc" <<RC
begin
    prog = irexec
    button = KEY_VOLUMEDOWN
    config = touch $TMP/irexec-ran
end
RC
	$WRAP "$IRJACKD" --config "$TMP/live.conf" 2>"$TMP/daemon.err" &
	daemon=$!
	eventually lircd_up "$sock" || fail "irjackd's socket never answered: $(cat "$TMP/daemon.err")"
	irw "$sock" >"$TMP/irw.out" 2>&1 &
	clients="$clients $!"
	LIRC_SOCKET_PATH=$sock irexec "$TMP/lircrc" >/dev/null 2>&1 &
	clients="$clients $!"
	# a client that connects and never reads
	python3 -c 'import socket,sys,time; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(600)' "$sock" &
	clients="$clients $!"
	wait_clients "$sock" 3 || fail "irw, irexec and the silent client not all served: $(cat "$TMP/daemon.err")"
	put_in_place "$SRC/samples/nec-remote-irmp.mode2" "$TMP/irmp.mode2"
	timeout 60 irsend -d "$sock" LIST "" "" >"$TMP/list.out" 2>&1 || fail "irsend LIST"
	grep -qx "irmp_nec" "$TMP/list.out" || fail "LIST names the remote: $(cat "$TMP/list.out")"
	timeout 60 irsend -d "$sock" LIST irmp_nec "" >"$TMP/list2.out" 2>&1 || fail "irsend LIST remote"
	[ "$(grep -c KEY_VOL "$TMP/list2.out")" = 2 ] || fail "LIST remote gives 2 buttons: $(cat "$TMP/list2.out")"
	timeout 60 irsend -d "$sock" SEND_ONCE irmp_nec KEY_VOLUMEUP || fail "irsend SEND_ONCE"
	timeout 60 irsend -d "$sock" SEND_ONCE irmp_nec KEY_MUTE >"$TMP/send.err" 2>&1 && fail "SEND_ONCE of an unknown button succeeded"
	grep -q 'unknown command' "$TMP/send.err" || fail "SEND_ONCE error message: $(cat "$TMP/send.err")"
	# the recording played out, and its five key lines through to irw
	wait_for "$TMP/daemon.err" "source irmp: end of input" || fail "the recording was not replayed"
	eventually has_lines "$TMP/irw.out" 5 ' irmp_nec$'
	eventually test -e "$TMP/irexec-ran"
	for p in $clients; do kill $p 2>/dev/null; wait $p 2>/dev/null; done
	clients=
	kill $daemon 2>/dev/null
	wait $daemon
	[ "$?" = 0 ] || fail "irjackd did not stop cleanly on SIGTERM: $(cat "$TMP/daemon.err")"
	printf '0000000000000007 00 KEY_VOLUMEUP irmp_nec\n0000000000000007 01 KEY_VOLUMEUP irmp_nec\n0000000000000007 02 KEY_VOLUMEUP irmp_nec\n0000000000000006 00 KEY_VOLUMEDOWN irmp_nec\n0000000000000006 01 KEY_VOLUMEDOWN irmp_nec\n' >"$TMP/irw.want"
	cmp -s "$TMP/irw.want" "$TMP/irw.out" || fail "irw lines: $(cat "$TMP/irw.out")"
	[ -e "$TMP/irexec-ran" ] || fail "irexec ran no command"
	grep -q '^pulse 9000$' "$TMP/sent.mode2" || fail "SEND_ONCE wrote no NEC frame"
	[ -S "$sock" ] && fail "socket left behind"
else
	fail "lirc clients (irw, irsend, irexec) missing: install the lirc package"
fi

if [ "$failures" -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "irjackd tests passed"
