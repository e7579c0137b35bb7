#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cmake --install into a DESTDIR: every file a user of the service needs is
# where systemd, udev, man and bash-completion look for it under the build's
# prefix; the unit runs the installed irjackd on the installed
# configuration; that configuration loads; an edited irjackd.conf survives
# a second install; sysusers.d creates the irjack user and group (applied
# to an empty root with systemd-sysusers --root); the unit's exposure
# (systemd-analyze security) stays at most 4.0.
# Usage: test_install.sh BUILD_DIR
set -u
BUILD=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
case $prefix in /usr) etc=/etc ;; *) etc=$prefix/etc ;; esac
D=$TMP/root
DESTDIR=$D cmake --install "$BUILD" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; exit 1; }

for f in bin/irjack bin/irjackd lib/systemd/system/irjackd.service lib/systemd/system/irjackd.socket \
	lib/sysusers.d/irjack.conf \
	lib/tmpfiles.d/irjack.conf lib/udev/rules.d/60-irjack.rules \
	share/bash-completion/completions/irjack share/man/man1/irjack.1 share/man/man8/irjackd.8 \
	share/man/man5/irjackd.conf.5 share/doc/irjack/README.md share/doc/irjack/wiring.md share/doc/irjack/wiring/photodiode.svg \
	share/doc/irjack/examples/irjackd.conf; do
	[ -e "$D$prefix/$f" ] || fail "not installed: $prefix/$f"
done
[ -x "$D$prefix/bin/irjackd" ] || fail "irjackd is not executable"
for f in irjackd.conf keymaps/imon_pad.toml; do
	[ -f "$D$etc/irjack/$f" ] || fail "not installed: $etc/irjack/$f"
done

# The unit names the installed program and configuration, not a fixed /usr.
unit=$D$prefix/lib/systemd/system/irjackd.service
grep -qx "ExecStart=$prefix/bin/irjackd --config $etc/irjack/irjackd.conf" "$unit" ||
	fail "ExecStart: $(grep ExecStart= "$unit")"
grep -q '@[A-Z_]*@' "$unit" && fail "unsubstituted @VAR@ in the unit"
grep -qx "keymap = $etc/irjack/keymaps" "$D$etc/irjack/irjackd.conf" ||
	fail "the installed configuration's keymap folder: $(grep '^keymap' "$D$etc/irjack/irjackd.conf")"

# The installed configuration loads (its folder moved under DESTDIR).
sed "s|^keymap = .*|keymap = $D$etc/irjack/keymaps|" "$D$etc/irjack/irjackd.conf" >"$TMP/check.conf"
"$D$prefix/bin/irjackd" --check-config --config "$TMP/check.conf" >"$TMP/check.out" 2>&1 ||
	fail "irjackd --check-config on the installed configuration: $(cat "$TMP/check.out")"

# A second install keeps an edited configuration.
echo "# edited by the user" >>"$D$etc/irjack/irjackd.conf"
DESTDIR=$D cmake --install "$BUILD" >"$TMP/install2.log" 2>&1 || fail "second install"
tail -1 "$D$etc/irjack/irjackd.conf" | grep -q "edited by the user" ||
	fail "a second install overwrote the edited irjackd.conf"

# sysusers.d: the user and group, in audio and input (an empty root with
# those two groups, as Debian's base-passwd and udev make them).
S=$TMP/sysroot
mkdir -p "$S/etc"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$S/etc/passwd"
printf 'root:x:0:\naudio:x:29:\ninput:x:101:\n' >"$S/etc/group"
systemd-sysusers --root="$S" "$D$prefix/lib/sysusers.d/irjack.conf" >"$TMP/sysusers.out" 2>&1 ||
	fail "systemd-sysusers: $(cat "$TMP/sysusers.out")"
grep -q '^irjack:x:[0-9]*:[0-9]*:.*:/usr/sbin/nologin$' "$S/etc/passwd" ||
	fail "no irjack user: $(cat "$S/etc/passwd")"
grep -q '^irjack:x:' "$S/etc/group" || fail "no irjack group"
grep -q '^audio:x:29:irjack$' "$S/etc/group" || fail "irjack not in audio: $(cat "$S/etc/group")"
grep -q '^input:x:101:irjack$' "$S/etc/group" || fail "irjack not in input"

# Hardening: the overall exposure, as systemd rates it, at most 4.0.
systemd-analyze security --offline=yes --threshold=40 "$unit" >"$TMP/security.out" 2>&1 ||
	fail "systemd-analyze security: $(tail -1 "$TMP/security.out")"
tail -1 "$TMP/security.out"

# The rules name only the group sysusers.d creates.
if grep -o 'GROUP="[^"]*"' "$D$prefix/lib/udev/rules.d/60-irjack.rules" | grep -qv 'GROUP="irjack"'; then
	fail "the udev rules name a group other than irjack"
fi

[ "$failures" = 0 ] && echo "install: all checks passed"
[ "$failures" = 0 ]
