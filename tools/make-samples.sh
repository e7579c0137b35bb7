#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates the synthetic recordings in samples/ with irjack's own channel
# model (the same seed gives the same bytes).  The IRMP-derived mode2 sample
# is a conversion of a real capture and is not regenerated here.
# Usage: tools/make-samples.sh [path/to/irjack]
set -eu
cd "$(dirname "$0")/.."
IRJACK=${1:-build/irjack}

# A receiver module on a laptop's mic jack: wired active-high, 4 ms AC
# coupling, clipped by too much gain, mains hum, 20 dB of noise, pulses
# stretched by 80 µs and jittered as real modules do.  Three presses of a
# NEC remote (the second held: two repeat codes), at 44.1 kHz.
"$IRJACK" synth nec:0x04fb nec:0x0408 nec:0x0402 --repeats 1 --gap-ms 250 \
	--rate 44100 --ac-tau-ms 4 --clip 2.5 --hum 50:0.15 --snr-db 20 --invert \
	--stretch 80 --jitter 25 --seed 2026 -o samples/nec-mic-jack-44k.wav

# A bare photodiode at 192 kHz: the 36 kHz RC-5 carrier itself.
"$IRJACK" synth rc5:0x1e01 rc5:0x1e02 --frontend photodiode --rate 192000 \
	--ac-tau-ms 10 --snr-db 25 --gap-ms 150 --seed 7 -o samples/rc5-photodiode-192k.wav
