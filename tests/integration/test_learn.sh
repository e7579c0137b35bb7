#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjack learn: a made-up pulse-distance protocol (timings and 20 dB audio),
# a 112-bit air-conditioner-style frame (raw), real NEC audio, the Hitachi
# 264-bit capture; a press that does not decode, a protocol rc-core has no
# name for, a file that would misname presses (not written); every file
# written loads.  Prints how many presses re-decode.
# Usage: test_learn.sh IRJACK_BINARY SOURCE_DIR
set -u
IRJACK=$1
SRC=$2
command -v python3 >/dev/null || exit 77
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

python3 - "$TMP" <<'PY'
import random, sys
d = sys.argv[1]
random.seed(1)
def pd(code, bits=24):
    out = [3000, 1500]
    for i in range(bits - 1, -1, -1):
        out += [400, 1200 if code >> i & 1 else 400]
    return out + [400]
def write(name, frames):
    with open(d + "/" + name, "w") as f:
        f.write("space 100000\n")
        for fr in frames:
            for i, t in enumerate(fr):
                f.write(("pulse %d\n" if i % 2 == 0 else "space %d\n") % t)
            f.write("space 200000\n")
codes = [0xa1b2c3, 0x123456, 0xf0f00f]
write("pd.mode2", [pd(c) for c in codes for _ in range(3)])
write("pd-fresh.mode2", [pd(c) for c in reversed(codes)])
bits = [random.getrandbits(1) for _ in range(112)]
ac = [3400, 1700]
for b in bits:
    ac += [430, 1290 if b else 430]
write("ac112.mode2", [ac + [430], ac + [430]])
# made-up bi-phase: header 2400/800, unit 500, 20 bits, first bit 0
def bp(code, bits=20, unit=500):
    runs = []
    for i in range(bits - 1, -1, -1):
        for h in ([0, 1] if code >> i & 1 else [1, 0]):
            if runs and runs[-1][0] == h:
                runs[-1][1] += unit
            else:
                runs.append([h, unit])
    if runs[-1][0] == 0:
        runs.pop()
    return [2400, 800] + [r[1] for r in runs]
write("bp.mode2", [bp(c) for c in [0x5a5a5, 0x31234, 0x7f00f] for _ in range(3)])
# NEC (address 0x04): the first press of KEY_B is light no protocol reads
def nec(cmd, addr=4):
    out = [9000, 4500]
    for byte in (addr, addr ^ 0xff, cmd, cmd ^ 0xff):
        for i in range(8):
            out += [560, 1690 if byte >> i & 1 else 560]
    return out + [560]
glitch = [3000, 700, 300, 900, 1200, 400, 300]
write("glitch.mode2", [nec(8), nec(8), glitch, nec(9), nec(10), nec(10)])
write("dup.mode2", [nec(8)] * 4)
# guided learning of 5 keys, as pressed live: KEY_1's second press is
# another button (0x09), so it is asked for again; then a second recording
write("live.mode2", [nec(c) for c in (1, 1, 2, 9, 2, 2, 3, 3, 4, 4, 5, 5)])
write("second.mode2", [nec(c) for c in (5, 4, 3, 2, 1)])
write("bp-fresh.mode2", [bp(c) for c in [0x7f00f, 0x5a5a5]])
PY

# made-up pulse-distance protocol from timings: exact parameters
"$IRJACK" learn -i "$TMP/pd.mode2" -k KEY_A,KEY_B,KEY_C -o "$TMP/pd.toml" || fail "learn pd.mode2"
for l in 'protocol = "pulse_distance"' 'header_pulse = 3000' 'header_space = 1500' \
	 'bit_pulse = 400' 'bit_0_space = 400' 'bit_1_space = 1200' 'bits = 24' \
	 '0xa1b2c3 = "KEY_A"' '0x123456 = "KEY_B"' '0xf0f00f = "KEY_C"'; do
	grep -qx "$l" "$TMP/pd.toml" || fail "pd.toml lacks '$l'"
