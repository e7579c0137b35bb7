#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjackd on the network, as lircd --listen / --connect, and under systemd
# socket activation:
# - [output lircd] listen: irsend -a HOST:PORT lists and sends over TCP, a
#   TCP client gets the same key lines as the UNIX socket's irw;
# - [source NAME] type = lircd: a second irjackd reads the first's TCP
#   port (and UNIX socket) and its irw sees the first daemon's keys, once;
# - two daemons reading each other: every key reaches each client exactly
#   once (no loop);
# - systemd-socket-activate passes the UNIX socket and the TCP port.
# Usage: test_irjackd_net.sh IRJACKD SOURCE_DIR
set -u
[ -n "${NET_DEBUG:-}" ] && set -x
IRJACKD=$1
SRC=$2
TMP=$(mktemp -d)
pids=
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
. "$(dirname "$0")/lib.sh"
for tool in python3 irw irsend systemd-socket-activate; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing (lirc, systemd, python3)"; exit 1; }
done

# python3 itself, not a version manager's shim: a collector must connect
# within a second even on a loaded machine
PY=$(python3 -c 'import sys; print(sys.executable)')

# A free TCP port on 127.0.0.1 (bound and released: the kernel picks it).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Waits until a lircd server answers VERSION at $1 (a path or HOST:PORT).
wait_server() { eventually lircd_up "$1"; }

# Reads $2 key lines from $1 (path or HOST:PORT) into $3, in the
# background ($! is its pid): ready ($3.ready) once the daemon has answered
# its VERSION (it serves this client: key lines reach it), done when the
# lines have come (and 0.5 s more: a line too many would show) or after
# 120 s (a broken run).
cat >"$TMP/collect.py" <<'PY'
import socket, sys, time
addr, want, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if addr.startswith("/"):
    s = socket.socket(socket.AF_UNIX)
    s.connect(addr)
else:
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)))
s.settimeout(120)
s.sendall(b"VERSION\n")
data = b""
while b"\nEND\n" not in data[data.find(b"BEGIN\n"):] or b"BEGIN\n" not in data:
    data += s.recv(4096)
begin = data.find(b"BEGIN\n")
end = data.find(b"\nEND\n", begin) + 5
data = data[:begin] + data[end:]  # key lines before or after the reply are kept
open(out + ".ready", "w").close()
deadline = time.time() + 120
quiet = None
while time.time() < (quiet or deadline):
    if quiet is None and data.count(b"\n") >= want:
        quiet = time.time() + 0.5
    s.settimeout(max(0.01, (quiet or deadline) - time.time()))
    try:
        chunk = s.recv(4096)
    except socket.timeout:
        break
    if not chunk:
        break
    data += chunk
open(out, "w").write(data.decode())
PY
# Waits until the STATUS of the daemon on socket $1 has a line matching $2.
cat >"$TMP/status.py" <<'PY'
import re, socket, sys, time
for attempt in range(1200):  # 120 s: a broken run only
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        s.settimeout(2)
        s.sendall(b"STATUS\n")
        data = b""
        while not data.endswith(b"END\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        if re.search(sys.argv[2], data.decode()):
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.1)
sys.stderr.write(data.decode())
sys.exit(1)
PY
wait_status() { "$PY" "$TMP/status.py" "$1" "$2"; }

collect() {
	rm -f "$3.ready"
	"$PY" "$TMP/collect.py" "$1" "$2" "$3" &
	pids="$pids $!"
}
# Waits until the collectors writing $@ are served (python starts slowly).
wait_ready() {
	for f in "$@"; do
		eventually test -e "$f.ready" || fail "collector $f never served"
	done
}

KEYS='0000000000000007 00 KEY_VOLUMEUP irmp_nec
0000000000000007 01 KEY_VOLUMEUP irmp_nec
0000000000000007 02 KEY_VOLUMEUP irmp_nec
0000000000000006 00 KEY_VOLUMEDOWN irmp_nec
0000000000000006 01 KEY_VOLUMEDOWN irmp_nec'

