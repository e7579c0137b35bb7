/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_limit.h - the demodulator against its physical limit, printed:
 *
 *   bench_audio limit       receiver module on a mic input (random polarity,
 *                           hum), per protocol × AC coupling × SNR × rate
 *   bench_audio photodiode  a bare photodiode: its carrier through the
 *                           codec's decimation filter at 44.1/48 kHz, and
 *                           sampled at 96/192 kHz
 *
 * Each point is irjack's frame success beside the genie-aided bound on the
 * very same samples (audio_harness.h, audio_result.genie_matched); then the
 * SNR where each reaches 95 % and 99.5 % and the gap in dB, a summary per
 * SNR × rate, and with --markdown the summary as README table rows.
 */
#ifndef IRJACK_BENCH_LIMIT_H
#define IRJACK_BENCH_LIMIT_H

#include <stdbool.h>

/* argv[1] is the command; options follow (see the usage text).  Returns the
 * exit status. */
int bench_limit_main(int argc, char **argv, bool photodiode);

#endif