done
# the same through the audio path at 20 dB SNR, then fresh presses
"$IRJACK" synth --timings "$TMP/pd.mode2" --snr-db 20 --seed 3 -o "$TMP/pd.wav" || fail synth
"$IRJACK" learn -i "$TMP/pd.wav" -k KEY_A,KEY_B,KEY_C -o "$TMP/pdw.toml" >"$TMP/out" ||
	fail "learn pd.wav: $(cat "$TMP/out")"
cat "$TMP/out"
grep -q "9/9 presses re-decode (pulse_distance" "$TMP/out" || fail "pd.wav: 9/9"
grep -qx '0x123456 = "KEY_B"' "$TMP/pdw.toml" || fail "pdw.toml KEY_B"
"$IRJACK" synth --timings "$TMP/pd-fresh.mode2" --snr-db 20 --seed 9 -o "$TMP/fresh.wav" || fail synth
"$IRJACK" learn -i "$TMP/fresh.wav" -k KEY_C,KEY_B,KEY_A -o "$TMP/fresh.toml" >/dev/null || fail fresh
for k in A B C; do
	grep "KEY_$k" "$TMP/pdw.toml" | cmp -s - "$(grep "KEY_$k" "$TMP/fresh.toml" >"$TMP/k"; echo "$TMP/k")" ||
		fail "fresh capture of KEY_$k decodes to another scancode"
done

# made-up bi-phase through 20 dB audio; fresh presses decode the same
"$IRJACK" synth --timings "$TMP/bp.mode2" --snr-db 20 --seed 5 -o "$TMP/bp.wav" || fail synth
"$IRJACK" learn -i "$TMP/bp.wav" -k KEY_A,KEY_B,KEY_C -o "$TMP/bp.toml" >"$TMP/out" || fail "learn bp.wav"
cat "$TMP/out"
grep -q "9/9 presses re-decode (manchester" "$TMP/out" || fail "bp.wav: 9/9 manchester"
for l in 'protocol = "manchester"' 'header_pulse = 24[0-9][0-9]' 'one_pulse = [45][0-9][0-9]' \
	 'bits = 20' '0x5a5a5 = "KEY_A"' '0x31234 = "KEY_B"' '0x7f00f = "KEY_C"'; do
	grep -qx "$l" "$TMP/bp.toml" || fail "bp.toml lacks '$l'"
done
"$IRJACK" synth --timings "$TMP/bp-fresh.mode2" --snr-db 20 --seed 11 -o "$TMP/bpf.wav" || fail synth
"$IRJACK" learn -i "$TMP/bpf.wav" -k KEY_C,KEY_A -o "$TMP/bpf.toml" >/dev/null || fail "bp fresh"
grep -qx '0x7f00f = "KEY_C"' "$TMP/bpf.toml" && grep -qx '0x5a5a5 = "KEY_A"' "$TMP/bpf.toml" ||
	fail "fresh bi-phase presses decode to other scancodes"

# 112 bits: stored raw, both presses match
"$IRJACK" learn -i "$TMP/ac112.mode2" -n 2 -o "$TMP/ac.toml" >"$TMP/out" || fail "learn ac112"
cat "$TMP/out"
grep -q "2/2 presses re-decode (raw" "$TMP/out" || fail "ac112: 2/2 raw"
[ "$(grep -o '+430' "$TMP/ac.toml" | wc -l)" = 113 ] || fail "ac112: 112 bits + trailer"

