#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# irjack plot: well-formed SVG (python3's XML parser) with the decoded
# frames' labels, for the audio samples and a mode2 file; window options.
# Usage: test_plot.sh IRJACK_BINARY SOURCE_DIR
set -u
IRJACK=$1
SRC=$2
command -v python3 >/dev/null || exit 77
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# check SVG LABEL... : parses, has a waveform/pulses, every LABEL is a frame label
check() {
	svg=$1; shift
	python3 - "$svg" "$@" <<'PY' || fail "$svg: $(cat "$TMP/py" 2>/dev/null)"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
labels = [t.text for t in root.iter(ns + "text") if t.get("class") == "label"]
pulses = [r for r in root.iter(ns + "rect") if r.get("class") == "pulse"]
ticks = [t for t in root.iter(ns + "text") if t.get("class") == "tick"]
assert len(pulses) > 10, "only %d pulses" % len(pulses)
assert len(ticks) >= 3, "only %d ticks" % len(ticks)
for want in sys.argv[2:]:
    assert want in labels, "%s not in %s" % (want, labels)
print(sys.argv[1], len(labels), "frames,", len(pulses), "pulses")
PY
}

"$IRJACK" plot "$SRC/samples/nec-mic-jack-44k.wav" -o "$TMP/nec.svg" || fail "plot nec wav"
check "$TMP/nec.svg" nec:0x4fb "nec:0x4fb repeat" nec:0x408 nec:0x402
grep -q 'class="wave"' "$TMP/nec.svg" || fail "nec.svg has no waveform"
"$IRJACK" plot "$SRC/samples/rc5-photodiode-192k.wav" -w 800 -o "$TMP/rc5.svg" || fail "plot rc5"
python3 -c "import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); sys.exit(0 if any((t.text or '').startswith('rc5') for t in r.iter('{http://www.w3.org/2000/svg}text')) else 1)" "$TMP/rc5.svg" || fail "rc5.svg has no rc5 label"
"$IRJACK" plot "$SRC/samples/nec-remote-irmp.mode2" -o "$TMP/m.svg" || fail "plot mode2"
check "$TMP/m.svg" nec:0x7 "nec:0x7 repeat" nec:0x6
! grep -q 'class="wave"' "$TMP/m.svg" || fail "timings have no waveform"
# a window: only the first frame
"$IRJACK" plot "$SRC/samples/nec-remote-irmp.mode2" --from 0 --to 0.08 -o "$TMP/w.svg" || fail window
check "$TMP/w.svg" nec:0x7
grep -q 'nec:0x6' "$TMP/w.svg" && fail "window shows a frame outside it"
# long audio stays small: size is O(width)
[ "$(wc -c < "$TMP/nec.svg")" -lt 200000 ] || fail "nec.svg too big"
"$IRJACK" plot --help | grep -q "Usage: irjack plot" || fail "plot --help"
"$IRJACK" plot "$SRC/samples/nec-remote-irmp.mode2" --from 2 --to 1 -o "$TMP/x.svg" 2>/dev/null
[ $? = 2 ] || fail "--to before --from must be a usage error"

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "test_plot: all passed"
