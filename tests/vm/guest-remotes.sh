#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside the VM (tests/vm/run): irjackd's [output uinput] per_remote = yes
# on a real kernel.  rc-loopback's /dev/lircN is the source; `ir-ctl -S`
# sends NEC 0x0408 (remote "tv", KEY_B) and RC-5 0x1e01 (remote "amp",
# KEY_D):
#   1. two input devices appear, "irjack-vm tv" and "irjack-vm amp", each
#      declaring only its remote's keys, with vendor 0x1209 and the product
#      id folded from FNV-1a of the remote's name (computed here in Python);
#   2. each remote's key arrives on its own device only (read back through
#      evdev by tests/vm/evdev_probe);
#   3. SIGHUP with amp gone and a new remote "dvd": amp's device goes, dvd's
#      comes, tv's stays the same device (same input number).
# Usage (in the guest): guest-remotes.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
IRJACKD=$BUILD/irjackd
PROBE=$BUILD/tests/evdev_probe
T=$(mktemp -d)
NAME=irjack-vm
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for tool in ir-ctl python3; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing"; exit 1; }
done
LIRC=/dev/$(basename "$(ls -d /sys/class/rc/rc*/lirc* 2>/dev/null | head -1)")
[ -c "$LIRC" ] || { echo "FAIL: no LIRC device (rc-loopback not loaded?)"; exit 1; }
RC=$(basename "$(dirname "$(ls -d /sys/class/rc/rc*/lirc* | head -1)")")
echo none >/sys/class/rc/"$RC"/protocols
ir-ctl -d "$LIRC" -t 125000 >/dev/null 2>&1

mkdir "$T/keymaps"
keymap() { # FILE REMOTE PROTOCOL SCANCODE KEY
	printf '[[protocols]]\nname = "%s"\nprotocol = "%s"\n[protocols.scancodes]\n%s = "%s"\n' \
		"$2" "$3" "$4" "$5" >"$T/keymaps/$1.toml"
}
keymap tv tv nec 0x0408 KEY_B
keymap amp amp rc5 0x1e01 KEY_D
cat >"$T/irjackd.conf" <<CONF
[daemon]
keymap = $T/keymaps

[source ir]
type = lirc
device = $LIRC

[output uinput]
name = $NAME
per_remote = yes
CONF
"$IRJACKD" --check-config --config "$T/irjackd.conf" | grep -q "one device per remote" ||
	fail "--check-config does not show per_remote"

# The input devices called "$NAME *": "name vendor product input keys..."
devices() {
	python3 - "$NAME" <<'PY'
import glob, os, sys
for d in sorted(glob.glob("/sys/class/input/input*")):
    name = open(d + "/name").read().strip()
    if not name.startswith(sys.argv[1] + " "):
        continue
    rd = lambda f: open(d + "/" + f).read().strip()
    words = rd("capabilities/key").split()
    keys = []
    for i, w in enumerate(reversed(words)):   # sysfs: the highest word first
        v = int(w, 16)
        keys += [64 * i + b for b in range(64) if v >> b & 1]
    print(name.split(" ", 1)[1], rd("id/vendor"), rd("id/product"), os.path.basename(d),
          " ".join(map(str, keys)))
PY
}
# FNV-1a (32 bits) of a remote's name, high half XOR low half
product() {
	python3 -c '
import sys
h = 2166136261
for c in sys.argv[1].encode():
    h = ((h ^ c) * 16777619) & 0xffffffff
print("%04x" % ((h >> 16) ^ (h & 0xffff) or 1))' "$1"
}
# KEY_B 48, KEY_D 32, KEY_P 25 (linux/input-event-codes.h)
expect_device() { # REMOTE KEYS
	remote=$1 keys=$2
	line=$(devices | awk -v r="$remote" '$1 == r')
	[ -n "$line" ] || { fail "no device for remote $remote: $(devices)"; return; }
	set -- $line
	want="$remote 1209 $(product "$remote")"
	[ "$1 $2 $3" = "$want" ] || fail "device of $remote: '$1 $2:$3', expected '$want'"
	shift 4
	[ "$*" = "$keys" ] || fail "device of $remote: keys '$*', expected '$keys'"
}

"$IRJACKD" --config "$T/irjackd.conf" 2>"$T/daemon.err" &
daemon=$!
i=0
while [ "$(devices | wc -l)" -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done

echo "== 1. one device per remote"
devices | sed 's/^/  /'
expect_device tv 48
expect_device amp 32
tv_input=$(devices | awk '$1 == "tv" {print $4}')

echo "== 2. each remote's key on its own device"
"$PROBE" "$NAME tv" 600 >"$T/ev.tv" 2>"$T/ev.tv.err" &
p1=$!
"$PROBE" "$NAME amp" 600 >"$T/ev.amp" 2>"$T/ev.amp.err" &
p2=$!
i=0
while ! { grep -q ready "$T/ev.tv.err" && grep -q ready "$T/ev.amp.err"; } && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
ir-ctl -d "$LIRC" -S nec:0x0408 || fail "ir-ctl -S nec"
sleep 0.5
ir-ctl -d "$LIRC" -S rc5:0x1e01 || fail "ir-ctl -S rc5"
sleep 2
kill "$p1" "$p2" 2>/dev/null
wait "$p1" "$p2" 2>/dev/null
count() { grep -c "^$2 $3" "$T/ev.$1"; }
for spec in "tv KEY_B 1 1" "tv KEY_B 0 1" "tv KEY_D 1 0" "tv MSC_SCAN 0x408 1" \
	"amp KEY_D 1 1" "amp KEY_D 0 1" "amp KEY_B 1 0" "amp MSC_SCAN 0x1e01 1" "amp MSC_SCAN 0x408 0"; do
	set -- $spec
	got=$(count "$1" "$2" "$3")
	echo "  $1: $2 $3: $got"
	[ "$got" = "$4" ] || fail "device $1: $got '$2 $3' events, expected $4"
done

echo "== 3. SIGHUP: amp goes, dvd comes, tv stays"
rm "$T/keymaps/amp.toml"
keymap dvd dvd nec 0x0501 KEY_P
kill -HUP "$daemon"
i=0
while ! devices | grep -q "^dvd " && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
devices | sed 's/^/  /'
grep "per remote" "$T/daemon.err" | sed 's/^/  daemon: /'
expect_device dvd 25
devices | grep -q "^amp " && fail "amp's device is still there"
[ "$(devices | awk '$1 == "tv" {print $4}')" = "$tv_input" ] ||
	fail "tv's device was made anew ($tv_input before)"

kill "$daemon"
wait "$daemon" || fail "irjackd exited $? on SIGTERM: $(tail -5 "$T/daemon.err")"
[ "$(devices | wc -l)" = 0 ] || fail "devices left behind: $(devices)"
echo "per-remote VM test: $failures failure(s)"
rm -rf "$T"
[ "$failures" = 0 ]
