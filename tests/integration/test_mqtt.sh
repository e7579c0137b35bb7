#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjackd's MQTT output through a real Mosquitto broker started here on a
# free loopback port (no system service): decoded frames as JSON events,
# transmit requests, broker restart with the offline queue, malformed
# requests, availability (retained status, last will).
# Usage: test_mqtt.sh IRJACKD_BINARY IRJACK_BINARY SOURCE_DIR
set -u
IRJACKD=$1
IRJACK=$2
SRC=$3
TMP=$(mktemp -d)
failures=0
broker=
daemon=
tls_broker=
cleanup() {
	for p in $daemon $broker $tls_broker; do kill "$p" 2>/dev/null; done
	[ -n "${KEEP_TMP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
now() { date +%s.%N; }

for tool in mosquitto mosquitto_sub mosquitto_pub mosquitto_passwd openssl python3; do
	command -v $tool >/dev/null || [ -x /usr/sbin/$tool ] || {
		echo "FAIL: $tool missing: install mosquitto, mosquitto-clients, openssl and python3"
		exit 1
	}
done
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PREFIX=irjack/test
SUB="mosquitto_sub -h 127.0.0.1 -p $PORT"
PUB="mosquitto_pub -h 127.0.0.1 -p $PORT -q 1"

cat >"$TMP/broker.conf" <<CONF
listener $PORT 127.0.0.1
allow_anonymous true
persistence true
persistence_location $TMP/
# mosquitto started as root drops to the user 'mosquitto', which cannot
# write the persistence file in our private temporary folder
user $(id -un)
CONF

# Every wait below is for the event itself (a message, a log line), polled;
# BOUND seconds is the upper bound that only a broken run reaches (a loaded
# 2-core CI machine, valgrind beside us, takes seconds where a desk takes
# milliseconds).
BOUND=60
# eventually COMMAND...: until COMMAND succeeds, tried every 0.1 s for
# BOUND seconds at most; its last status
eventually() {
	end=$(($(date +%s) + BOUND))
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.1
	done
}
# wait_for FILE PATTERN: until FILE has a line matching PATTERN
wait_for() { eventually grep -q -- "$2" "$1"; }
# has_lines FILE N PATTERN: FILE has N lines or more matching PATTERN
has_lines() { [ "$(grep -c -- "$3" "$1" 2>/dev/null)" -ge "$2" ]; }
# retained_is TOPIC PAYLOAD [SUBSCRIBER]: TOPIC's retained message is PAYLOAD
retained_is() { [ "$(${3:-$SUB} -t "$1" -C 1 -W 5 2>/dev/null)" = "$2" ]; }
start_broker() {
	"$MOSQUITTO" -c "$TMP/broker.conf" >>"$TMP/broker.log" 2>&1 &
	broker=$!
	eventually $SUB -t probe -W 1 -C 1 -E >/dev/null 2>&1 && return 0
	fail "mosquitto did not start: $(tail -5 "$TMP/broker.log")"
	exit 1
}
# Subscribers are waited for, never slept for: each one also subscribes to
# its own probe topic, after its real topics, where a retained message
# waits: that message arriving says the broker has taken all of its
# subscriptions (one SUBSCRIBE, handled in order).
# sub_start NAME COUNT ARGS...: mosquitto_sub ARGS in the background, its
# lines to $TMP/NAME.raw; it ends after COUNT messages besides the probe
# (none: sub_stop ends it) or BOUND seconds; returns once it is subscribed.
sub_start() {
	name=$1 count=$2
	shift 2
	$PUB -r -t "probe/$name" -m "probe-$name"
	$SUB "$@" ${count:+-C $((count + 1))} -W $BOUND -t "probe/$name" >"$TMP/$name.raw" 2>"$TMP/$name.err" &
	eval "sub_pid_$name=$!"
	wait_for "$TMP/$name.raw" "probe-$name\$" ||
		fail "mosquitto_sub $name not subscribed in $BOUND s: $(cat "$TMP/$name.err")"
}
# sub_lines NAME: its messages so far (probe and end marker left out) to $TMP/NAME
sub_lines() {
	grep -v -e "probe-$1\$" -e "end-$1\$" "$TMP/$1.raw" >"$TMP/$1"
	wc -l <"$TMP/$1"
}
# sub_has NAME N: it has N messages or more
sub_has() { [ "$(sub_lines "$1")" -ge "$2" ]; }
# sub_wait NAME: waits for it to end (its COUNT reached); its exit status
sub_wait() {
	eval "wait \$sub_pid_$1"
	rc=$?
	sub_lines "$1" >/dev/null
	return $rc
}
# sub_stop NAME: ends it once it has everything published before now: a
# marker sent to its probe topic comes after all of that
sub_stop() {
	$PUB -t "probe/$1" -m "end-$1"
	wait_for "$TMP/$1.raw" "end-$1\$" || fail "mosquitto_sub $1: its end marker never came"
	eval "kill \$sub_pid_$1; wait \$sub_pid_$1"
	sub_lines "$1" >/dev/null
}
# retained NAME TOPIC: the retained messages under TOPIC, -v, to $TMP/NAME
retained() {
	sub_start "$1" "" -v -t "$2"
	sub_stop "$1"
}
stop_broker() {
	kill "$broker"
	wait "$broker" 2>/dev/null
	broker=
}
start_daemon() {
	"$IRJACKD" --config "$1" 2>>"$TMP/daemon.err" &
	daemon=$!
}
stop_daemon() {
	kill "$daemon"
	wait "$daemon"
	rc=$?
	daemon=
	[ "$rc" = 0 ] || fail "irjackd exited $rc on SIGTERM: $(tail -5 "$TMP/daemon.err")"
}

start_broker

# ---- configuration errors name the line ----
cat >"$TMP/bad.conf" <<CONF
[transmitter out]
type = file
device = $TMP/x
[output mqtt]
port = 1883
qos = 3
CONF
"$IRJACKD" --check-config --config "$TMP/bad.conf" >/dev/null 2>"$TMP/err"
grep -q "bad.conf:6: qos" "$TMP/err" || fail "bad qos named with its line: $(cat "$TMP/err")"

# A keymap naming two of the sample's buttons (the third stays unnamed).
cat >"$TMP/tv.toml" <<TOML
[[protocols]]
name = "tv"
protocol = "nec"
[protocols.scancodes]
0x04fb = "KEY_POWER"
0x0408 = "KEY_UP"
TOML
cat >"$TMP/d.conf" <<CONF
[daemon]
keymap = $TMP/tv.toml
[source rec]
type = file
device = $SRC/samples/nec-mic-jack-44k.wav
replay_delay_ms = 1500
[output mqtt]
host = 127.0.0.1
port = $PORT
topic_prefix = $PREFIX
client_id = irjackd-test
discovery = yes
[transmitter out]
type = file
device = $TMP/sent.mode2
CONF

"$IRJACKD" --check-config --config "$TMP/d.conf" >"$TMP/check" 2>&1 ||
	fail "--check-config: $(cat "$TMP/check")"
grep -q "output mqtt: 127.0.0.1:$PORT, qos 1, queue 1000, discovery" "$TMP/check" ||
	fail "--check-config summary: $(cat "$TMP/check")"

# ---- (1) frames from a WAV source arrive as JSON, as irjack decode reads them ----
"$IRJACK" decode --json --keymap "$TMP/tv.toml" "$SRC/samples/nec-mic-jack-44k.wav" >"$TMP/decode.json" ||
	fail "irjack decode of the sample"
frames=$(wc -l <"$TMP/decode.json")
[ "$frames" -ge 6 ] || fail "the sample decodes to $frames frames, expected at least 6"
sub_start events "$frames" -t "$PREFIX/rec/event"
sub_start discovery "" -t 'homeassistant/#' -v
sub_start presses "" -t "$PREFIX/remote/+/event" -v
start_daemon "$TMP/d.conf"
sub_wait events || fail "mosquitto_sub got fewer than $frames events: $(cat "$TMP/events" "$TMP/events.err")"
python3 - "$TMP/decode.json" "$TMP/events" <<'PY' || fail "events differ from irjack decode"
import json, sys
want = [json.loads(l) for l in open(sys.argv[1])]
got = [json.loads(l) for l in open(sys.argv[2])]
bad = 0
for w, g in zip(want, got):
    # MQTT writes the scancode in hex, as JSON lines' scancode_hex
    if not isinstance(g["scancode"], str) or g["scancode"] != w["scancode_hex"] or \
            int(g["scancode"], 16) != w["scancode"]:
        print("scancode: %r, decode says %r" % (g["scancode"], w["scancode_hex"])); bad += 1
    for field in ("protocol", "repeat", "toggle"):
        if w[field] != g[field]:
            print("frame %s: %s %r != %r" % (w, field, g[field], w[field])); bad += 1
    if g["source"] != "rec" or g.get("key") != w.get("key") or g.get("remote") != w.get("remote"):
        print("labels: got %r, decode says %r" % (g, w)); bad += 1
    if not isinstance(g["timestamp"], float) or abs(g["timestamp"] - __import__("time").time()) > 60:
        print("timestamp: %r" % g); bad += 1
if len(got) != len(want):
    bad += 1
named = sum(1 for g in got if g["key"])
if named != 4 or got[0]["key"] != "KEY_POWER" or got[0]["remote"] != "tv" or got[-1]["key"] is not None:
    print("key names: %r" % got); bad += 1
print("events: %d received, %d expected, %d named by the keymap" % (len(got), len(want), named))
sys.exit(1 if bad else 0)
PY

# ---- (5a) availability: retained "online" ----
$SUB -t "$PREFIX/status" -C 1 -W $BOUND >"$TMP/status" 2>&1
[ "$(cat "$TMP/status")" = online ] || fail "retained status is '$(cat "$TMP/status")', expected online"

# discovery: one retained event entity per remote (its buttons as event_types),
# published on connect, before the events: all here once they are
sub_stop discovery
grep -q device_automation "$TMP/discovery" && fail "device triggers without ha_triggers: $(cat "$TMP/discovery")"
[ "$(grep -c '^homeassistant/event/irjack_[^/]*/tv/config ' "$TMP/discovery")" = 1 ] ||
	fail "1 event entity config expected: $(cat "$TMP/discovery")"
grep '^homeassistant/event/irjack_[^/]*/tv/config ' "$TMP/discovery" | cut -d' ' -f2- | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["event_types"] == ["KEY_POWER", "KEY_UP"], d
assert d["state_topic"] == "irjack/test/remote/tv/event", d
assert d["availability_topic"] == "irjack/test/status", d
assert d["payload_available"] == "online" and d["payload_not_available"] == "offline", d
assert d["device"]["identifiers"] and d["unique_id"].endswith("_tv") and d["name"] == "tv", d
' || fail "event entity config: $(cat "$TMP/discovery")"
# presses (not repeats) reach the event entity's state topic: the sample's
# named frames are KEY_POWER, then KEY_UP (see decode.json)
python3 - "$TMP/decode.json" >"$TMP/presses.want" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    f = json.loads(l)
    if f.get("key") and not f["repeat"]:
        print(f["key"], f["scancode_hex"])
PY
[ -s "$TMP/presses.want" ] || fail "the sample has no named press"
# published before the last event came (ended then, any extra would show)
sub_stop presses
python3 - "$TMP/presses" "$TMP/presses.want" <<'PY' || fail "presses on the event topic: $(cat "$TMP/presses")"
import json, sys
want = [l.split() for l in open(sys.argv[2])]
got = []
for l in open(sys.argv[1]):
    topic, payload = l.split(" ", 1)
    d = json.loads(payload)
    assert topic == "irjack/test/remote/tv/event", topic
    assert d["source"] == "rec" and d["protocol"] == "nec", d
    got.append([d["event_type"], d["scancode"]])
print("event entity: %d presses, %s" % (len(got), got))
sys.exit(0 if got == want else 1)
PY
# ---- (2) transmit requests: the file transmitter gets what irjack decode reads back ----
sub_start replies 3 -t "$PREFIX/reply"
raw=$("$IRJACK" encode nec:0x0402 | awk '/^pulse|^space/ { printf "%s%s", sep, $2; sep = "," }')
# one publisher after the other (each waits for its PUBACK): the daemon gets
# them in this order, and its transmitter queue keeps it
$PUB -t "$PREFIX/send" -m 'nec:0x04fb'
$PUB -t "$PREFIX/send" -m "{\"remote\":\"tv\",\"key\":\"KEY_UP\",\"reply\":\"$PREFIX/reply\"}"
$PUB -t "$PREFIX/send" -m "{\"protocol\":\"necx\",\"scancode\":\"0x123456\",\"reply\":\"$PREFIX/reply\"}"
$PUB -t "$PREFIX/send" -m "{\"raw\":[$raw],\"reply\":\"$PREFIX/reply\"}"
sub_wait replies
[ "$(grep -c '{"ok":true}' "$TMP/replies")" = 3 ] || fail "3 ok replies expected: $(cat "$TMP/replies")"
printf 'nec 0x04fb\nnec 0x0408\nnecx 0x123456\nnec 0x0402\n' >"$TMP/sent.want"
# (the transmitter's thread writes the file: until the four frames are in)
sent_is_want() {
	"$IRJACK" decode "$TMP/sent.mode2" >"$TMP/sent.txt" 2>&1
	awk '{ print $2, $3 }' "$TMP/sent.txt" >"$TMP/sent.got"
	cmp -s "$TMP/sent.want" "$TMP/sent.got"
}
eventually sent_is_want || fail "transmitted frames: $(cat "$TMP/sent.txt")"

# ---- (2b) display requests reach the daemon's display handler: with no
# iMON among the sources it logs why (the bytes on the wire: guest-display.sh) ----
$PUB -t "$PREFIX/display" -m 'TEXT Now playing|Track 2'
wait_for "$TMP/daemon.err" 'display request'
grep -q 'display request "TEXT Now playing|Track 2": no source has a display' "$TMP/daemon.err" ||
	fail "display request not handled: $(grep -i display "$TMP/daemon.err")"

# ---- (4) malformed requests: an error each, no crash, still serving ----
sub_start errors 8 -t "$PREFIX/send/error" -t "$PREFIX/myreply" -v
$PUB -t "$PREFIX/send" -m 'complete garbage with too many words'
$PUB -t "$PREFIX/send" -m "$(head -c 5000 /dev/zero | tr '\0' x)"
$PUB -t "$PREFIX/send" -m 'floppy:0x12'
$PUB -t "$PREFIX/send" -m '{"protocol":"nec","scancode":'
$PUB -t "$PREFIX/send" -m '{"protocol":"nec","scancode":"0x04fb","volume":11}'
$PUB -t "$PREFIX/send" -m '{"raw":[9000,-4500]}'
$PUB -t "$PREFIX/send" -m '{"reply":"x/#","remote":"tv","key":"KEY_UP"}'
$PUB -t "$PREFIX/send" -m "{\"remote\":\"tv\",\"key\":\"KEY_NOPE\",\"reply\":\"$PREFIX/myreply\"}"
sub_wait errors
for want in 'expected PROTOCOL:SCANCODE' 'request of 5000 bytes' "unknown protocol 'floppy'" \
	'unterminated\|expected a non-negative integer' 'unknown key \\"volume\\"' 'raw: expected a non-negative' \
	'send/error {"ok":false,"error":"reply: not a topic' \
	'myreply {"ok":false,"error":"unknown remote or key: tv KEY_NOPE"'; do
	grep -q "$want" "$TMP/errors" || fail "no error message '$want': $(cat "$TMP/errors")"
done
kill -0 "$daemon" 2>/dev/null || fail "irjackd died on malformed requests"
before=$(grep -c '^pulse 9000' "$TMP/sent.mode2")
$PUB -t "$PREFIX/send" -m 'tv KEY_POWER'
eventually has_lines "$TMP/sent.mode2" $((before + 1)) '^pulse 9000$'
[ "$(grep -c '^pulse 9000' "$TMP/sent.mode2")" = $((before + 1)) ] || fail "valid request after malformed ones not sent"

# ---- (5b) SIGTERM: "offline" published by the daemon (a clean disconnect drops the will) ----
stop_daemon
# 5 requests carried out (4 in (2), 1 after the malformed ones), 8 refused
grep -q "mqtt: 6 events, 6 published, 0 dropped, 0 never sent; 1 connections; 5 requests carried out, 8 refused" \
	"$TMP/daemon.err" || fail "counters: $(tail -1 "$TMP/daemon.err")"
$SUB -t "$PREFIX/status" -C 1 -W $BOUND >"$TMP/status" 2>&1
[ "$(cat "$TMP/status")" = offline ] || fail "status after SIGTERM is '$(cat "$TMP/status")'"

# ---- (5c) SIGKILL: "offline" from the broker's last will ----
# ... and a request left retained on the broker meanwhile is not replayed
# to the transmitter when the daemon subscribes
$PUB -r -t "$PREFIX/send" -m 'nec:0x0001'
sent_before=$(grep -c '^pulse 9000' "$TMP/sent.mode2")
sub_start retained_err 1 -t "$PREFIX/send/error"
replays=$(grep -c 'source rec: end of input' "$TMP/daemon.err")
start_daemon "$TMP/d.conf"
eventually retained_is "$PREFIX/status" online || fail "status not online after a restart"
sub_wait retained_err
grep -q '"error":"retained requests are ignored.*","request":"nec:0x0001"}' "$TMP/retained_err" ||
	fail "retained request: $(cat "$TMP/retained_err")"
$PUB -r -n -t "$PREFIX/send" # clears it
[ "$(grep -c '^pulse 9000' "$TMP/sent.mode2")" = "$sent_before" ] || fail "a retained request was transmitted"
# this start's replay over before the reload's (whose events are counted next)
eventually has_lines "$TMP/daemon.err" $((replays + 1)) 'source rec: end of input' || fail "the restarted daemon did not replay its source"

# ---- (5d) SIGHUP with the same [output mqtt]: the output is kept (no
# offline/online flap, same connection), takes the new keymap and announces
# its new button; the replayed source's events and a transmit request still
# go through.  Then a changed [output mqtt]: the output is made anew. ----
printf '0x0402 = "KEY_DOWN"\n' >>"$TMP/tv.toml"
connects_before=$(grep -c 'connected to 127.0.0.1' "$TMP/daemon.err")
sub_start events2 "$frames" -t "$PREFIX/rec/event"
sub_start status_reload "" -t "$PREFIX/status" -v
sub_start discovery2 "" -t 'homeassistant/#' -v
kill -HUP "$daemon"
sub_wait events2 || fail "after SIGHUP: fewer than $frames events: $(cat "$TMP/events2")"
grep -q '"key":"KEY_DOWN"' "$TMP/events2" || fail "after SIGHUP: the new keymap's KEY_DOWN not in the events"
$PUB -t "$PREFIX/send" -m 'tv KEY_POWER'
eventually has_lines "$TMP/sent.mode2" $((sent_before + 1)) '^pulse 9000$'
[ "$(grep -c '^pulse 9000' "$TMP/sent.mode2")" = $((sent_before + 1)) ] || fail "request after SIGHUP not sent"
# a flap or the new discovery would have come before the reload's events
sub_stop status_reload
sub_stop discovery2
[ "$(cat "$TMP/status_reload")" = "$PREFIX/status online" ] ||
	fail "status across a SIGHUP that kept the output: $(cat "$TMP/status_reload")"
grep '^homeassistant/event/irjack_[^/]*/tv/config ' "$TMP/discovery2" | tail -1 | cut -d' ' -f2- |
	python3 -c 'import json, sys; d = json.load(sys.stdin); sys.exit(d["event_types"] != ["KEY_POWER", "KEY_UP", "KEY_DOWN"])' ||
	fail "the event entity does not list the new KEY_DOWN: $(cat "$TMP/discovery2")"
[ "$(grep -c 'connected to 127.0.0.1' "$TMP/daemon.err")" = "$connects_before" ] ||
	fail "the kept output connected again: $(grep mqtt "$TMP/daemon.err")"
# ... with the per-button device triggers turned on and a second remote
sed -i 's/^client_id = irjackd-test$/client_id = irjackd-test2\nha_triggers = yes/' "$TMP/d.conf"
cp "$TMP/tv.toml" "$TMP/tv-only.toml"
cat >>"$TMP/tv.toml" <<TOML
[[protocols]]
name = "amp"
protocol = "rc5"
[protocols.scancodes]
0x1010 = "KEY_VOLUMEUP"
TOML
sub_start status_reload2 "" -t "$PREFIX/status" -v
kill -HUP "$daemon"
# the retained online, the old connection's offline, the new one's online
eventually sub_has status_reload2 3
sub_stop status_reload2
[ "$(tr '\n' ' ' <"$TMP/status_reload2")" = "$PREFIX/status online $PREFIX/status offline $PREFIX/status online " ] ||
	fail "status across a SIGHUP with a new client_id: $(cat "$TMP/status_reload2")"
[ "$($SUB -t "$PREFIX/status" -C 1 -W $BOUND 2>/dev/null)" = online ] || fail "status after SIGHUP is not online"
# retained now: the two event entities and tv's three triggers (published
# after the new connection's online: waited for)
discovery3_has_all() {
	for t in $discovery3_topics; do
		grep -q "^homeassistant/$t/config {" "$TMP/discovery3.raw" || return 1
	done
}
discovery3_topics="event/irjack_irjack_test/tv event/irjack_irjack_test/amp device_automation/irjack_irjack_test/rec_tv_KEY_POWER
	device_automation/irjack_irjack_test/rec_tv_KEY_DOWN device_automation/irjack_irjack_test/rec_amp_KEY_VOLUMEUP"
sub_start discovery3 "" -t 'homeassistant/#' -v
eventually discovery3_has_all
sub_stop discovery3
for t in $discovery3_topics; do
	grep -q "^homeassistant/$t/config {" "$TMP/discovery3" || fail "no retained $t: $(cat "$TMP/discovery3")"
done
grep 'rec_tv_KEY_POWER/config' "$TMP/discovery3" | cut -d' ' -f2- | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["automation_type"] == "trigger" and d["topic"] == "irjack/test/rec/event", d
assert d["payload"] == "tv/KEY_POWER" and d["type"] == "button_short_press", d
assert d["device"]["identifiers"] == ["irjack_irjack_test"], d
' || fail "trigger payload: $(cat "$TMP/discovery3")"

# ---- (5e) SIGHUP with amp and KEY_DOWN gone from the keymap (the output
# kept): their configs are cleared (an empty retained payload), the rest stay ----
cp "$TMP/tv-only.toml" "$TMP/tv.toml"
sed -i '/KEY_DOWN/d' "$TMP/tv.toml"
cleared="event/irjack_irjack_test/amp device_automation/irjack_irjack_test/rec_tv_KEY_DOWN
	device_automation/irjack_irjack_test/rec_amp_KEY_VOLUMEUP"
all_cleared() {
	for t in $cleared; do
		grep -q "^0 homeassistant/$t/config|\$" "$TMP/cleanup_live.raw" || return 1
	done
}
sub_start cleanup_live "" -t 'homeassistant/#' -F '%r %t|%p'
kill -HUP "$daemon"
eventually all_cleared
sub_stop cleanup_live
for t in $cleared; do
	grep -q "^0 homeassistant/$t/config|\$" "$TMP/cleanup_live" || fail "$t not cleared: $(cat "$TMP/cleanup_live")"
done
printf '%s\n' homeassistant/device_automation/irjack_irjack_test/rec_tv_KEY_POWER/config \
	homeassistant/device_automation/irjack_irjack_test/rec_tv_KEY_UP/config \
	homeassistant/event/irjack_irjack_test/tv/config >"$TMP/discovery4.want"
# the retained configs once the reload's are all in (or the last try's)
discovery4_is_want() {
	d4_try=$((${d4_try:-0} + 1))
	retained discovery4_$d4_try 'homeassistant/#'
	cp "$TMP/discovery4_$d4_try" "$TMP/discovery4"
	sort "$TMP/discovery4" | sed 's/ .*//' >"$TMP/discovery4.topics"
	cmp -s "$TMP/discovery4.want" "$TMP/discovery4.topics"
}
eventually discovery4_is_want ||
	fail "retained configs after the reload: $(cat "$TMP/discovery4")"
grep -q 'clearing the stale discovery config homeassistant/event/irjack_irjack_test/amp/config' "$TMP/daemon.err" ||
	fail "the cleanup is not logged: $(grep mqtt "$TMP/daemon.err")"
kill -9 "$daemon"
wait "$daemon" 2>/dev/null
daemon=
# the broker publishes the will once it sees the connection gone
eventually retained_is "$PREFIX/status" offline ||
	fail "status after SIGKILL is '$($SUB -t "$PREFIX/status" -C 1 -W 5)' (last will)"

# ---- (3) broker restart mid-stream: reconnect, queued events delivered ----
# 30 NEC frames, distinct scancodes, one every 250 ms (7.5 s).
N=30
for i in $(seq 0 $((N - 1))); do
	"$IRJACK" encode "$(printf 'nec:0x%04x' $((0x0100 + i)))"
	echo "space 250000"
done >"$TMP/paced.mode2"
cat >"$TMP/paced.conf" <<CONF
[source paced]
type = file
device = $TMP/paced.mode2
replay_delay_ms = 1000
[output mqtt]
host = 127.0.0.1
port = $PORT
topic_prefix = $PREFIX
qos = 1
[transmitter out]
type = file
device = $TMP/sent2.mode2
CONF
# a persistent session (-c, qos 1): the broker keeps the subscription and
# what arrives for it across its own restart (persistence on)
# (its probe comes again when it subscribes anew after the restart)
sub_start paced "" -c -i irjack-test-sub -q 1 -t "$PREFIX/paced/event"
: >"$TMP/daemon.err"
start_daemon "$TMP/paced.conf"
eventually sub_has paced 8 || fail "no events before the broker restart"
stop_broker
down_at=$(now)
sleep 1.5
start_broker
up_at=$(now)
wait_for "$TMP/daemon.err" reconnected
reconnected_at=$(now)
grep -q reconnected "$TMP/daemon.err" || fail "irjackd did not reconnect: $(cat "$TMP/daemon.err")"
eventually sub_has paced $N || fail "only $(sub_lines paced) of $N events after the restart"
sleep 1 # duplicates, if any, arrive now (a window: it can only hide a failure)
sub_stop paced
python3 - "$TMP/paced" $N <<'PY' || fail "events across the restart"
import json, sys
n = int(sys.argv[2])
got = [int(json.loads(l)["scancode"], 16) for l in open(sys.argv[1])]
want = list(range(0x100, 0x100 + n))
missing = sorted(set(want) - set(got))
extra = sorted(set(got) - set(want))
dups = len(got) - len(set(got))
print("restart: %d events received, %d distinct of %d, %d duplicates (qos 1)" % (len(got), len(set(got)), n, dups))
# qos 1 may resend what was in flight when the broker went away: at most
# libmosquitto's 20 in-flight messages, never more
sys.exit(1 if missing or extra or dups > 20 else 0)
PY
echo "restart: broker down $(python3 -c "print('%.2f' % ($up_at - $down_at))") s; irjackd reconnected $(python3 -c "print('%.2f' % ($reconnected_at - $up_at))") s after the broker came back"
grep 'reconnected' "$TMP/daemon.err"
# back-off 1, 2, 4 s: the third try at the latest, even on a slow machine
python3 -c "import sys; sys.exit(0 if $reconnected_at - $up_at < 8 else 1)" ||
	fail "reconnect took 8 s or more after the broker came back"
queued=$(sed -n 's/.*, \([0-9]*\) queued event.*/\1/p' "$TMP/daemon.err" | head -1)
[ "${queued:-0}" -ge 1 ] || fail "no event was queued while the broker was down: $(cat "$TMP/daemon.err")"
stop_daemon
grep "mqtt: $N events" "$TMP/daemon.err"
grep -q "mqtt: $N events, $N published, 0 dropped, 0 never sent; 2 connections" "$TMP/daemon.err" ||
	fail "counters after the restart: $(tail -1 "$TMP/daemon.err")"

# ---- offline from the start: the queue keeps the newest queue_max events ----
# 12 frames 60 ms apart while no broker runs; queue_max 5 keeps the last 5.
for i in $(seq 0 11); do
	"$IRJACK" encode "$(printf 'nec:0x%04x' $((0x0200 + i)))"
	echo "space 60000"
done >"$TMP/burst.mode2"
cat >"$TMP/burst.conf" <<CONF
[source burst]
type = file
device = $TMP/burst.mode2
[output mqtt]
host = 127.0.0.1
port = $PORT
topic_prefix = $PREFIX
queue_max = 5
[transmitter out]
type = file
device = $TMP/sent3.mode2
CONF
# register a persistent session, so the broker keeps what arrives for it
$SUB -c -i irjack-test-burst -q 1 -t "$PREFIX/burst/event" -E >/dev/null 2>&1 ||
	fail "no persistent session for the burst"
stop_broker
: >"$TMP/daemon.err"
start_daemon "$TMP/burst.conf"
# all 12 queued (or dropped) while no broker runs: the recording played out
wait_for "$TMP/daemon.err" "source burst: end of input"
wait_for "$TMP/daemon.err" "cannot connect" || fail "no word about the missing broker: $(cat "$TMP/daemon.err")"
kill -0 "$daemon" 2>/dev/null || fail "irjackd gave up without a broker: $(cat "$TMP/daemon.err")"
start_broker
wait_for "$TMP/daemon.err" "connected to"
# the 5 kept events (more would show in the counters below)
$SUB -c -i irjack-test-burst -q 1 -t "$PREFIX/burst/event" -C 5 -W $BOUND >"$TMP/burst.json" 2>/dev/null
python3 - "$TMP/burst.json" <<'PY' || fail "drop-oldest queue: $(cat "$TMP/daemon.err")"
import json, sys
got = [int(json.loads(l)["scancode"], 16) for l in open(sys.argv[1])]
print("offline queue: %d events kept of 12 (queue_max 5): %s" % (len(got), [hex(g) for g in got]))
sys.exit(0 if got == list(range(0x207, 0x20c)) else 1)
PY
grep -q "7 dropped so far" "$TMP/daemon.err" || fail "7 drops counted: $(cat "$TMP/daemon.err")"
stop_daemon
grep -q "mqtt: 12 events, 5 published, 7 dropped, 0 never sent; 1 connections" "$TMP/daemon.err" ||
	fail "counters after the burst: $(tail -1 "$TMP/daemon.err")"

# ---- TLS and a password: a second broker that wants both ----
TLSPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(
	cd "$TMP" &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=irjack-test-ca &&
	openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost &&
	printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >san.ext &&
	openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem \
		-days 2 -extfile san.ext
) >"$TMP/openssl.log" 2>&1 || fail "openssl could not make test certificates: $(tail -3 "$TMP/openssl.log")"
mosquitto_passwd -b -c "$TMP/passwd" irjack s3cret 2>/dev/null || fail "mosquitto_passwd"
cat >"$TMP/tls-broker.conf" <<CONF
listener $TLSPORT 127.0.0.1
cafile $TMP/ca.pem
certfile $TMP/server.pem
keyfile $TMP/server.key
allow_anonymous false
password_file $TMP/passwd
user $(id -un)
CONF
"$MOSQUITTO" -c "$TMP/tls-broker.conf" >"$TMP/tls-broker.log" 2>&1 &
tls_broker=$!
TLSSUB="mosquitto_sub -h 127.0.0.1 -p $TLSPORT --cafile $TMP/ca.pem -u irjack -P s3cret"
eventually $TLSSUB -t probe -W 1 -C 1 -E >/dev/null 2>&1 || fail "the TLS broker did not start: $(cat "$TMP/tls-broker.log")"
printf 's3cret\n' >"$TMP/pw"
tls_conf() {
	cat <<CONF
[output mqtt]
host = 127.0.0.1
port = $TLSPORT
topic_prefix = irjack/tls
tls = yes
cafile = $TMP/ca.pem
username = irjack
$1
[transmitter out]
type = file
device = $TMP/sent-tls.mode2
CONF
}
tls_conf "password_file = $TMP/pw" >"$TMP/tls.conf"
: >"$TMP/daemon.err"
start_daemon "$TMP/tls.conf"
eventually retained_is irjack/tls/status online "$TLSSUB" ||
	fail "no 'online' over TLS with a password: $(cat "$TMP/daemon.err")"
mosquitto_pub -h 127.0.0.1 -p $TLSPORT --cafile "$TMP/ca.pem" -u irjack -P s3cret -q 1 \
	-t irjack/tls/send -m 'rc5:0x1e01'
tls_sent() { "$IRJACK" decode "$TMP/sent-tls.mode2" 2>&1 | grep -q 'rc5 *0x1e01'; }
eventually tls_sent ||
	fail "request over TLS not transmitted: $(cat "$TMP/daemon.err")"
stop_daemon
# a wrong password: refused by the broker, retried, and a clean stop meanwhile
tls_conf "password = wrong" >"$TMP/tls-bad.conf"
: >"$TMP/daemon.err"
start_daemon "$TMP/tls-bad.conf"
wait_for "$TMP/daemon.err" "refused the connection"
grep -q "refused the connection: Connection Refused: not authorised" "$TMP/daemon.err" ||
	fail "a refused password is not reported: $(cat "$TMP/daemon.err")"
t0=$(now)
stop_daemon
python3 -c "import sys; sys.exit(0 if $(now) - $t0 < 3 else 1)" || fail "SIGTERM while retrying took 3 s or more"
kill $tls_broker
wait $tls_broker 2>/dev/null

if [ "$failures" -gt 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "mqtt tests passed"
