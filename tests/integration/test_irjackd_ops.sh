#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjackd operations: sd_notify readiness (a real NOTIFY_SOCKET), SIGHUP
# reloading a new keymap (the key irw prints changes), SIGHUP with a broken
# configuration (rejected with file:line, the running one kept), `irjack
# status` over the socket, SET_TRANSMITTERS choosing transmitters, SIGTERM.
# Usage: test_irjackd_ops.sh IRJACKD IRJACK SOURCE_DIR
set -u
IRJACKD=$1
IRJACK=$2
SRC=$3
TMP=$(mktemp -d)
daemon=
trap '[ -n "$daemon" ] && kill $daemon 2>/dev/null; rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
for tool in irw irsend python3; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing (Debian: lirc, python3)"; exit 1; }
done
sock=$TMP/lircd

. "$(dirname "$0")/lib.sh"

# The systemd side of sd_notify: a datagram socket whose messages are
# written one per line.
python3 - "$TMP/notify" "$TMP/notify.log" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(30)
with open(sys.argv[2], "w", buffering=1) as log:
    try:
        while True:
            for line in s.recv(4096).decode().splitlines():
                log.write(line + "\n")
    except socket.timeout:
        pass
PY
listener=$!
eventually test -S "$TMP/notify" || fail "the notify listener did not start"

cp "$SRC/tests/data/irmp-nec.toml" "$TMP/keys.toml"
sed -e 's/KEY_VOLUMEUP/KEY_PLAY/' -e 's/KEY_VOLUMEDOWN/KEY_STOP/' \
	"$SRC/tests/data/irmp-nec.toml" >"$TMP/keys-new.toml"
# a Samsung TV frame: status shows rc-core's reading of it alongside
"$IRJACK" encode samsung32:0x0707fd02 >"$TMP/samsung.mode2" || fail "irjack encode samsung32"
cat >"$TMP/d.conf" <<CONF
[daemon]
keymap = $TMP/keys.toml
[source irmp]
type = file
device = $TMP/irmp.mode2
[source samsung]
type = file
device = $TMP/samsung.mode2
[output lircd]
path = $sock
[transmitter one]
type = file
device = $TMP/one.mode2
[transmitter two]
type = file
device = $TMP/two.mode2
CONF
cp "$TMP/d.conf" "$TMP/good.conf"

NOTIFY_SOCKET=$TMP/notify "$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/daemon.err" &
daemon=$!
wait_for "$TMP/notify.log" '^READY=1$' || fail "no READY=1 on NOTIFY_SOCKET: $(cat "$TMP/notify.log")"
[ -S "$sock" ] || fail "READY=1 came before the socket existed"
irw "$sock" >"$TMP/irw.out" 2>&1 &
irw=$!
# the recording put in place once irw is served (the daemon waits for the
# missing file): a replay_delay_ms would race irw's start
wait_clients "$sock" 1 || fail "irw not served: $(cat "$TMP/daemon.err")"
put_in_place "$SRC/samples/nec-remote-irmp.mode2" "$TMP/irmp.mode2"
wait_for "$TMP/irw.out" KEY_VOLUMEDOWN || fail "first keymap: no KEY_VOLUMEDOWN: $(cat "$TMP/irw.out")"
# the recording's last frame (a repeat) comes ~110 ms after the press irw saw
wait_for "$TMP/irw.out" ' 01 KEY_VOLUMEDOWN' || fail "no repeat of KEY_VOLUMEDOWN: $(cat "$TMP/irw.out")"

# irjack status: the source's figures
"$IRJACK" status -s "$sock" >"$TMP/status.out" 2>&1 || fail "irjack status exited $?: $(cat "$TMP/status.out")"
grep -q '^source irmp file:.*frames 5,' "$TMP/status.out" || fail "status lacks 5 frames of irmp: $(cat "$TMP/status.out")"
grep -q 'last nec 0x0*6 repeat KEY_VOLUMEDOWN [0-9.]* s ago$' "$TMP/status.out" || fail "status lacks the last frame: $(cat "$TMP/status.out")"
grep -q '^source samsung .*last samsung32 0x0707fd02 rc_protocol necx rc_scancode 0x70702 [0-9.]* s ago$' "$TMP/status.out" ||
	fail "status lacks rc-core's reading of the samsung32 frame: $(cat "$TMP/status.out")"
grep -q '^output lircd .*, [12] clients\?$' "$TMP/status.out" || fail "status lacks the lircd output: $(cat "$TMP/status.out")"
"$IRJACK" status -s "$TMP/nothing" >/dev/null 2>"$TMP/status.err"
[ $? = 2 ] || fail "irjack status on a missing socket must exit 2"
grep -q 'nothing: No such file' "$TMP/status.err" || fail "status error: $(cat "$TMP/status.err")"