# ---- listen: the TCP port speaks the socket's protocol ----
port=$(free_port)
# (key-up after 1 s, not 125 ms: a starved daemon released a held key
# between a frame and its repeat, and the repeat counters below changed)
cat >"$TMP/a.conf" <<CONF
[daemon]
keymap = $SRC/tests/data/irmp-nec.toml
keyup_timeout_ms = 1000
[source irmp]
type = file
device = $TMP/irmp.mode2
[output lircd]
path = $TMP/a.sock
listen = 127.0.0.1:$port
[transmitter out]
type = file
device = $TMP/sent.mode2
CONF
"$IRJACKD" --config "$TMP/a.conf" 2>"$TMP/a.err" &
a=$!; pids="$pids $a"
wait_server 127.0.0.1:$port || fail "no lircd server on TCP port $port: $(cat "$TMP/a.err")"
collect 127.0.0.1:$port 5 "$TMP/tcp.out"; tcp=$!
collect "$TMP/a.sock" 5 "$TMP/unix.out"; unix=$!
wait_ready "$TMP/tcp.out" "$TMP/unix.out"
# the recording put in place once both are served (the daemon waits for
# the missing file): a 5 s replay delay raced their start
put_in_place "$SRC/samples/nec-remote-irmp.mode2" "$TMP/irmp.mode2"
timeout 60 irsend -a 127.0.0.1:$port LIST irmp_nec "" >"$TMP/list.out" 2>&1 || fail "irsend -a LIST"
[ "$(grep -c KEY_VOL "$TMP/list.out")" = 2 ] || fail "LIST over TCP: $(cat "$TMP/list.out")"
timeout 60 irsend -a 127.0.0.1:$port SEND_ONCE irmp_nec KEY_VOLUMEUP || fail "irsend -a SEND_ONCE"
wait $tcp $unix
printf '%s\n' "$KEYS" >"$TMP/keys.want"
cmp -s "$TMP/keys.want" "$TMP/tcp.out" || fail "key lines over TCP: $(cat "$TMP/tcp.out")"
cmp -s "$TMP/keys.want" "$TMP/unix.out" || fail "key lines on the socket: $(cat "$TMP/unix.out")"
wait_for "$TMP/sent.mode2" '^pulse 9000$' || fail "SEND_ONCE over TCP sent nothing" # played on its own thread
# the port is taken: a second daemon on another path says which address
sed "s|$TMP/a.sock|$TMP/b.sock|" "$TMP/a.conf" >"$TMP/busy.conf"
timeout 10 "$IRJACKD" --config "$TMP/busy.conf" 2>"$TMP/busy.err"
[ $? = 1 ] || fail "a daemon on a TCP port in use did not exit 1"
grep -q "lircd listen 127.0.0.1:$port: TCP port in use" "$TMP/busy.err" ||
	fail "port in use message: $(cat "$TMP/busy.err")"
kill $a; wait $a || fail "irjackd with a TCP port did not stop cleanly: $(cat "$TMP/a.err")"

# ---- lirc_options.conf's listen and connect, as lircd reads them ----
printf '[lircd]\noutput = %s/lo.sock\nlisten =\nconnect = 127.0.0.1:9999\n' "$TMP" >"$TMP/lo.conf"
: >"$TMP/empty.conf"
"$IRJACKD" --check-config --lirc-options "$TMP/lo.conf" --config "$TMP/empty.conf" >"$TMP/lo.out" 2>&1 ||
	fail "lirc_options with listen and connect: $(cat "$TMP/lo.out")"
grep -q "source lircd-connect: lircd 127.0.0.1:9999" "$TMP/lo.out" || fail "connect: $(cat "$TMP/lo.out")"
grep -q "output lircd: $TMP/lo.sock (mode 0666), TCP 8765" "$TMP/lo.out" || fail "listen: $(cat "$TMP/lo.out")"
printf '[lircd]\nconnect = :80\n' >"$TMP/lo-bad.conf"
"$IRJACKD" --check-config --lirc-options "$TMP/lo-bad.conf" --config "$TMP/empty.conf" >"$TMP/lo.out" 2>&1
[ $? = 2 ] || fail "a connect without a host was accepted"
grep -q "lo-bad.conf:2: connect: expected host\[:port\]" "$TMP/lo.out" || fail "connect error: $(cat "$TMP/lo.out")"
printf '[output lircd]\nlisten = 70000\n[source x]\ntype = lircd\ndevice = h:1\n' >"$TMP/bad-listen.conf"
"$IRJACKD" --check-config --config "$TMP/bad-listen.conf" >"$TMP/lo.out" 2>&1
[ $? = 2 ] && grep -q "bad-listen.conf:2: listen: expected \[ADDR:\]PORT" "$TMP/lo.out" ||
	fail "listen = 70000: $(cat "$TMP/lo.out")"