# real audio: NEC sample, corpus NEC, Hitachi 264-bit air conditioner
"$IRJACK" learn -i "$SRC/samples/nec-mic-jack-44k.wav" -o "$TMP/nec.toml" >"$TMP/out" || fail "learn nec wav"
cat "$TMP/out"
grep -qx 'protocol = "nec"' "$TMP/nec.toml" || fail "nec sample learns as nec"
grep -qx '0x4fb = "KEY_1"' "$TMP/nec.toml" || fail "nec sample KEY_1 0x4fb"
C=/work/shared/corpus/wav
if [ -d "$C" ]; then
	# every labelled built-in protocol is learned as itself
	for w in ledrem-mivar-000 ledrem-mivar-004 xiaolaba-EVPAD_10S_VOL+ xiaolaba-TCL_MUTE_WAVE_L+; do
		want=$(awk -F'\t' -v f="$w.wav" '$1 == f && $7 == "no" {print $5; exit}' "$C/labels.tsv")
		"$IRJACK" learn -i "$C/$w.wav" -o "$TMP/c.toml" >"$TMP/out" || fail "learn $w"
		cat "$TMP/out"
		grep -qx "protocol = \"$want\"" "$TMP/c.toml" || fail "$w: not learned as '$want'"
	done
	"$IRJACK" learn -i "$C/xiaolaba-Haier_HNS2013.wav" -o "$TMP/haier.toml" >"$TMP/out" || fail haier
	cat "$TMP/out"
	# labels: nec 0x1 0x0 0x4 0x8 0xd 0x9 (one press each, with repeats;
	# the recording has a 60 ms light glitch between two presses)
	grep -q "6/6 presses re-decode (nec" "$TMP/out" || fail "haier: 6/6 nec"
	grep -qx '0x4 = "KEY_3"' "$TMP/haier.toml" || fail "haier KEY_3 = nec 0x4"
	"$IRJACK" learn -i "$C/xiaolaba-Hitachi_aircon_RAR2A11_on_off.wav" -o "$TMP/hit.toml" >"$TMP/out" ||
		fail hitachi
	cat "$TMP/out"
	grep -q "2/2 presses re-decode" "$TMP/out" || fail "hitachi: 2/2"
	# 264 bits: header pulse/space, 264 × (pulse space), trailer = 531 durations
	n=$(sed -n '/KEY_1/{n;p;}' "$TMP/hit.toml" | tr ' ' '\n' | grep -c '[+-][0-9]')
	[ "$n" = 531 ] || fail "hitachi KEY_1 has $n durations, expected 531"
	# the file (raw keys of 531 durations) loads and names both presses
	"$IRJACK" decode --keymap "$TMP/hit.toml" "$C/xiaolaba-Hitachi_aircon_RAR2A11_on_off.wav" >"$TMP/out" ||
		fail "decode hitachi keymap"
	grep -q "KEY_1 (hit)" "$TMP/out" && grep -q "KEY_2 (hit)" "$TMP/out" ||
		fail "hitachi keymap names the presses: $(cat "$TMP/out")"
fi

# the first press of a key does not decode: learned from its other press,
# the file written (it names every key), exit 1 for the press it does not
"$IRJACK" learn -i "$TMP/glitch.mode2" -k KEY_A,KEY_B,KEY_C -o "$TMP/glitch.toml" >"$TMP/out" 2>&1
[ $? = 1 ] || fail "glitch: exit 1 expected"
grep -q "5/6 presses re-decode (nec" "$TMP/out" || fail "glitch: 5/6 nec: $(cat "$TMP/out")"
grep -q "press 3 (KEY_B): no frame decodes" "$TMP/out" || fail "glitch: the press is named"
grep -qx '0x409 = "KEY_B"' "$TMP/glitch.toml" || fail "glitch: KEY_B learned from its 2nd press"
grep -qx 'name = "glitch"' "$TMP/glitch.toml" || fail "glitch: remote named after the file"

# a protocol rc-core has no name for (nubert): its own name, and the file
# loads and names the presses; --name names the remote
for c in 0x12 0x12 0x34 0x34; do "$IRJACK" encode "nubert:$c"; echo "space 300000"; done >"$TMP/nub.mode2"
"$IRJACK" learn -i "$TMP/nub.mode2" -k KEY_POWER,KEY_UP --name "fan remote" -o "$TMP/fan.toml" \
	>"$TMP/out" 2>&1 || fail "learn nubert: $(cat "$TMP/out")"
