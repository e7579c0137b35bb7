#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One irjackd per lircd socket path, as one lircd: a second daemon on a
# path where the first answers exits 1 saying so and the first keeps
# serving; a stale socket (its daemon killed) is replaced; a path that is
# not a socket is never removed; a daemon whose socket was taken over by
# another (after it had been deleted) leaves the other's socket alone when
# it stops.
# Usage: test_irjackd_instance.sh IRJACKD SOURCE_DIR
set -u
IRJACKD=$1
SRC=$2
TMP=$(mktemp -d)
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
command -v python3 >/dev/null || { echo "FAIL: python3 missing"; exit 1; }
sock=$TMP/lircd

cat >"$TMP/d.conf" <<CONF
[source irmp]
type = file
device = $SRC/samples/nec-remote-irmp.mode2
replay_delay_ms = 600000
[output lircd]
path = $sock
CONF

# VERSION over the socket: prints lircd's reply's version line, or fails.
version() {
	python3 - "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall(b"VERSION\n")
data = b""
while not data.endswith(b"END\n"):
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
print(data.decode().splitlines()[5])
PY
}

wait_socket() {
	i=0
	while ! version "$1" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.1
	done
}

"$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/first.err" &
first=$!; pids="$first"
wait_socket "$sock" || fail "the first daemon's socket never answered: $(cat "$TMP/first.err")"
ino=$(stat -c %i "$sock")

# the second refuses, and leaves the first's socket in place
timeout 20 "$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/second.err"
rc=$?
[ $rc = 1 ] || fail "second irjackd on one path exited $rc, expected 1"
grep -q "lircd socket $sock: already in use" "$TMP/second.err" ||
	fail "second irjackd's message: $(cat "$TMP/second.err")"
[ "$(stat -c %i "$sock" 2>/dev/null)" = "$ino" ] || fail "the first daemon's socket file was replaced"
[ "$(version "$sock" 2>&1)" = 0.10.1 ] || fail "the first daemon stopped answering"
kill -0 $first 2>/dev/null || fail "the first daemon died"

# killed without cleaning up: the next start replaces the stale socket
kill -KILL $first; wait $first 2>/dev/null
[ -S "$sock" ] || fail "SIGKILL left no stale socket to test with"
"$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/third.err" &
third=$!; pids="$pids $third"
wait_socket "$sock" || fail "a stale socket was not replaced: $(cat "$TMP/third.err")"

# its socket deleted and a new daemon on the path: stopping the old one
# must not remove the new one's socket
rm -f "$sock"
"$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/fourth.err" &
fourth=$!; pids="$pids $fourth"
wait_socket "$sock" || fail "no daemon on a deleted socket's path: $(cat "$TMP/fourth.err")"
kill -TERM $third; wait $third
[ -S "$sock" ] || fail "a stopping daemon removed another daemon's socket"
[ "$(version "$sock" 2>&1)" = 0.10.1 ] || fail "the fourth daemon is unreachable"
kill -TERM $fourth; wait $fourth
[ -e "$sock" ] && fail "a daemon's own socket left behind after SIGTERM"

# a path that is not a socket is reported and kept
echo precious >"$sock"
timeout 20 "$IRJACKD" --config "$TMP/d.conf" 2>"$TMP/file.err"
rc=$?
[ $rc = 1 ] || fail "a regular file at the socket path: exit $rc, expected 1"
grep -q "exists and is not a socket" "$TMP/file.err" || fail "message: $(cat "$TMP/file.err")"
[ "$(cat "$sock")" = precious ] || fail "the regular file at the socket path was removed"

[ $failures = 0 ] && echo "test_irjackd_instance: all passed"
exit $((failures > 0))
