# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the integration scripts: waiting for events, never for time.
#
# A fixed sleep is a bet that the machine is fast enough; on a loaded
# 2-core CI host (ctest -j2, valgrind beside us) it loses.  Every wait here
# is for the event itself (a line in a file, a socket answering, a client
# served), polled, with BOUND seconds as the upper bound that only a broken
# run reaches.
#
# Needs: python3.  Defines: BOUND, eventually, wait_for, has_lines,
# lircd_request, lircd_up, lircd_clients, wait_clients, put_in_place.

BOUND=${IRJACK_TEST_BOUND:-120}

# eventually COMMAND...: until COMMAND succeeds, tried every 0.1 s for
# BOUND seconds at most; 0 once it did, 1 if it never did
eventually() {
	_end=$(($(date +%s) + BOUND))
	until "$@"; do
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

# has_lines FILE N PATTERN: FILE has N lines or more matching PATTERN
has_lines() { [ "$(grep -c -- "$3" "$1" 2>/dev/null)" -ge "$2" ]; }

# wait_for FILE PATTERN: until FILE has a line matching PATTERN
wait_for() { eventually grep -q -- "$2" "$1" 2>/dev/null; }

# lircd_request ADDR COMMAND [REPEAT]: sends COMMAND to the lircd server at
# ADDR (a socket path or HOST:PORT) REPEAT times (1) on one connection and
# prints the last reply's DATA lines; fails if it is not SUCCESS.
lircd_request() {
	python3 - "$@" <<'PY'
import socket, sys
addr, command = sys.argv[1], sys.argv[2]
repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 1
if addr.startswith("/"):
    s = socket.socket(socket.AF_UNIX)
    s.connect(addr)
else:
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)))
s.settimeout(30)
buf = b""
for _ in range(repeat):
    s.sendall(command.encode() + b"\n")
    # key lines broadcast meanwhile come before BEGIN: skipped
    while True:
        start = buf.find(b"BEGIN\n")
        end = buf.find(b"\nEND\n", start) if start >= 0 else -1
        if end >= 0:
            break
        chunk = s.recv(65536)
        if not chunk:
            sys.exit(1)
        buf += chunk
    reply, buf = buf[start:end + 5].decode().splitlines(), buf[end + 5:]
if len(reply) < 3 or reply[2] != "SUCCESS":
    sys.exit(1)
print("\n".join(reply[5:-1]))
PY
}

# lircd_up ADDR: the server at ADDR answers VERSION (the socket file
# appears at bind(), before listen(): its existence is not enough)
lircd_up() { lircd_request "$1" VERSION >/dev/null 2>&1; }

# lircd_clients SOCKET: how many clients irjackd serves on SOCKET besides
# the one asking.  A connection just closed (the last asker's) counts until
# the daemon has read its end: the last of three STATUS on one connection.
lircd_clients() {
	lircd_request "$1" STATUS 3 | sed -n 's/^output lircd .*, \([0-9]*\) clients\{0,1\}$/\1/p' |
		awk '{ print $1 - 1 }'
}

# wait_clients SOCKET N: until irjackd serves N clients or more on SOCKET
_clients_at_least() { [ "$(lircd_clients "$1" 2>/dev/null || echo -1)" -ge "$2" ] 2>/dev/null; }
wait_clients() { eventually _clients_at_least "$1" "$2"; }

# put_in_place FROM TO: copies FROM to TO whole (a rename), so that a
# daemon waiting for TO (a source's file not there yet, retried every 2 s)
# never reads half of it.  The way to start a replay once every client that
# must see it is served, instead of a replay_delay_ms raced against them.
put_in_place() { cp "$1" "$2.tmp" && mv "$2.tmp" "$2"; }