grep -qx 'protocol = "nubert"' "$TMP/fan.toml" || fail "nubert: protocol name"
grep -qx 'name = "fan remote"' "$TMP/fan.toml" || fail "nubert: --name"
"$IRJACK" decode --keymap "$TMP/fan.toml" "$TMP/nub.mode2" >"$TMP/out" || fail "decode nubert keymap"
[ "$(grep -c 'KEY_POWER (fan remote)' "$TMP/out")" = 2 ] && [ "$(grep -c 'KEY_UP (fan remote)' "$TMP/out")" = 2 ] ||
	fail "nubert keymap names the presses: $(cat "$TMP/out")"

# two keys with one code: the file would misname presses, so none is written
"$IRJACK" learn -i "$TMP/dup.mode2" -k KEY_A,KEY_B -o "$TMP/dup.toml" >/dev/null 2>"$TMP/err"
[ $? = 1 ] || fail "dup: exit 1 expected"
grep -q "not written: press 1 (KEY_A) reads as KEY_B" "$TMP/err" || fail "dup: reason: $(cat "$TMP/err")"
[ ! -e "$TMP/dup.toml" ] || fail "dup: a file that misnames presses was written"

# guided live learning (irrecord's way) from a file source, timings and
# 20 dB audio: each key asked for, a press that disagrees asked again; the
# file names the keys of a second recording
"$IRJACK" synth --timings "$TMP/live.mode2" --snr-db 20 --seed 4 -o "$TMP/live.wav" || fail synth
"$IRJACK" synth --timings "$TMP/second.mode2" --snr-db 20 --seed 7 -o "$TMP/second.wav" || fail synth
for src in live.mode2 live.wav; do
	"$IRJACK" learn -d "file:$TMP/$src" -k KEY_POWER,KEY_1,KEY_2,KEY_3,KEY_4 -o "$TMP/live.toml" \
		>"$TMP/out" 2>"$TMP/err" || fail "learn -d $src: $(cat "$TMP/err")"
	grep -q "10/10 presses re-decode (nec, 5 keys)" "$TMP/out" || fail "live $src: 10/10"
	grep -q "KEY_1: heard nec 0x409, but first nec 0x402; press KEY_1 again" "$TMP/err" ||
		fail "live $src: the disagreeing press is reported"
	grep -q "learn: press KEY_4" "$TMP/err" || fail "live $src: asks for KEY_4"
	"$IRJACK" decode --keymap "$TMP/live.toml" "$TMP/second.${src#live.}" >"$TMP/out" || fail "decode second"
	n=0
	for k in KEY_POWER KEY_1 KEY_2 KEY_3 KEY_4; do
		grep -q " $k (live)" "$TMP/out" && n=$((n + 1))
	done
	[ "$n" = 5 ] || fail "live $src: a second recording names $n/5 keys: $(cat "$TMP/out")"
done
# a source that ends first (five buttons, no two alike): nothing written, exit 1
"$IRJACK" learn -d "file:$TMP/second.mode2" -k KEY_A,KEY_B,KEY_C -o "$TMP/short.toml" 2>"$TMP/err" >/dev/null
[ $? = 1 ] && grep -q "ended before KEY_A was learned" "$TMP/err" && [ ! -e "$TMP/short.toml" ] ||
	fail "live: a source that ends before the last key: $(cat "$TMP/err")"

# every file learn wrote loads as decode --keymap and irjackd load it
for t in "$TMP"/*.toml; do
	"$IRJACK" keymap check "$t" >/dev/null 2>&1 || fail "keymap check $(basename "$t")"
done
[ -z "$(find "$TMP" -name '*.toml.*')" ] || fail "a temporary file is left beside a keymap"

expect_help() { "$IRJACK" learn --help | grep -q "Usage: irjack learn" || fail "learn --help"; }
expect_help
"$IRJACK" learn -i "$TMP/pd.mode2" -k KEY_A,KEY_B -o "$TMP/x.toml" 2>/dev/null
[ $? = 2 ] || fail "9 presses for 2 keys must be a usage error"

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "test_learn: all passed"