# ---- SIMULATE keys, waited for ----
# simulate AT KEY: a key line from the daemon at AT (path or HOST:PORT)
simulate() {
	case $1 in /*) opt="-d $1" ;; *) opt="-a $1" ;; esac
	timeout 60 irsend $opt SIMULATE "$2" || fail "irsend SIMULATE at $1"
}

# ---- type = lircd: B reads A's TCP port ----
port=$(free_port)
cat >"$TMP/a.conf" <<CONF
[output lircd]
path = $TMP/a.sock
listen = 127.0.0.1:$port
simulate = yes
[transmitter out]
type = file
device = $TMP/sent.mode2
CONF
cat >"$TMP/b.conf" <<CONF
[source a]
type = lircd
device = 127.0.0.1:$port
[output lircd]
path = $TMP/b.sock
simulate = yes
CONF
"$IRJACKD" --config "$TMP/a.conf" 2>"$TMP/a.err" &
a=$!; pids="$pids $a"
wait_server "$TMP/a.sock" || fail "daemon A never answered: $(cat "$TMP/a.err")"
"$IRJACKD" --config "$TMP/b.conf" 2>"$TMP/b.err" &
b=$!; pids="$pids $b"
wait_status "$TMP/b.sock" "source a lircd:127.0.0.1:$port running, irjackd [0-9a-f]{16}" ||
	fail "B's source never connected to A: $(cat "$TMP/b.err")"
collect "$TMP/b.sock" 3 "$TMP/b.out"; cb=$!
collect "$TMP/a.sock" 2 "$TMP/a.out"; ca=$!
wait_ready "$TMP/b.out" "$TMP/a.out"
simulate 127.0.0.1:$port "0000000000000007 00 KEY_VOLUMEUP tv"
simulate 127.0.0.1:$port "0000000000000007 01 KEY_VOLUMEUP tv"
simulate "$TMP/b.sock" "0000000000000009 00 KEY_MUTE tv"
wait $cb $ca
printf '0000000000000007 00 KEY_VOLUMEUP tv\n0000000000000007 01 KEY_VOLUMEUP tv\n0000000000000009 00 KEY_MUTE tv\n' >"$TMP/b.want"
cmp -s "$TMP/b.want" "$TMP/b.out" || fail "B's clients see A's keys and B's own: $(cat "$TMP/b.out")"
printf '0000000000000007 00 KEY_VOLUMEUP tv\n0000000000000007 01 KEY_VOLUMEUP tv\n' >"$TMP/a.want"
cmp -s "$TMP/a.want" "$TMP/a.out" || fail "A's clients see A's keys only: $(cat "$TMP/a.out")"
wait_status "$TMP/b.sock" "last 0000000000000007 01 KEY_VOLUMEUP tv" || fail "B's STATUS: last key"

# A stops: B keeps running, waits, and reconnects when A is back
kill $a; wait $a
wait_status "$TMP/b.sock" "source a lircd:127.0.0.1:$port waiting" || fail "B's source not waiting"
"$IRJACKD" --config "$TMP/a.conf" 2>"$TMP/a2.err" &
a=$!; pids="$pids $a"
wait_status "$TMP/b.sock" "source a lircd:127.0.0.1:$port running, irjackd" ||
	fail "B did not reconnect to A: $(cat "$TMP/b.err")"
kill $b; wait $b || fail "B did not stop cleanly: $(cat "$TMP/b.err")"

# ---- a loop: A reads B's socket and B reads A's port ----
cat >>"$TMP/a.conf" <<CONF
[source b]
type = lircd
device = $TMP/b.sock
CONF
kill $a; wait $a
"$IRJACKD" --config "$TMP/b.conf" 2>"$TMP/b.err" &
b=$!; pids="$pids $b"
wait_server "$TMP/b.sock" || fail "daemon B never answered: $(cat "$TMP/b.err")"
"$IRJACKD" --config "$TMP/a.conf" 2>"$TMP/a.err" &
a=$!; pids="$pids $a"
wait_status "$TMP/a.sock" "source b lircd:$TMP/b.sock running, irjackd" || fail "A never read B"
wait_status "$TMP/b.sock" "source a lircd:127.0.0.1:$port running, irjackd" || fail "B never read A"
collect "$TMP/b.sock" 3 "$TMP/b.out"; cb=$!
collect "$TMP/a.sock" 3 "$TMP/a.out"; ca=$!
collect 127.0.0.1:$port 3 "$TMP/tcp.out"; ct=$!
wait_ready "$TMP/b.out" "$TMP/a.out" "$TMP/tcp.out"
simulate "$TMP/a.sock" "0000000000000001 00 KEY_1 tv"
simulate "$TMP/b.sock" "0000000000000002 00 KEY_2 tv"
simulate "$TMP/a.sock" "0000000000000001 00 KEY_1 tv"
wait $cb $ca $ct
printf '0000000000000001 00 KEY_1 tv\n0000000000000002 00 KEY_2 tv\n0000000000000001 00 KEY_1 tv\n' >"$TMP/loop.want"
for side in a b tcp; do
	cmp -s "$TMP/loop.want" "$TMP/$side.out" ||
		fail "each key once on $side in a loop of two daemons: $(cat "$TMP/$side.out")"
done
kill $a $b; wait $a; wait $b
grep -q "source a: lircd" "$TMP/b.err" || fail "B's log names its lircd source"

# ---- systemd socket activation: systemd-socket-activate makes the UNIX
# socket and the TCP port and starts irjackd on the first connection ----
port=$(free_port)
cat >"$TMP/act.conf" <<CONF
[output lircd]
path = $TMP/configured.sock
simulate = yes
[transmitter out]
type = file
device = $TMP/sent.mode2
CONF
systemd-socket-activate -l "$TMP/act.sock" -l 127.0.0.1:$port \
	"$IRJACKD" --config "$TMP/act.conf" 2>"$TMP/act.err" &
act=$!; pids="$pids $act"
eventually test -S "$TMP/act.sock" || fail "systemd-socket-activate made no socket"
wait_status "$TMP/act.sock" "output lircd $TMP/act.sock, tcp \\(systemd\\)" ||
	fail "STATUS names systemd's socket and port: $(cat "$TMP/act.err")"
grep -q "lircd socket $TMP/act.sock from systemd" "$TMP/act.err" || fail "log: $(cat "$TMP/act.err")"
[ -e "$TMP/configured.sock" ] && fail "irjackd bound the configured path beside systemd's socket"
collect 127.0.0.1:$port 1 "$TMP/act-tcp.out"; ct=$!
collect "$TMP/act.sock" 1 "$TMP/act-unix.out"; cu=$!
wait_ready "$TMP/act-tcp.out" "$TMP/act-unix.out"
simulate "$TMP/act.sock" "0000000000000005 00 KEY_5 tv"
timeout 60 irsend -a 127.0.0.1:$port SEND_ONCE tv KEY_5 >"$TMP/act-send.out" 2>&1
grep -q 'unknown remote' "$TMP/act-send.out" || fail "irsend -a on systemd's port: $(cat "$TMP/act-send.out")"
wait $ct $cu
for side in tcp unix; do
	[ "$(cat "$TMP/act-$side.out")" = "0000000000000005 00 KEY_5 tv" ] ||
		fail "key on systemd's $side socket: $(cat "$TMP/act-$side.out")"
done
# a reload keeps serving on systemd's socket; a stop leaves it to systemd
kill -HUP $act
wait_status "$TMP/act.sock" "reloads 1 " || fail "the reload not counted"
wait_server "$TMP/act.sock" || fail "systemd's socket after a reload: $(cat "$TMP/act.err")"
kill $act; wait $act || fail "irjackd under socket activation did not stop cleanly: $(cat "$TMP/act.err")"
[ -S "$TMP/act.sock" ] || fail "irjackd removed systemd's socket file"

if [ "$failures" -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "irjackd network tests passed"