# SIGHUP, new keymap: the same frames now press other keys.
cp "$TMP/keys-new.toml" "$TMP/keys.toml"
kill -HUP $daemon
wait_for "$TMP/notify.log" '^RELOADING=1$' || fail "no RELOADING=1 on SIGHUP"
wait_for "$TMP/irw.out" KEY_STOP || fail "after SIGHUP: no KEY_STOP: $(cat "$TMP/irw.out")"
grep -q KEY_PLAY "$TMP/irw.out" || fail "after SIGHUP: no KEY_PLAY"
grep -q 'reloaded: 2 sources, 1 remote, 6 buttons' "$TMP/daemon.err" || fail "reload not logged: $(cat "$TMP/daemon.err")"
[ "$(grep -c '^READY=1$' "$TMP/notify.log")" = 2 ] || fail "READY=1 after the reload: $(cat "$TMP/notify.log")"

# SIGHUP, broken configuration: rejected, named, and the service keeps
# running with what it had (the new keymap's buttons, both transmitters).
printf '[source irmp]\ntype = file\nthis line is broken\n' >"$TMP/d.conf"
kill -HUP $daemon
wait_for "$TMP/daemon.err" 'reload rejected' || fail "broken config not rejected: $(cat "$TMP/daemon.err")"
grep -q "d.conf:3: " "$TMP/daemon.err" || fail "the broken line is not named: $(cat "$TMP/daemon.err")"
kill -0 $daemon 2>/dev/null || fail "irjackd died on a broken configuration"
timeout 60 irsend -d "$sock" LIST irmp_nec "" >"$TMP/list.out" 2>&1 || fail "LIST after the rejected reload"
grep -q KEY_PLAY "$TMP/list.out" || fail "LIST after the rejected reload: $(cat "$TMP/list.out")"
"$IRJACK" status -s "$sock" >"$TMP/status.out" 2>&1
grep -q 'reloads 1 (1 rejected)' "$TMP/status.out" || fail "status counts reloads: $(head -1 "$TMP/status.out")"

# A keymap that does not load is rejected the same way.
cp "$TMP/good.conf" "$TMP/d.conf"
printf '[[protocols]]\nname = "x"\nprotocol = "nec"\n[protocols.scancodes]\n0x1 = KEY_A\n' >"$TMP/keys.toml"
kill -HUP $daemon
wait_for "$TMP/daemon.err" 'keys.toml:5: ' || fail "broken keymap not named: $(cat "$TMP/daemon.err")"
[ "$(grep -c 'reload rejected' "$TMP/daemon.err")" = 2 ] || fail "broken keymap reload not rejected"

# SET_TRANSMITTERS: 2 → the second only; 1 2 → both; 3 → refused.
timeout 60 irsend -d "$sock" SET_TRANSMITTERS 2 || fail "SET_TRANSMITTERS 2"
# (SUCCESS means queued: each transmitter plays on its own thread, so the
# files are waited for; checking at once failed under load: "transmitter 2
# sent nothing")
timeout 60 irsend -d "$sock" SEND_ONCE irmp_nec KEY_PLAY || fail "SEND_ONCE to transmitter 2"
wait_for "$TMP/two.mode2" '^pulse 9000$' || fail "transmitter 2 sent nothing"
[ -e "$TMP/one.mode2" ] && fail "transmitter 1 sent though only 2 was set"
timeout 60 irsend -d "$sock" SET_TRANSMITTERS 1 2 || fail "SET_TRANSMITTERS 1 2"
timeout 60 irsend -d "$sock" SEND_ONCE irmp_nec KEY_STOP || fail "SEND_ONCE to both"
wait_for "$TMP/one.mode2" '^pulse 9000$' || fail "transmitter 1 sent nothing after SET_TRANSMITTERS 1 2"
eventually has_lines "$TMP/two.mode2" 2 '^pulse 9000$' || fail "transmitter 2 did not send twice"
[ "$(grep -c '^pulse 9000$' "$TMP/two.mode2")" = 2 ] || fail "transmitter 2 sent more than twice"
timeout 60 irsend -d "$sock" SET_TRANSMITTERS 3 >"$TMP/set.err" 2>&1 && fail "SET_TRANSMITTERS 3 of 2 accepted"

# SEND_START repeats the button every frame period until SEND_STOP, with
# lircd's rules: one button at a time, SEND_ONCE refused meanwhile,
# SEND_STOP must name it.  The file transmitter is paced like a real one.
timeout 60 irsend -d "$sock" SET_TRANSMITTERS 1 || fail "SET_TRANSMITTERS 1"
rm -f "$TMP/one.mode2"
t0=$(date +%s%N)
timeout 60 irsend -d "$sock" SEND_START irmp_nec KEY_PLAY || fail "SEND_START"
timeout 60 irsend -d "$sock" SEND_START irmp_nec KEY_PLAY >"$TMP/rep.err" 2>&1 &&
	fail "a second SEND_START accepted"
grep -q 'already repeating' "$TMP/rep.err" || fail "second SEND_START: $(cat "$TMP/rep.err")"
timeout 60 irsend -d "$sock" SEND_ONCE irmp_nec KEY_STOP >"$TMP/rep.err" 2>&1 &&
	fail "SEND_ONCE while repeating accepted"
grep -q 'busy: repeating' "$TMP/rep.err" || fail "SEND_ONCE while repeating: $(cat "$TMP/rep.err")"
timeout 60 irsend -d "$sock" SEND_STOP irmp_nec KEY_STOP >"$TMP/rep.err" 2>&1 &&
	fail "SEND_STOP of another button accepted"
grep -q 'specified code does not match' "$TMP/rep.err" || fail "SEND_STOP mismatch: $(cat "$TMP/rep.err")"
"$IRJACK" status -s "$sock" >"$TMP/status.out" 2>&1
grep -q '^repeating irmp_nec KEY_PLAY, [0-9]* repeats\{0,1\} sent$' "$TMP/status.out" ||
	fail "status while repeating: $(cat "$TMP/status.out")"
# five repeats written (not a second a loaded host may spend elsewhere)
eventually has_lines "$TMP/one.mode2" 5 '^pulse 9000$'
timeout 60 irsend -d "$sock" SEND_STOP irmp_nec KEY_PLAY || fail "SEND_STOP"
t1=$(date +%s%N)
# the transmitter's thread may finish the frame it was writing: until the
# count holds for 0.3 s (a count that keeps growing fails here)
same_for_a_while() {
	sent=$(grep -c '^pulse 9000$' "$TMP/one.mode2")
	sleep 0.3
	[ "$(grep -c '^pulse 9000$' "$TMP/one.mode2")" = "$sent" ]
}
eventually same_for_a_while || fail "still sending after SEND_STOP"
# NEC: a frame, then a repeat code every 108 ms while held
periods=$(((t1 - t0) / 108000000))
[ "$sent" -ge 5 ] && [ "$sent" -le $((periods + 2)) ] ||
	fail "SEND_START..SEND_STOP over $(((t1 - t0) / 1000000)) ms sent $sent frames (at most $((periods + 2)))"
"$IRJACK" decode "$TMP/one.mode2" >"$TMP/rep.dec" 2>&1 || fail "decoding the repeats: $(cat "$TMP/rep.dec")"
[ "$(grep -c ' nec .* repeat' "$TMP/rep.dec")" = $((sent - 1)) ] &&
	[ "$(grep -vc repeat "$TMP/rep.dec")" = 1 ] ||
	fail "the repeats do not decode as one press and $((sent - 1)) repeats: $(cat "$TMP/rep.dec")"
timeout 60 irsend -d "$sock" SEND_STOP irmp_nec KEY_PLAY >"$TMP/rep.err" 2>&1 && fail "SEND_STOP when idle accepted"
grep -q 'not repeating' "$TMP/rep.err" || fail "SEND_STOP when idle: $(cat "$TMP/rep.err")"
# lircd's SEND_STOP may name only the remote, or nothing
timeout 60 irsend -d "$sock" SEND_START irmp_nec KEY_STOP || fail "SEND_START (2)"
python3 - "$sock" >"$TMP/stop.out" 2>&1 <<'PY' || fail "bare SEND_STOP: $(cat "$TMP/stop.out")"
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b"SEND_STOP\n")
reply = b""
while not reply.endswith(b"END\n"):
    reply += s.recv(4096)
print(reply.decode(), end="")
sys.exit(0 if reply == b"BEGIN\nSEND_STOP\nSUCCESS\nEND\n" else 1)
PY
"$IRJACK" status -s "$sock" | grep -q '^repeating' && fail "still repeating after a bare SEND_STOP"
echo "SEND_START..SEND_STOP: $(((t1 - t0) / 1000000)) ms, $sent frames (1 + $((sent - 1)) repeats)"

kill $irw 2>/dev/null
kill -TERM $daemon
wait $daemon
rc=$?
daemon=
[ "$rc" = 0 ] || fail "irjackd exit $rc on SIGTERM: $(tail -3 "$TMP/daemon.err")"
wait_for "$TMP/notify.log" '^STOPPING=1$' || fail "no STOPPING=1"
[ -S "$sock" ] && fail "socket left behind"
kill $listener 2>/dev/null

if [ "$failures" -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "irjackd operations tests passed"
