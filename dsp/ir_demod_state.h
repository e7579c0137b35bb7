/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * demod_shared.h - what the demodulator's files share (not a public
 * header: only dsp/ir_demod*.c include it).
 *
 * The demodulator (ir_demod.h) is one state machine over one struct, in
 * files by concern:
 *
 *   ir_demod.c        the public API, the stream's warm-up (priming) and
 *                     the loops that hand each sample to the idle path or
 *                     to the full path;
 *   ir_demod_idle.c   the idle path: a dark line's samples, cheaply, until
 *                     one departs, and the triggers' levels that follow
 *                     the noise measured there;
 *   ir_demod_line.c   the full path: the wide band's edges (candidates,
 *                     confirmation, the level tracker, the noise floor),
 *                     the line's timers, and the sequence detector's
 *                     decisions put on the line;
 *   ir_demod_band.c   which band filter the line is decided on, and what
 *                     follows from its width;
 *   ir_demod_decay.c  the AC coupling's decay rate, measured per state;
 *   ir_demod_edges.c  what the line reports: edges held at the stream's
 *                     start and for a provisional first pulse, then told;
 *   ir_demod_weak.c   the weak-signal trigger, a weak frame's first pulse
 *                     and its hand-over to the sequence detector
 *                     (ir_seqdet.h).
 *
 * No file calls one that calls it back (tools/check-layers refuses a
 * cycle between files): ir_demod.c uses the rest; line uses weak, idle,
 * edges, band and decay; weak uses idle, edges and band; edges uses band.
 * Where a lower file's step must be followed by a higher one's, it says
 * so to its caller (demod_weak_step()'s DEMOD_WEAK_TIMERS).
 *
 * Each file's functions for the others are in its own header
 * (ir_demod_line.h, ...); every one takes the demodulator it works on, and
 * none allocates.  Helpers the hot path calls per sample are inline there,
 * so that they stay inline in the file that calls them.
 */
#ifndef IRJACK_IR_DEMOD_STATE_H
#define IRJACK_IR_DEMOD_STATE_H

#include "ir_demod.h"
#include "ir_fastlog.h"
#include "ir_lookback.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

struct ir_carrier;
struct ir_envelope;
struct ir_seqdet;

/* rc-core's default: how long the line must stay dark before decoders are
 * told the frame is over. */
#define DEFAULT_TIMEOUT_US 125000u
/* No IR protocol has a pulse this long (NEC's 9 ms leader is the longest in
 * common use): a "pulse" that lasts longer is a polarity mistake or a
 * disturbance, and the line is taken as idle again. */
#define MAX_PULSE_US 60000.0
/* An edge must stand out from the noise floor by this many standard
 * deviations: ~1e-9 false alarms per sample for Gaussian noise. */
#define NOISE_FACTOR 6.0
/* ...and be at least this fraction of the step height of earlier edges
 * (hysteresis against ripple, hum and droop residue). */
#define STEP_FRACTION 0.4
/* Absolute floor of the threshold, full scale = 1: 6.5 LSB of 16-bit audio. */
#define THRESHOLD_FLOOR 2e-4
/* A departure must persist this long (and for two samples) to be an edge:
 * glitch rejection. */
#define CONFIRM_US 30.0
/* The first edge after idle must persist longer (see the candidate code). */
#define CONFIRM_IDLE_US 120.0
/* After an edge the new level settles: the converter's anti-alias filter,
 * plus about 4 time constants of the band filter in use. */
#define SETTLE_US 40.0
#define SETTLE_BANDS 4.0
/* The level tracker (a fading-memory alpha-beta filter: level and slope)
 * follows hum and the AC coupling's droop with this time constant. */
#define TRACK_US 150.0
/* The idle path's (slower) level tracker: see demod_set_settle(). */
#define IDLE_TRACK_US 2000.0
#define TRACK_BANDS 8.0
/* Noise floor averaging time, how much of it must be seen before the first
 * edge is trusted, and how long after an edge the darkness counts as quiet
 * (NEC's longest in-frame space is 4.5 ms, but any longer space is fine:
 * edges do not occur in it). */
#define QUIET_US 2000.0
#define NOISE_US 8000.0
#define WARMUP_US 1500.0
/* The idle line's noise is sampled every IDLE_NOISE_EVERY samples, its
 * thresholds set again every IDLE_HOUSEKEEPING (see demod_idle_enter). */
#define IDLE_NOISE_EVERY 16
/* ...and averaged over at least this many of those samples, in at most
 * NOISE_MAX_US (see noise_alpha_for). */
#define NOISE_MIN_N 42.0
#define NOISE_MAX_US 24000.0
#define IDLE_HOUSEKEEPING 64
/* At the stream's start the first WARMUP_US of samples are held and the
 * noise floor is measured on them with estimators that an edge among them
 * cannot move (medians of differences), then they are processed: a
 * recording cut tight, whose first pulse starts within the warm-up (or
 * that starts inside it), keeps that pulse.  The band's noise is measured
 * on its differences PRIME_LAG_BANDS band time constants apart (nearly
 * uncorrelated: noise that the first difference under-reads, of a
 * band-limited source, still counts).  A slower wander is not measured
 * (the differences would read an AC coupling's droop as noise); what it
 * starts is taken back (see START_PROOF_US). */
#define PRIME_LAG_BANDS 4.0
#define PRIME_START_US 100.0
#define PRIME_DRIFT_SIGMAS 6.0
#define PRIME_DRIFT_STEP 4.0
/* A recording may start inside a pulse: its first edge is then the end of
 * that pulse, not the start of one, and nothing before it tells which.
 * What follows does: no protocol has a pulse near START_PROOF_US (NEC's
 * 9 ms leader is the longest), so a state that lasts that long is
 * darkness.  Edges whose first came before START_PROOF_US into the stream
 * are held (up to START_HOLD_MAX of them) until a state lasts that long;
 * if it is a "pulse" and at least START_MIN_EDGES edges came (a frame, not
 * a lone step of a DC jump, which the provisional first pulse takes care
 * of), every held pulse was a space and every space a pulse: the stream
 * started lit.  Only the first frame of a stream waits for this. */
#define START_PROOF_US 12000.0
#define START_HOLD_MAX 512
#define START_MIN_EDGES 4
/* Baseline (idle level) averaging time, during idle only. */
#define BASELINE_US 20000.0
/* Band-limiting filter: two one-pole sections of BAND_FAST_US each; 20 µs
 * puts each corner at 8 kHz, 22 dB below a 38 kHz carrier for the pair,
 * while a 167 µs RC-MM pulse still reaches full height.  When the noise is
 * too high for that band, detection runs on a narrower one: two more
 * sections of BAND_MID_US (noise power about 0.4 of the 48 kHz band; RC-6's
 * 444 µs units keep their shape), or, when even that is too noisy, of
 * BAND_SLOW_US (1/20; units of 400 µs and more still reach 94 % of their
 * height, but their edges blur: RC-6 suffers, NEC's 560 µs units do not).
 * The band is chosen while the line is idle: edges must stand out by
 * NOISE_FACTOR σ and stay under STEP_FRACTION of the step, so the widest
 * band with step ≥ BAND_SNR_MIN σ(band) is used (the slowest otherwise). */
#define BAND_FAST_US 20.0
#define BAND_MID_US 40.0
#define BAND_SLOW_US 100.0
#define BAND_SNR_MIN (NOISE_FACTOR / STEP_FRACTION)
/* The slow band halves a 167 µs RC-MM pulse: it is taken only when the
 * mid band cannot hold a step at all, i.e. when its noise threshold
 * (NOISE_FACTOR σ) would pass the step's middle; between that and
 * BAND_SNR_MIN the mid band's edges cross up to half way, still on the
 * right side of the middle. */
#define BAND_MID_SNR_MIN (2 * NOISE_FACTOR)

/* Edges are fast, droop is slow: an edge must move the signal by at least
 * FAST_FRACTION of the threshold relative to where it was RECENT_BANDS band
 * time constants before (a one-pole memory).  A 0.5 ms coupling droops
 * 12 % of the step in 60 µs; an edge moves 100 %. */
#define RECENT_BANDS 3.0
#define FAST_FRACTION 0.5
/* The fastest AC coupling a young state's droop is bounded by (see
 * demod_cand_young in ir_demod_line.c): half the shortest a sound card
 * has (~1 ms). */
#define YOUNG_TAU_MIN_US 500.0

/* AC coupling: after an edge the level decays towards the idle baseline b,
 * y - b = (y0 - b)(1 - k)^n.  Within each state k is measured from two
 * block means of the signal (DECAY_BLOCK_US long, at least 2 samples): the
 * first one clear of the noise after the edge settles, and the latest; once
 * they are DECAY_MIN_BLOCKS blocks apart, k = ln(u1/u2) / gap is used for
 * the rest of the state (so even the strongly drooping first pulse after
 * start is followed) and, at the next edge, folded into the estimate from
 * earlier states that new states start from. */
#define DECAY_BLOCK_US 60.0
#define DECAY_MIN_BLOCKS 3
#define DECAY_STATE_WEIGHT 0.3
#define DECAY_TAU_MIN_US 100.0
/* How much less each state's knowledge of the rate counts at the next
 * state, and what is known before any: a rate within one of
 * DECAY_TAU_MIN_US (nothing). */
#define DECAY_FORGET 1.2
#define DECAY_GAP_MAX_US 3000.0
/* On the narrow bands a block of the state is taken for the decay only
 * once the state has outlasted it by DECAY_EDGE_BANDS band time constants
 * (at most DECAY_LAG_MAX blocks): the next edge moves the band 0.59 of
 * the step in that time, beyond the narrow bands' threshold (which may be
 * half the step), before it is a candidate, and a block that ended inside
 * that approach read as droop.  Taken at once, the last block of nearly
 * every mark on a DC-coupled line at 6 dB read a rate of τ 1.4-3 ms, and
 * the tracker's prediction, pulled towards the baseline just as the edge
 * came, hid it or made it late: with a receiver's 200 µs stretch (marks
 * 762 µs, where three blocks are measured) 48 kHz NEC τ DC lost 27
 * spaces in 30 frames and read 74 marks past the decoder's tolerance
 * (3 % of frames decoded; 0 and 3 with no decay at all). */
#define DECAY_EDGE_BANDS 2.0
#define DECAY_LAG_MAX 4

/* Receiver modules lengthen every mark (and shorten the space after it)
 * by tens of µs up to ~200 µs, the same for all of a frame's marks.  The
 * protocols' shortest mark and shortest space are the same unit (NEC,
 * RC-5, RC-6, Sony, JVC, Sanyo, Samsung, Kaseikyo...), or the mark is the
 * shorter (RC-MM, Sharp, XMP: read as no stretch), so half the difference
 * of an activity's shortest mark and shortest space is the stretch, once
 * STRETCH_MIN_RUNS of each were measured (runs under STRETCH_RUN_MIN_US are
 * not units of any protocol).  A pulse-width code's frame without a short
 * mark (Sony's all-ones reads 300 µs) is no stretch: beyond STRETCH_MAX_US
 * it is not taken, and the stretch told back is the smaller of the last
 * two activities' (so one such frame, or a noise run, cannot set it).  It
 * is told back (marks shortened, the space after lengthened) from the
 * next activity on, where it is at least STRETCH_MIN_US (less is within
 * every decoder's tolerance and timing noise at 10 dB: an unstretched
 * strong line stays byte-identical).  Without it a 200 µs stretch leaves
 * RC-6's 444 µs units 22 µs of the decoder's tolerance (±half a unit). */
#define STRETCH_MIN_RUNS 4
#define STRETCH_RUN_MIN_US 100.0
#define STRETCH_MIN_US 50.0
#define STRETCH_MAX_US 250.0

/* Before any step has been measured the first edge out of the dark can only
 * be judged against the noise, and a recording's start often holds a small
 * transient (a click, the converter settling) that stands out from it.  So
 * the first pulse is provisional until the next one starts: the darkness
 * before it, the pulse and the darkness after it are held back, and they
 * are taken back (all darkness) if an edge RETRACT_RATIO times the first
 * pulse's height comes, in either direction, or if the pulse outlasts
 * MAX_PULSE_US.  Real pulses' edges differ in height far less than that,
 * even on a strongly AC-coupled input. */
#define RETRACT_RATIO 4.0
/* The noise floor is learnt in the dark, so it cannot rise while a storm of
 * false edges keeps the line out of it: after digital silence (a muted,
 * just-opened or loopback card gives exact zeros; a quiet converter, noise
 * far below a receiver's) the receiver's own noise arrives as a burst of
 * "edges" as high as the noise itself.  So the settled residuals of the
 * line's activity (pulses and spaces alike) are checked in blocks of
 * RISE_BLOCK_US: when their noise is NOISE_RISE times the floor's and most
 * of them are half way to the threshold, it is the noise that changed.  The
 * activity is taken back (or ended) and the floor measured afresh, as at
 * the stream's start.  Real activity is as quiet as the darkness around it,
 * and only the sample or two before each edge comes near the threshold.
 * The tracker lags a first pulse's droop (not known yet): a slow bias,
 * taken off as the residuals' mean over the last RISE_DETREND_US.
 * The check runs only while the floor in use was learnt on (near-)digital
 * silence: the input's noise below SILENT_NOISE_SD (full scale = 1), far
 * below any receiver's (about -24 dBFS) or any SNR the decoders work at.
 * Without that gate, a pulse train in stationary noise at low SNR (carrier
 * residue, droop) looks like a noise rise and real frames were taken back
 * (48 kHz NEC at 6 dB SNR fell from 100 % to 8 %). */
#define RISE_BLOCK_US 250.0
#define RISE_BLOCK_MIN_SAMPLES 8
#define RISE_DETREND_US 100.0
#define NOISE_RISE 10.0 /* 20 dB */
#define SILENT_NOISE_SD 3.2e-4 /* -70 dBFS */


/*
 * Weak signals.  Below about 6 dB SNR (README's definition) at 44.1/48 kHz,
 * and 12 dB at 16 kHz, no threshold on the wide band can see a step without
 * drowning in false edges, and departures from a per-state level track
 * (re-learnt after every edge, from a few noisy samples) fail inside a
 * frame.  What the physics allows is integration over the protocols' units
 * (RC-6's 444 µs to RC-5's 889 µs) and decisions against the middle of two
 * known levels, so a weak frame is handled by a second detector:
 *
 *  - a matched band: two one-pole sections of WEAK_BAND_US on the raw input
 *    (noise power 1/20 of the input's at 48 kHz: about a unit's worth of
 *    samples averaged, while a 444 µs unit still reaches 96 % of its height);
 *  - while the line is idle (and the wide band saw nothing), a departure of
 *    WEAK_TRIGGER σ of that band from the idle level starts a weak frame;
 *    the step is then learnt as the mean of the first pulse (WEAK_ACQUIRE_US)
 *    and must stand WEAK_MIN_STEP σ clear of the band's noise;
 *  - from there the sequence detector (ir_seqdet.h) decides the frame's
 *    runs, and gives the line back after WEAK_GIVE_BACK_US of darkness.
 *
 * The wide band keeps the race for what it sees (a first edge over its
 * threshold), and the weak detector starts what it alone sees, out of idle
 * or between the frames it decided.
 */
#define WEAK_BAND_US 100.0
/* ...and never under this many sample periods.  At 16 kHz 100 µs is 1.6
 * of them: the band then hardly averages (noise power 0.165 of the
 * input's, against 0.052 at 48 kHz), its trigger stood at 2.4 σ of the
 * input, over a 4 dB step drooped by a 1 ms coupling, and the leader's
 * start was missed (the trigger fired at its end, in the wrong polarity)
 * or taken late.  2.8 periods is 175 µs at 16 kHz (noise power 0.09);
 * the 16 kHz grid is flat from 150 to 200 µs (6 dB 93-94 %), and falls
 * at 276 µs (the same noise power as 44.1 kHz's band: the band blurs
 * RC-6's 444 µs units and the 1 ms droop: 10 dB 99 -> 91 %).  From
 * 35.7 kHz up the band is WEAK_BAND_US. */
#define WEAK_BAND_MIN_SAMPLES 2.8
/* A sequence-detected run of frames that never goes dark for a timeout
 * (held keys repeat every ~108 ms, under the 125 ms timeout) is stopped
 * and acquired anew after this long: a start on a wrong baseline makes
 * the detector decide noise forever (a whole recording lost in the
 * plateau test's trials, test_seqdet_run_is_bounded). */
#define WEAK_SEQ_MAX_US 1000000.0
/* A frame's sequence detector gives the line back once it has decided
 * this much darkness (longer than any space inside a frame: NEC's 4.5 ms,
 * RC-5's 1.8 ms), and the next frame is started afresh by the weak trigger
 * and the detector's start rule.  Left running until the timeout, a start
 * on noise (or a wrong step) decided lone pulses now and then for as long
 * as the noise lasted, and lenient decoders (imon) made frames of them:
 * white noise at -12 dBFS, 7 false frames a minute with a 4 σ trigger. */
#define WEAK_GIVE_BACK_US 20000.0
/* Where the sequence detector took a start back (its first COMMIT_US no
 * better than darkness), the frame it started on, if there was one, is
 * lost, and a trigger on its next pulse starts it in the middle: the
 * trigger between frames is armed again only after the weak band has
 * stayed under it this long, longer than any space inside a frame
 * (NEC's and Sanyo's 4.5 ms).  (At 16 kHz, 10 dB, τ 1 ms, a JVC leader
 * drooped to 60 % before the trigger fired, its start was taken back, and
 * the first data pulse 12 ms in made a false telefunken frame,
 * test_demod_plateau.) */
#define WEAK_REARM_US 6000.0
/* Below WEAK_TEACHES_STEP_MAX_RATE a frame the sequence detector decided
 * teaches the line its step (weak_give_back; RC-MM's family excluded), as
 * a frame the wide band decided does, and with it the band
 * (demod_choose_band) and the weak triggers' step floors
 * (WEAK_STEP_FRACTION, STEP_FRACTION).  Without it a 16 kHz stream learnt
 * its step only from a frame the wide band took, and at 6 dB it took one
 * by chance: one sample of a 4 σ step plus its noise over WEAK_MAX_STEP
 * before the weak band rose to its trigger, about one frame a stream,
 * decided badly (9 of 37 lost frames in `limit --rates 16000 --snr 6
 * --frames 300`, six protocols, main 55e6e65).  The line's state, and with
 * it which weak trigger ran (the idle path's, or the full path's,
 * demod_weak_idle_sample), then changed by chance; taught so while the
 * full path's trigger stood 1.18 times the idle path's, the τ 1 ms
 * leaders at 4 dB went untriggered (4 dB 94.8 -> 94.1 %, worst cell 85 ->
 * 80: `limit --rates 16000 --snr 4,6`).  With one statistic on both paths
 * (see weak_ref_input), the same command: 4 dB 94.8 -> 95.6 % (worst 85 ->
 * 84), 6 dB 99.1 -> 99.6 (98 -> 98); 0/2 dB 32.2/72.7 -> 33.7/73.4; six
 * protocols, 300 frames a point at 6 dB 99.5 -> 99.6. */
#define WEAK_TEACHES_STEP_MAX_RATE WEAK_TRIGGER_FAST_RATE
/* A strong frame that comes while the weak detector owns the line (its
 * run, or its wait between frames) ends it: the weak band moves by
 * STRONG_RATIO times the detector's step, and by STRONG_NOISE σ of its
 * noise, within STRONG_LOOK_US (a unit's edge, not hum or droop).  The
 * wide band then starts afresh from the level before the move (polarity
 * and step unknown).  Without it a weak start on 50 Hz hum swinging by a
 * sixth of the step, 20 ms before a real recording's first frame, kept
 * the detector deciding the hum, in the hum's polarity, through every
 * frame of the recording (held keys repeat before the timeout): the VM's
 * 0 of 6 frames after snd-aloop's zeros, at 6 of 64 phases of their end
 * (test_demod_leading_silence). */
#define STRONG_LOOK_US 300.0
#define STRONG_RATIO 2.5
#define STRONG_NOISE 10.0
#define STRONG_HIST_MAX 64
/* The idle trigger, in σ of the weak band.  (4 σ: 0 dB 44.1/48 kHz
 * 58.6/61.2 % of frames instead of 41.6/40.0 %, but white noise at
 * -12 dBFS gave false frames, test_weak_noise_gives_no_frame; 3 σ: the
 * detector busy with noise when a frame comes, 20 %.) */
#define WEAK_TRIGGER 6.0
/* From WEAK_TRIGGER_FAST_RATE up, once the stream has had an edge, the
 * trigger is WEAK_TRIGGER_FAST σ.  Under a 1 ms coupling the 100 µs band
 * sees a 0 dB step drooped to ~60 % of it by the time it has risen (5-6 σ
 * of the band at 48 kHz): at 6 σ a third to a half of those frames never
 * started (48 kHz 0 dB τ 1 ms, traced: nec 37, rc5 50, rc6_0 53, sony12
 * 40 of 100).  White noise crosses 5 σ of the band about once a minute
 * at 48 kHz, a start refused by the acquisition or taken back by the
 * sequence detector (bench false: 0 false frames).  (At 16 kHz 5 σ once
 * lost test_16_khz_6_db's pass, on a 100 µs band and the 6 ms window;
 * they apply there now too: see WEAK_LOW_FAST_RATE.)  Before the
 * stream's first edge the trigger stays at WEAK_TRIGGER: there the earlier
 * start measured a 6 dB RC-5 leader's mean under the wide band's
 * threshold, and the frame was lost (test_first_frame_after_silence_at_6_db),
 * and keeping such a start whole lost ledrem-mivar-000's first frame after
 * -80 dBFS noise (test_demod_leading_silence_corpus).
 * 4.5 σ, not 5: at 5 σ the no-trigger frames were still the largest
 * 0 dB τ 1 ms loss (traced at 44.1 kHz: 15-18 of 100 per protocol, the
 * line idle and the trigger on); white noise crosses 4.5 σ of the band
 * about ten times as often (Rice: exp(-u²/2) / (2π 100 µs) a polarity,
 * ~8 a minute), each a start refused or taken back.  0 dB τ 1 ms
 * 44.1/48 kHz means 77.0/80.6 -> 79.9/83.4 % over the grid, sony12
 * 71/84 -> 86/90, jvc 76/83 -> 89/93, rc5 85/87 -> 93/97.  No false
 * frame in white noise after an edge (test_weak_noise_after_an_edge_gives_no_frame;
 * bench false's inputs have no edge, and run the 6 σ trigger).  4 σ gained no more at τ 1 ms and lost 5-19 points in
 * a dozen 0 dB τ 5 ms / DC cells (the detector busy with noise starts
 * when a frame came), and made one false frame an hour on music. */
#define WEAK_TRIGGER_FAST 4.5
/*
 * The drooped-step band.  Under a 1 ms coupling a step droops as
 * e^(-t/τ): the weak band (two sections of WEAK_BAND_US) peaks at 0.73 of
 * it, 3.2 per unit of step / σ of the input over its white-noise σ (6.4 σ
 * of the band at 0 dB, before the level tracker and the noise take their
 * share), and the 4.5 σ trigger missed leaders' starts, firing at their
 * end instead (the undershoot, the other way: the frame lost, and in the
 * wait between frames the wrong polarity kept for the next ones).  The
 * step's matched filter is its drooped shape, ~τ long (4.9 per unit); two
 * sections of 200/300/400 µs reach 3.7/3.95/4.0 (48 kHz, τ 1 ms).  The
 * band runs beside the weak one at no cost per idle sample (the idle
 * path's third SIMD lane), triggers at DROOP_TRIGGER σ of its own noise
 * (measured in the dark as the weak band's, against the same level),
 * only where the fast rules apply (after the stream's first edge, from
 * WEAK_LOW_FAST_RATE: bench false's inputs, edgeless, never arm it), and
 * where the weak band stays under its own trigger; the start it finds is
 * placed where the samples before it say the step began
 * (weak_lookback_t0 over DROOP_BACK_US), not from the band's rise.
 * `limit` means, 12d89fb -> this (with WEAK_MIN_STEP_TAU_US), where it
 * runs (DROOP_MAX_RATE): 16 kHz τ 1 ms 2/4/6 dB 9.3/61.5/92.7 ->
 * 12.2/63.3/96.7 % (6 dB worst point 86 -> 92), τ 5 ms/DC 64.4/94.8/98.8
 * -> 65.8/94.8/98.9.  At 44.1/48 kHz (where it does not run) it took
 * τ 1 ms 0 dB from 74.1/78.9 (WEAK_MIN_STEP_TAU_US alone) to 74.7/79.6,
 * and lost τ 5 ms/DC frames (see DROOP_MAX_RATE).  Tried there:
 * (300 µs at 4.5 σ: τ 1 ms 0 dB 76.3/79.0, but τ 5 ms/DC 0 dB 86.6/83.3,
 * 2 dB τ 1 ms 48 kHz 91.3: the longer, lower trigger started on noise
 * and kept the detector busy when frames came; 500 µs at 4.5 σ lost
 * 1-2 points at 2 dB; 300 µs at 5.5 σ: 73.6/79.0, 16 kHz 6 dB 95.2;
 * 200 µs at 4.75 σ: 16 kHz better (14.7/66.3/97.8), 48 kHz τ 5 ms/DC
 * 86.4 and 16 kHz 6 dB τ 5 ms/DC 98.5: within scatter, 5 σ kept for its
 * fewer noise starts.)
 */
#ifndef DROOP_BAND_US
#define DROOP_BAND_US 200.0
#endif
/*
 * ...and below WEAK_TRIGGER_FAST_RATE (16-22.05 kHz) sections of
 * DROOP_BAND_LOW_US, while the line carries no hum (DROOP_HUM_ON) and the
 * step learnt is under DROOP_LOW_MAX_SNR_DB (demod_droop_hum).  Two
 * sections of 200/300/400/500 µs peak on a step drooping under a 1 ms
 * coupling at 2.19/2.32/2.37/2.37 × step/σ at 16 kHz (start16): traced at
 * 16 kHz 0 dB, most frames that never started were τ 1 ms leaders the
 * band did not trigger on.  `limit --rates 16000 --snr 0,2 --taus 1,5,0`
 * (six protocols) 47.4/81.8 -> 49.6/84.7 % (τ 1 ms: all twelve cells up,
 * 0 dB 11.5 -> 13.3, 2 dB 58.3 -> 68.0; τ 5 ms/DC within a few frames);
 * 22.05 kHz 75.9/95.0 -> 76.9/94.6 (τ 1 ms 0 dB rc6_0 48 -> 61, sony12
 * 45 -> 63).  Always on (start16's), strong hum (`bench_audio false
 * --rate 16000 --seconds 240`, hum rows) took 1.6 -> 17.9 s of CPU: its
 * σ halved, the hum's residue against the idle level started weak frames
 * every hum cycle (traced: 3430 starts in 40 s, from the full path's
 * idle level, the polarity unknown) and the full path never left
 * (test_demod_droop_low: 920 -> 1515 edges in 30 s, and a false frame);
 * and ≥ 10 dB lost frames (16 kHz 10 dB sanyo DC 100 -> 99).  With
 * both rules: hum rows 1.6 s as main; 16/22.05 kHz 4/6/10 dB (six
 * protocols) the same frames as main; rcmm32 (its unit under 4 samples
 * at 16 kHz) 16 kHz τ 1 ms 6 dB 75 -> 69, 22.05 kHz 4 dB 78 -> 72, other
 * cells ±3.  Callgrind idle 16 kHz 23.98 -> 24.09, 48 kHz the same.
 */
#ifndef DROOP_BAND_LOW_US
#define DROOP_BAND_LOW_US 400.0
#endif
/* The long sections only while the step learnt (the stream's, 0 before
 * its first) is under this README SNR against the input's white noise
 * (step² under DROOP_LOW_MAX_STEP2 raw_noise2).  Above it the 200 µs
 * sections already trigger on nearly every drooped leader (the lanes'
 * Monte Carlo, DROOP_FROM_BASE: P 0.97 at 4 dB), and the long ones only
 * moved frames: 16 kHz 4/6/10 dB 97.3/99.6/99.9 -> 97.2/99.8/99.8 %,
 * sanyo DC 10 dB 100 -> 99, rcmm32 τ 1 ms 10 dB 89 -> 88.  The learnt
 * step's step²/σ² at 16 kHz (traced, 10 %/90 % of the streams' values):
 * 2 dB 5.6-6.8, 4 dB 9.0-10.7 against 4·10^(SNR/10) = 6.3, 10.0. */
#ifndef DROOP_LOW_MAX_SNR_DB
#define DROOP_LOW_MAX_SNR_DB 3.0
#endif
#define DROOP_LOW_MAX_STEP2 (4.0 * pow(10.0, DROOP_LOW_MAX_SNR_DB / 10.0))
/* Hum: the dark line's idle level less the slow baseline, its square
 * averaged over WEAK_NOISE_US, over DROOP_HUM_ON times the input's white
 * noise variance (raw_noise2) brings back the short sections, under
 * DROOP_HUM_OFF times the long.  White noise alone puts ~0.015 there (the
 * 2 ms level's share); bench limit's channel (2 % hum) 0.003-0.3 at
 * 16 kHz 0-10 dB, bursts to ~1 after a frame; `false`'s strong hum
 * (0.3 against 0.01 of noise) ~430.  Updated every DROOP_HUM_EVERY
 * housekeepings: every one cost the idle path at 16 kHz 0.45 instructions
 * a sample (23.98 -> 24.43). */
#ifndef DROOP_HUM_ON
#define DROOP_HUM_ON 4.0
#endif
#ifndef DROOP_HUM_OFF
#define DROOP_HUM_OFF (0.5 * DROOP_HUM_ON)
#endif
#define DROOP_HUM_EVERY 4u
/* ...and it runs only under this rate: where the weak band is 2.8 samples
 * (175 µs at 16 kHz, noise power 0.09 of the input's against 0.052 at
 * 48 kHz) it added most, and at 44.1/48 kHz it starts the τ 1 ms leaders
 * the weak band misses.  There the 100 µs band less its 2 ms idle level
 * peaks at 0.59 of a step that droops as it rises (noise-free NEC,
 * 44.1 kHz, τ 1 ms; not 0.73), 1.1 times its 4.5 σ trigger at README SNR
 * −2 dB and 1.4 times at 0 dB.  Traced on main 3be758a (`limit --rates
 * 44100,48000 --taus 1 --snr -2,0 --protocols nec,rc6_0,sony12,sanyo`,
 * 1600 frames): 191 of 333 lost frames never started, 133 of them out of
 * the idle path with no trigger on the leader's rise (its statistic
 * peaked at a median 0.87 of the trigger); the full path's own idle
 * trigger was the line's state at none of them.  With the band from
 * 32 kHz up to this rate, the same command: −2 dB 52.2/72.0 -> 61.0/77.2 %,
 * 0 dB 94.8/97.8 -> 94.5/98.5; `limit --rates 44100,48000 --snr -2,0,2`
 * (seven protocols × τ) 69.1/78.3, 93.7/95.4, 99.0/99.0 -> 71.5/80.2,
 * 93.8/95.5, 98.9/99.0 (23 cells up, 7 down by one frame, rc5 1 ms 0 dB
 * 48 kHz by one too); τ 5 ms/DC 0 dB (`--taus 5,0 --snr 0`, four protocols)
 * 98.2/98.5 -> 98.1/98.5 (at stop 30 it lost them:
 * test_seqdet_grid's rc6_0 + nec 1549 -> 1536-1541 of 1600, since gone
 * with the trigger from the baseline, DROOP_FROM_BASE).  ≥ 10 dB, 16 kHz
 * and coldstart unchanged (with the noise from the weak band's; `photodiode
 * --rates 44100,48000 --snr 6,10` 36.7/61.0, 97.3/98.7 -> 41.3/70.0,
 * 97.0/99.0 so).  It cost the idle path 0.8 instructions a sample at
 * 48 kHz: the noise's measurement in the dark (demod_droop_noise), as
 * below 32 kHz (now sparser there: DROOP_NOISE_SPARSE_RATE).  Taken from
 * the weak band's measured σ by the ratio white
 * noise puts in the two departures (0.593) it cost nothing and gave the
 * same figures, but music is not white: `bench_audio false --rate 44100`
 * music-like gave 18 false frames an hour.
 * Not at 96 kHz and up (99.3 % at 0 dB there already; not measured). */
#ifndef DROOP_MAX_RATE
#define DROOP_MAX_RATE 50000u
#endif
#ifndef DROOP_TRIGGER
#define DROOP_TRIGGER 5.0
#endif
/* (the band crosses its trigger up to ~700 µs into a 0 dB step drooped
 * by a 1 ms coupling: the change point is sought over this much before
 * the acquisition, or as much as the ring holds: LOOKBACK_US rounds up
 * to a power of two of samples, 1333 µs at 48 kHz.  A ring of 2000 µs
 * cost the idle path 0.4 instructions a sample more in its copy.) */
#define DROOP_BACK_US 1200.0
/* The drooped-step band's trigger stays over this fraction of a step
 * learnt earlier (as WEAK_STEP_FRACTION the weak band's): the band peaks
 * at 0.6 of the step under a 1 ms coupling (200 µs sections). */
#define DROOP_STEP_FRACTION 0.2
/* Where the drooped-step band runs and the line's polarity is known, out
 * of idle it is tested from the slow baseline in that polarity, at
 * DROOP_BASE_TRIGGER times its trigger (as the weak band's lane from the
 * baseline, WEAK_BASE_TRIGGER), not from the 2 ms idle level either way.
 * A leader drooping under a 1 ms coupling is half gone in 700 µs, and the
 * idle level takes ~0.15 of its step meanwhile: at 16 kHz 2 dB the weak
 * band peaked ~5.4 σ against its 5 σ trigger, the band from the idle
 * level never fired before it (start16's Monte Carlo: P(trigger) 0.64,
 * this lane never first), and 113 of 371 lost frames never triggered.  A
 * Monte Carlo of the lanes (idle16_out/trigsim2.py, 16 kHz τ 1 ms):
 * P(trigger within 3 ms) 0 / 2 / 4 dB 0.24 / 0.64 / 0.97 -> 0.25 / 0.73 /
 * 0.98 at 1.1 × (at 1.0 ×: 0.47 / 0.87 / 1.00; 300-400 µs sections:
 * within 0.05).  Nothing more per idle sample: the band's SIMD lane holds
 * the baseline instead of the level.  `limit --rates 16000 --taus 1 --snr
 * 0,2,4` (six protocols) 2.2/37.8/86.3 -> 2.8/40.8/86.7 %; `--rates 16000
 * --snr 2,4,6` 69.4/93.8/99.1 -> 70.6/93.9/99.1 (worst 23/81/98 ->
 * 25/82/98); 22.05 kHz 0/2/4/6 dB 55.4/88.9/98.3/99.7 -> 58.8/90.9/98.7/
 * 99.7 (no cell down 3 points).  At 1.0 × 16 kHz τ 1 ms 3.3/46.7/86.5, but
 * all τ 6 dB 98.8 and music-like input made 2 + 1 false frames an hour
 * (`bench_audio false --rate 16000`; 0 at 1.1 ×).  Tried: this band's
 * noise measured from the baseline too (music 0 an hour, but the gain
 * gone: 2.3/37.7/86.0, the baseline lagging the frames' undershoot in
 * the dark where the noise is gathered); its floor at the weak band's
 * STEP_FRACTION of the step (RC-MM's short pulses under it: rcmm32 16 kHz
 * 5 ms 6 dB 72 -> 28 %). */
#ifndef DROOP_FROM_BASE
#define DROOP_FROM_BASE 1
#endif
#ifndef DROOP_BASE_TRIGGER
#define DROOP_BASE_TRIGGER 1.1f
#endif
/* Before the stream's first edge (the polarity unknown, the weak band's
 * trigger at WEAK_TRIGGER), where the drooped-step band runs, it is tested
 * from the slow baseline either way, at DROOP_FIRST_TRIGGER times
 * DROOP_BASE_TRIGGER σ of its noise, measured there from the baseline too
 * (demod_droop_dev_now).  There a leader drooping under a 1 ms coupling
 * at 0 dB peaked at 0.76-0.98 of the weak band's 6 σ, and the stream's
 * first frames were lost until one started by chance (start44: NEC and
 * Sony 12 at 44.1 kHz lost their first six).  Traced on main 0d6ed55
 * (`limit --rates 44100,48000 --taus 1,5 --snr -2,0 --protocols
 * nec,rc6_0,sony12,sanyo`): 105 of 327 lost frames came before the
 * stream's first decoded one; with this rule 31 of 259: 44.1/48 kHz −2 dB
 * 76.8/87.2 -> 81.5/89.4 %, 0 dB 96.5/98.6 -> 98.1/98.6 (nec 1 ms 0 dB
 * 44.1 93 -> 98, sony12 93 -> 99).  Measured from the idle
 * level instead (as after the first edge), the 2 % hum against the 20 ms
 * baseline started RC-5 frames' 20 ms of lead-in at 20-30 dB (`coldstart`
 * uncut 16 kHz 30 dB 100 -> 98.3 %, 48 kHz 20 dB 100 -> 99.2): the noise
 * of the statistic tested is the baseline's.  At 5.5 most of the gain
 * went (0 dB 97.0/98.5, 85 lost before the first frame).  `bench_audio
 * false` 0 an hour at 44.1/48 kHz (white, hum, clipped, music-like from
 * the stream's start run exactly this trigger). */
#ifndef DROOP_FIRST
#define DROOP_FIRST 1
#endif
/* ...from this rate up: wherever the band runs.  Below
 * DROOP_NOISE_SPARSE_RATE the band's noise is gathered every
 * IDLE_NOISE_EVERY samples, and the reference's choice made there, per
 * gathered sample, cost callgrind idle at 16 kHz 24.0 -> 24.9 a sample
 * (the bar is 25), so the rule ran only from 32 kHz.  The idle path now
 * decides it once, where it begins (droop_ref: the idle level, or the
 * baseline as a float while the band is tested from it either way):
 * callgrind idle (`bench_audio silence 10 R`) 16 kHz 23.99 -> 24.41,
 * 22.05 kHz 24.10 -> 24.52, 48 kHz 24.31 -> 24.31 (silence has no edge:
 * all of it runs this trigger, whose σ is now set every IDLE_HOUSEKEEPING
 * there too; the pointer itself cost 0.08 at 16 kHz).  `limit --rates
 * 16000,22050 --snr 0,2 --taus 1,5,0` (six protocols), 881064d -> this: 16 kHz
 * 47.4/81.8 -> 49.4/82.4 %, 22.05 kHz 73.7/96.6 -> 76.6/97.0 (34 cells up,
 * one down by a frame; τ 1 ms 0 dB 11.5 -> 15.7, 46.0 -> 51.8); `--snr
 * 4,6,10` 97.3/99.6/99.9 -> 97.6/99.7/99.9 and 99.3/99.8/99.8 ->
 * 99.2/99.8/99.8 (6 dB τ 5 ms/DC 99.5 both at 16 kHz).  A stream's first
 * six frames (test_short_streams_first_frames_16_khz, 16 kHz 2 dB τ 1 ms)
 * 36.8 -> 56.9 %.  `--rates 44100,48000 --snr -2,0 --taus 1,5` (four
 * protocols) cmp-identical. */
#ifndef DROOP_FIRST_MIN_RATE
#define DROOP_FIRST_MIN_RATE WEAK_LOW_FAST_RATE
#endif
#ifndef DROOP_FIRST_TRIGGER
#define DROOP_FIRST_TRIGGER 4.5
#endif
/* ...and from this far into the stream: one period of 50 Hz mains.  The
 * band's σ from the baseline starts as the white noise's (prime_finish)
 * and takes in the hum's wander against the baseline only as the hum
 * swings: armed where the weak band is (START_PROOF_US, 12 ms), the rule
 * started the 2 % hum at 12-14 ms into a stream, 8 times in `coldstart
 * --snr 20,30` at 16 and 48 kHz alike, and at 16 kHz that lost two uncut
 * RC-5 frames (uncut 20/30 dB 100/100 -> 99.7/99.7 %, 0 with this; 16 kHz
 * 6/10 dB uncut 81.4/93.6 (main) -> 91.7/95.0 either way).  `limit
 * --rates 16000,22050 --snr 0,2` cmp-identical with and without it; 32 ms
 * lost the uncut 10 dB gain (93.6: the frame comes at 20 ms). */
#ifndef DROOP_FIRST_ARM_US
#define DROOP_FIRST_ARM_US 20000.0
#endif
/* From this rate up the drooped-step band's noise is one deviation every
 * IDLE_HOUSEKEEPING samples, weighed as DROOP_SPARSE_WEIGHT of the
 * IDLE_NOISE_EVERY updates, not four gathered every IDLE_NOISE_EVERY:
 * there the band (two 200 µs sections, 8.8 samples each at 44.1 kHz) is
 * correlated over IDLE_NOISE_EVERY samples (ρ ≈ 0.5), four such
 * deviations are worth ~2.6 independent ones, and gathering them cost the
 * idle path ~0.9 instructions a sample.  Callgrind idle (48 kHz) with
 * DROOP_FIRST_TRIGGER 24.95 -> 24.27 a sample (main 24.33).  Weighed as
 * the four (the same averaging time) the estimate was coarser: `limit
 * --rates 44100,48000 --taus 1,5 --snr -2,0 --protocols
 * nec,rc6_0,sony12,sanyo` −2 dB 82.4/89.9 (gathered) -> 80.6/88.2 %; as
 * two (twice the time: 16 ms before the first edge, 64 ms after)
 * 81.5/89.4, as one 82.6/89.5 (0 dB 97.6-98.1 / 98.6-98.8 in all).  Not
 * below: at 16 kHz the samples are nearly independent, and one in
 * IDLE_HOUSEKEEPING made the estimate too coarse there (its 6 dB τ 5 ms/DC
 * mean fell to 77.7 %, start44). */
#define DROOP_NOISE_SPARSE_RATE WEAK_TRIGGER_FAST_RATE
#ifndef DROOP_SPARSE_WEIGHT
#define DROOP_SPARSE_WEIGHT 2.0
#endif
/* (droop_base_dir's value for "from the baseline, either way") */
#define DROOP_BASE_EITHER 2.0f
#define WEAK_TRIGGER_FAST_RATE 32000u
/* From WEAK_LOW_FAST_RATE to WEAK_TRIGGER_FAST_RATE the same rules (the
 * trigger at WEAK_TRIGGER_LOW σ after the stream's first edge,
 * WEAK_MIN_STEP_FAST, weak_unseen; not WEAK_COMMIT_FAST_US, see
 * weak_commit_us): see weak_trigger_for.  At 16 kHz a 0 dB step is
 * 6.7 σ of the weak band (2.8 samples, noise power 0.09 of the input's)
 * before any droop: 6 σ stood over most drooped steps.  16 kHz (mean of
 * 6 protocols × τ 1 ms/5 ms/DC) 0/2/4/6/10 dB 4.6/33.3/71.4/94.1/99.7 ->
 * 8.6/42.9/82.8/96.8/99.7 %, τ 1 ms 4 dB 23-44 -> 50-80 % per protocol;
 * 22.05 kHz 2/4/6 dB 54.9/86.9/98.4 -> 73.3/96.4/99.7 %.  4.5 σ: within
 * a point (10.7/43.5/83.4/96.9); 4 σ: 4 dB 74.4, 6 dB 93.9 (the
 * detector busy with false starts); 5.5 σ: 2-3 points under 5 σ.  Not
 * below 16 kHz: 8 kHz is tested only at 25 dB (test_irmp_audio). */
#ifndef WEAK_TRIGGER_LOW
#define WEAK_TRIGGER_LOW 5.0
#endif
#define WEAK_LOW_FAST_RATE 16000u
/* The idle trigger stays over this fraction of a step learnt earlier.  At
 * the wide band's STEP_FRACTION (0.4) it stood over RC-MM's short pulses
 * as the 100 µs band shows them, once the trigger followed the line on
 * the narrow band as well (demod_weak_idle_sample): rcmm32 6 dB τ 1 ms, 44.1 /
 * 48 kHz, 89 / 92 % (75 % with another seed) where 0.25 gives 90 / 99
 * (95); the means at 6 dB 98.8 / 99.2 -> 99.0 / 99.6 % (no floor at all:
 * the same figures). */
#define WEAK_STEP_FRACTION 0.25
#define WEAK_ACQUIRE_US 400.0
/* The weak band's rise to its trigger, in demod_band_rise()'s fraction of
 * the step, is taken as at most this when the trigger stood near the step
 * (see weak_t0): past it, the trigger was reached by the noise on the
 * band's crest, not by the step's rise.  (0.99 before: 6.6 band time
 * constants; 0.75 is 2.7.)  16 kHz 6 dB 80.4 -> 83.6 % on the 100 µs band
 * and the 6 ms start window; 0.6 and 0.9 within 0.5 point of it. */
#define WEAK_RISE_MAX 0.75
/* The input kept (ir_lookback.h): the acquisition and LOOKBACK_BACK_US
 * (DROOP_BACK_US for the drooped-step band's starts) before the trigger,
 * with room; the start is sought that far back (the trigger fires up to
 * ~300 µs into a pulse at 0 dB). */
#define LOOKBACK_US 1000.0
#define LOOKBACK_BACK_US 500.0
#define WEAK_MIN_STEP 4.0
/* ...and WEAK_MIN_STEP_FAST σ where the trigger is WEAK_TRIGGER_FAST: under
 * a 1 ms coupling the acquisition's mean is ~70 % of the step (0.36 of a
 * 0.5 step at 0 dB, its σ 0.06), and at 4 σ a fifth of the 0 dB NEC and
 * Sanyo starts were refused (48 kHz, traced); a start on noise that
 * passes is taken back by the sequence detector (START_NATS).  48 kHz
 * 0 dB τ 1 ms nec 51 -> 58 %, rc6_0 48 -> 54, sony12 69 -> 75. */
#define WEAK_MIN_STEP_FAST 3.0
/* ...and there the acquisition's mean is held to it brought back to the
 * step's start under the fastest coupling the README supports (τ 1 ms),
 * not as measured: in a stream of weak frames the wide band never
 * measures the coupling (the rate falls back to WEAK_TAU_START_US's 3 ms),
 * and a 0 dB leader drooped by 1 ms, triggered 0.3-0.7 ms in, measured
 * 0.11-0.17 against a 0.16 bar (44.1 kHz sanyo, traced): rejected, the
 * line followed it, and the trigger fired at its end the other way.  (The
 * step given to the sequence detector is still brought back at the
 * measured or assumed rate.)  At 44.1/48 kHz (no drooped-step band
 * there): τ 1 ms 0 dB 71.3/77.7 -> 74.1/78.9 %, 2 dB 94.1/92.3 ->
 * 94.0/93.1, τ 5 ms/DC 0 dB 87.7/86.9 -> 88.4/86.6 (`limit`, 100 frames
 * a point); brought back at the measured rate instead, 72.4/79.0 at
 * τ 1 ms 0 dB.  Not under WEAK_TRIGGER_FAST_RATE: at 16 kHz it passed a
 * start on bench false's music that became a frame (1 an hour; 0 with
 * the acquisition's mean as measured). */
#define WEAK_MIN_STEP_TAU_US 1000.0
/* ...and below WEAK_TRIGGER_FAST_RATE (16-22 kHz), once the fast rules
 * apply, a first pulse that lasts the acquisition is refused only where
 * its samples, from where the ring says it began (ir_lookback_rise), are
 * under WEAK_DROOP_Z σ of the input as the matched statistic of a pulse
 * drooping at WEAK_MIN_STEP_TAU_US: Σ u_m e^(-t_m/τ) / (σ √Σ e^(-2 t_m/τ)).
 * There a 0-2 dB leader under a 1 ms coupling is triggered 0.35-0.9 ms in
 * (the 2.8-sample band peaks at 5-6 σ of its noise, the 5 σ trigger
 * crosses late), and the acquisition's 400 µs mean, drooped to a half or
 * less, fell under WEAK_MIN_STEP_FAST σ of the band: at 2 dB τ 1 ms 54 of
 * the 397 frames lost in 600 (six protocols, traced) were such refused
 * rises, and the fall that followed then often started a frame in the
 * wrong polarity.  The matched statistic weighs the same samples as the
 * pulse's own shape does, the rise before the trigger included (triggers
 * at a leader's rise: median 4.7, 5th percentile 3.2 at 0-2 dB τ 1 ms;
 * 6.0 / 3.5 at DC), where the flat mean's bar scales with the droop.
 * A start against the line's learnt polarity keeps the mean's test: the
 * change point's search lifts noise's statistic too (a 22 kHz 6 dB
 * trigger the other way, mean 0.6 σ of the band, stood at 4.0, and its
 * start flipped the polarity for four frames: rc6_0 τ 5 ms 100 -> 95 %).
 * With weak_take_back's polarity rule, `limit --rates 16000 --snr
 * 0,2,4,6` (six protocols × τ 1 ms/5 ms/DC, and rcmm32) 26.4 / 66.4 /
 * 92.9 / 98.8 -> 26.4 / 68.2 / 93.1 / 98.9 %, τ 1 ms 2 dB +1..+9 a
 * protocol; 22.05 kHz 51.2 / 84.5 / 98.0 / 99.0 -> 53.4 / 86.7 / 98.2 /
 * 99.0.  (Against the polarity too: 16 kHz within 0.2 point, 22.05 kHz
 * 6 dB 98.8.  3.0 and 4.0 within half a point of 3.5.  The mean brought
 * back to the rise at 1 ms instead, as from 32 kHz: 16 kHz 26.6 / 68.2 /
 * 92.2 / 98.9 without the polarity rule.)  RC-MM's short first pulses
 * keep the mean's test (at 3.5 for them too, rcmm32 16 kHz 6 dB τ 1 ms
 * 45 -> 13 %: a 167 µs pulse is not a 1 ms droop). */
#define WEAK_DROOP_Z 3.5
/* ...and there, for a step under WEAK_COMMIT_FAST_SIGMA σ of the weak
 * band (0-4 dB: 4-11 σ), the sequence detector keeps its best τ hypothesis
 * only after WEAK_COMMIT_FAST_US (its own window is 6 ms): under a 1 ms
 * coupling a 9 ms leader shows only its first ~2 ms before it has drooped
 * to the dark level, and a slow τ that ends it there (a 1-2 ms "leader")
 * fits the first 6 ms as well as the true one; only the leader's end (its
 * undershoot) tells them apart.  Traced at 44.1 kHz 0 dB τ 1 ms: of the
 * weak starts placed within 100 µs of the truth, 20 NEC, 30 Sanyo and 19
 * JVC frames of 100 were then decided wrong, most under a τ of 0, 2 ms or
 * more (committed at 6 ms with the leader still lit).  The σ bound keeps
 * a strong edge able to end the wait: a start on 50 Hz hum at 36 σ,
 * 20 ms before samples/nec-mic-jack-44k.wav's first frame, held the
 * detector's step at the hum's (0.42), and the leader's move (0.85 within
 * STRONG_LOOK_US) stayed under STRONG_RATIO times it until the detector
 * chose (test_demod_leading_silence: its first two frames lost). */
#ifndef WEAK_COMMIT_FAST_US
#define WEAK_COMMIT_FAST_US 11000.0
#endif
#ifndef WEAK_COMMIT_FAST_SIGMA
#define WEAK_COMMIT_FAST_SIGMA 16.0
#endif
/* A step from WEAK_MAX_STEP σ of the wide (fast) band up is the wide band's:
 * out of idle it starts only those (demod_weak_owns_start), and the weak
 * detector hands those it measured back.  At 4 σ (2.2 σ of the input at
 * 48 kHz, where a 0 dB step is 2 σ) half the 0 dB frames were handed over
 * or started by the wide band, which decides them badly: of the frames
 * lost at 48 kHz 0 dB, NEC DC 9 of 10 and RC-5 5 ms 18 of 20 were the
 * wide band's start.  At 6 σ (3.3 σ of the input at 48 kHz, the wide band
 * keeping what it decides well, 6 dB and up): 48 kHz 0 dB 31.7 -> 47.6 %,
 * 16 kHz 6 dB 43.5 -> 59.3 % (bench limit, 40 frames).  The race rule at
 * 4 σ lost a bare photodiode's RC-5 at 44.1 kHz 15 dB (97 -> 35-40 %, its
 * steps measured under 4 σ, taken by the detector); at 6 σ it keeps
 * 100 %: those steps are handed back whole.  The level is in σ of the
 * band the wide band decides on, so it holds at every rate: at 16 kHz the
 * fast band is nearly the input itself (6 σ is 5.5 σ of the input, a
 * 10 dB step is 6.3 σ).  (It was 4 σ and without the race rule below
 * 32 kHz, where the detector lost a 10 dB JVC leader drooped by a 1 ms
 * coupling and took the frame from its first data pulse, a false
 * telefunken frame in test_demod_plateau: the trigger's reference was
 * dragged along by the wide band's tracker: see demod_weak_idle_trigger.) */
#define WEAK_MAX_STEP 6.0
/* The sequence detector works with one-sample blocks: at 16 kHz too
 * (16 kHz 6 dB: 31.2 % of frames without it, 54.4 % with). */
#define WEAK_MIN_RATE 8000u
/* The weak trigger is off where the weak band's noise (measured on the idle
 * path) is under WEAK_WHITE of what the input's sample-to-sample noise
 * puts there (see demod_weak_set_noise).  At 0.5 the ratio's own scatter at
 * 0 dB (0.4-1.3, the band's estimate stale after a frame) turned the
 * trigger off now and then, for as long as the line stayed off the idle
 * path: at 48 kHz 0 dB JVC DC 18 of 23 lost frames were then started by
 * the wide band (42.5 -> 85 % at 0.4; 48 kHz 0 dB mean 47.6 -> 52.0 %,
 * 6 dB 85.5 -> 88.3 %, 16 kHz 6 dB 43.5 -> 48.5 %).  (0.3 and under: a
 * real recording's first frame after -80 dBFS noise, ledrem-mivar-000,
 * was started by the weak trigger and lost; 0.4 loses EVPAD's first frame
 * after 1 and 5 s of -60 dBFS noise, test_demod_leading_silence's known
 * failures, lost after 0.5 s already.)  The ratio is of two estimates
 * made on the idle path from one sample in IDLE_NOISE_EVERY over NOISE_US:
 * fewer samples at lower rates, and a wider scatter, so WEAK_WHITE is the
 * level at WEAK_WHITE_N independent samples (44.1 kHz) and below that it
 * is lowered as far, in standard deviations of the ratio's log, as the
 * scatter widens (see weak_white_for): 0.21 at 16 kHz, where at 0.5 the
 * trigger was off at random after frames (16 kHz 6 dB: rc6_0 and JVC
 * τ 5 ms lost whole streams to the wide band).  (The estimates now hold
 * NOISE_MIN_N samples at every rate, see noise_alpha_for; the gate keeps
 * the level NOISE_US's count gives, 0.21 at 16 kHz: at 0.4 there the
 * ratio still dipped under it for 4-12 ms at a time, and 16 kHz 4 dB
 * fell 69.7 -> 63.9 %.) */
#define WEAK_WHITE 0.4
#define WEAK_WHITE_N 43.0
/* The coupling's rate assumed for the first pulse's droop, where no state
 * measured one (a τ of 3 ms), and the slowest rate taken from one. */
#define WEAK_TAU_START_US 3000.0
/* The weak band's noise, which sets the weak trigger (and the refusal's σ),
 * is averaged over at least WEAK_NOISE_US of dark (NOISE_US for the other
 * floors): the noise is stationary, and at NOISE_US (8 ms, ~44 samples
 * of one in IDLE_NOISE_EVERY) its estimate scattered 0.045-0.08 between
 * frames at 44.1 kHz 0 dB (median 0.053), the 5 σ trigger with it:
 * traced at 44.1 kHz 0 dB τ 1 ms, 9-22 frames of 100 per protocol never
 * triggered (the drooped step peaks ~0.36 in the band).  0 dB τ 1 ms
 * 44.1/48 kHz rc5 75/78 -> 85/89 %, nec 69/71 -> 73/80.  Before the
 * stream's first edge, and over its first WEAK_NOISE_US of dark, the
 * average is the others' (NOISE_US): the first frame keeps the trigger
 * it was tuned with (see WEAK_TRIGGER_FAST; averaged slow there,
 * test_first_frame_after_silence_at_6_db lost its RC-5 frame: its
 * trigger came 2.8 ms late, on a later pulse). */
#ifndef WEAK_NOISE_US
#define WEAK_NOISE_US 32000.0
#endif
#define WEAK_TAU_MAX_US 200000.0
/* A pulse's fall under a 1 ms coupling undershoots about as far as its
 * rise went up (a 2.4-9 ms leader has drooped to 0-10 % of its step
 * before it ends), and to the weak band it is a rise of the other
 * polarity.  Where the trigger missed the rise, or the acquisition refused
 * it, the start came at the fall, the wrong way: that frame was lost, and
 * since between frames the trigger only fires in the frames' polarity,
 * the next 1-4 frames with it (traced at 44.1 kHz 0 dB τ 1 ms, main
 * df5d780: 14 of rc6_0's 27 lost frames were starts at the leader's fall,
 * 5 of them in such a chain; sony12 6 of 11, 3 in a chain).  The fall
 * more often than the rise: over the leader the idle level's tracker
 * (IDLE_TRACK_US) follows the lit, drooping pulse up by ~0.2 of the step
 * for RC-6's and Sony's 2.4-2.7 ms leaders, and the undershoot stands that
 * much further from it.  So a trigger out of idle against the polarity
 * the line's frames had (d->pol) is not taken where its reference stands
 * displaced against its direction, from the slow baseline (BASELINE_US),
 * by over WEAK_FALL_DISP of the trigger (a real start's reference stands
 * displaced with it, the tracker having begun to follow: traced, -0.1 to
 * +0.3 of the trigger; the falls -0.3 to -0.1), or where the acquisition
 * refused a start in that polarity WEAK_FALL_PAIR_US or less before (the
 * longest leaders, NEC's and Sanyo's 9 ms, with room); and then, for
 * WEAK_FALL_HOLD_US or until the weak band is back within its trigger of
 * the baseline, no trigger that way is.  `limit --rates 44100,48000 --taus 1`
 * (df5d780 -> this): 0 dB 76.0/82.7 -> 77.1/84.7 %, -2 dB 16.9/28.3 ->
 * 18.3/30.1.  (0.2 of the trigger: the same within 0.1 point; without the
 * refused-start rule 76.6/84.1; at 6 ms 77.1/84.1: Sanyo's leaders; no
 * hold: 77.0/84.7.)  From WEAK_TRIGGER_FAST_RATE up only: at 16 kHz it
 * gained 2/4 dB 46.4/83.7 -> 47.8/84.4 but lost test_demod_weak's 16 kHz
 * 6 dB trials 96.5 -> 94.4 % and made 5 wrong frames of its 4 dB τ 1 ms
 * ones (3 at main, bar 3); not traced. */
#define WEAK_FALL_DISP 0.1
#define WEAK_FALL_PAIR_US 12000.0
#define WEAK_FALL_HOLD_US 3000.0
/* The rise of a leader under a 1 ms coupling: the idle level's tracker
 * (IDLE_TRACK_US) follows the lit, drooping pulse from its first sample,
 * at about A / 2 ms, while the weak band (WEAK_BAND_US) needs 0.2-0.3 ms
 * to rise, to ~0.74 A under the droop: by then the level has come
 * 0.1-0.15 A after it, and a rise that stood over the trigger from the
 * dark level stayed under it from the level (traced at main 2b74333,
 * 44.1 kHz 0 dB τ 1 ms: 7 of rc6_0's 22 lost frames; over the leader the
 * band reached 0.85-0.96 of the trigger from the level, 1.14-1.30 from the
 * slow baseline; the other 15 were started at the rise and lost later).
 * So the weak band also triggers from the slow baseline (BASELINE_US,
 * which a 2.7 ms pulse barely moves), at WEAK_BASE_TRIGGER times its
 * trigger (the baseline's own wander against the level: hum, the line's
 * recovery), in the line's polarity (d->pol) once it is known, and the
 * weak start is then made from the baseline.  (Either way before the
 * polarity was known, it gained 2.9 points at 44.1 kHz -2 dB, but a
 * stream's start at 16 kHz 10 dB lost its first 5 sanyo frames: DC
 * 100 -> 95 %; the strong line is byte-identical without it.)  On the idle
 * path the test rides in the band lanes' spare fourth lane (nothing more
 * per sample); that lane takes its absolute value, and a stretch that
 * departs the other way is left to the scalar steps, which test the
 * polarity and stay on the idle path.  (Taken either way, a noise start
 * against the known polarity kept the wrong one for 11 s: sanyo DC 48 kHz
 * 0 dB 99 -> 58 %.  Refused only on the full path, each such departure
 * took the line off the idle path, whose return sets its level to the
 * full path's, which follows a pulse within 150 µs: 44.1/48 kHz 0 dB
 * 87.6/86.3 %, with no start from the baseline before the polarity was
 * known.)  A start from the baseline that the
 * acquisition refuses also arms the refused-start rule (WEAK_FALL_PAIR_US)
 * below WEAK_TRIGGER_FAST_RATE: at 16 kHz its fall otherwise started a
 * frame the wrong way (sanyo DC 2 dB 82 -> 62 %, rc5 DC 4 dB 100 -> 84).
 * `limit --rates 44100,48000 --taus 1,5,0 --snr -2,0,2` (main 2b74333 ->
 * this), 44.1/48 kHz: -2 dB 53.4/61.1 -> 58.0/66.4 %, 0 dB 89.3/92.6 ->
 * 90.2/92.7, 2 dB 98.2/98.7 -> 98.3/98.6; `--rates 16000 --snr 2,4`:
 * 48.7 -> 55.6, 85.6 -> 89.7.  (Measured with the start before the
 * polarity is known: at 1.0 -2 dB 62.0/68.6, 0 dB 91.1/92.9, but 2 dB
 * 98.0/98.4; at 1.25 56.0/62.9, 89.7/92.6, 98.1/98.7.)  Idle cost
 * (bench/callgrind.sh) 24.4 -> 24.5 instructions a sample: the
 * housekeeping's. */
#define WEAK_BASE_TRIGGER 1.1f

enum line_state {
	LINE_SPACE = 0,
	LINE_PULSE = 1,
};


struct ir_demod {
	struct ir_demod_config cfg;
	ir_demod_edge_fn edge_fn;
	ir_demod_space_fn space_fn;
	void *userdata;
	double us_per_sample;

	/* band-limiting filter */
	float fast_g, slow_g, mid_g, low_g; /* slow_g: the narrow band in use (mid or low) */
	double slow_us;                     /* and its time constant */
	float f1, f2, s1, s2; /* the two band filters' sections */
	bool use_slow;
	struct ir_carrier *carrier; /* NULL below 66 kHz */
	double carrier_hz, carrier_duty; /* last estimate, for the report */
	bool idle_fast;   /* on the idle fast path (see process_sample) */
	float idle_level, idle_thr, idle_a;
	/* the idle path's weak trigger from the baseline, its floor and polarity (see WEAK_BASE_TRIGGER) */
	float weak_base_thr, weak_base_floor, weak_base_dir;
	/* the polarity in which the drooped-step band is tested from the
	 * baseline on the idle path (0: from the idle level, either way; see
	 * DROOP_FROM_BASE) */
	float droop_base_dir;
	/* the reference the idle path measures the drooped-step band's noise
	 * from (demod_droop_noise_from_base's choice, made in demod_idle_enter): the
	 * idle level, or droop_base, the baseline as a float (set in the
	 * housekeeping) while the band is tested from it either way (see
	 * DROOP_FIRST_MIN_RATE) */
	const float *droop_ref;
	float droop_base;
	double idle_lim2, idle_rlim2;
	double fast_gain, slow_gain, mid_gain, low_gain; /* noise variance gains of the bands */
	float x_prev;
	double raw_noise2;           /* white-noise variance of the input */
	float y_prev; /* the band-limited signal at the previous sample */
	double band_delay_us;
	uint64_t n; /* samples processed */

	/* the line */
	enum line_state state;
	int pol;   /* +1 pulse high, -1 pulse low, 0 unknown */
	bool idle; /* dark long enough: the next edge in either direction starts a pulse */
	double level, slope, baseline;
	double decay;     /* AC-coupling decay rate per sample from earlier states */
	double decay_now; /* the rate used in this state */
	double decay_max;
	double decay_gap_max; /* samples: see DECAY_GAP_MAX_US */
	double decay_var, decay_var_max; /* the variance of decay, and before any state */
	double decay_est, decay_est_var; /* this state's estimate, with the earlier ones */
	struct ir_fastlog dlog; /* the decay rate's logarithm's table */
	bool narrow_valid; /* ...measured (narrow bands: see narrow_decay()) */
	bool decay_valid; /* this state measured its own rate */
	unsigned block_n, block_count;
	uint64_t block1_center;
	double block1, block_sum;
	double block1_inv; /* 1 / the first block's sum */
	unsigned warmup_n;
	double step;   /* typical |edge height| */
	bool step_known; /* measured on a settled edge (else a provisional guess) */
	double noise2; /* noise variance in the detection band */
	double noise_sd; /* its square root, kept up to date with it */
	unsigned noise_count;
	double track_a, track_b, alpha_noise, alpha_baseline;
	unsigned confirm_n, confirm_idle_n, settle_n, quiet_n;
	unsigned slow_edge_n; /* extra samples a candidate has to show its speed */
	uint64_t settle_until;

	/* candidate edge */
	bool cand;
	int cand_dir;
	int edge_dir; /* direction of the last edge */
	double cand_ref, cand_thr;
	double cand_cross; /* how far from cand_ref its time was taken */
	double cand_band_us, cand_delay_us; /* the band it was seen on, the delay taken off */
	double cand_t; /* µs */
	uint64_t cand_quiet; /* samples into the candidate */
	unsigned cand_confirm_n;
	double cand_fast;    /* largest recent change in its direction */
	double recent;       /* the signal a few band rise times ago (one pole) */
	double recent_g;

	/* edge bookkeeping */
	bool have_edge;      /* an edge was reported (else the last edge is stream start) */
	double last_edge_us; /* precise time of the last edge */
	uint64_t last_edge_rounded;
	bool timed_out;
	/* the provisional first pulse (see RETRACT_RATIO): the darkness before
	 * it starts at held_from_*, the pulse at held_pulse_us; once it ended
	 * (held_ended) it lasted until held_end_us.  None of it is reported
	 * yet. */
	bool held, held_ended;
	bool held_timed_out, held_have_edge;
	double held_from_us, held_pulse_us, held_end_us;
	uint64_t held_from_rounded;
	double held_thr; /* how far from the old level its first edge's time was taken */
	double held_band_us, held_delay_us; /* and on which band, with which delay */
	/* noise rise check (see RISE_BLOCK_US) */
	double rise_r2;     /* sum of squared detrended residuals in this block */
	double rise_mean;   /* the residuals' recent mean */
	bool rise_seeded;   /* rise_mean holds this activity's mean (false from idle on) */
	double rise_mean_g;
	unsigned rise_n, rise_near, rise_block_n; /* samples, those near the threshold */
	uint32_t deadline_us;
	double timers_from_us; /* the timeout or MAX_PULSE_US, the nearer (see line_timers in ir_demod_line.c) */
	uint64_t state_start_n;
	bool ref_settled; /* the state before the last edge lasted past its settling */

	/* the stream's first edges, held until the dark state is known (see
	 * START_PROOF_US) */
	bool start_open;
	struct ir_edge start_buf[START_HOLD_MAX];
	unsigned start_len, start_edges;
	/* the stream's first samples, held for the noise floor (see PRIME_LAG_BANDS) */
	bool priming;
	float *prime, *prime_scratch;
	unsigned prime_len;

	/* the weak-signal detector (see WEAK_BAND_US) */
	float w1, w2, weak_g;  /* its band, on the raw input */
	double weak_band_us;   /* and its time constant (see weak_band_for) */
	double weak_gain;      /* the band's noise variance gain */
	double weak_noise2;    /* its noise variance, measured in the dark */
	double alpha_weak_noise; /* ...averaged so (see WEAK_NOISE_US), */
	unsigned weak_noise_k, weak_noise_fast_k; /* after this many updates */
	float weak_thr;        /* idle trigger: weak_trigger σ */
	double weak_trigger;   /* WEAK_TRIGGER, or the fast rules' σ at their rates */
	bool weak_fast_rates;  /* the fast rules apply at this rate (weak_trigger_for) */
	double weak_white;     /* its white-noise gate (see WEAK_WHITE) */
	bool weak_on;          /* the weak detector runs at this rate */
	bool weak;             /* a weak frame is being decoded */
	bool weak_acq;         /* ...its first pulse is being measured */
	double weak_b;         /* baseline */
	double weak_cross_t;   /* where the trigger crossed */
	double weak_acq_sum, weak_dir;
	unsigned weak_acq_n, weak_acq_len;
	double weak_k_min;     /* the slowest coupling rate taken from a state */
	/* seqdet hook: a weak frame's decisions, after its first pulse is
	 * measured, are the sequence detector's (ir_seqdet.h); NULL where the
	 * weak detector is off */
	struct ir_seqdet *seqdet;
	bool weak_seq;         /* it is deciding now */
	uint64_t weak_seq_n;   /* the sample it started deciding at */
	double weak_t0_us;     /* ...and the time its first pulse began at */
	int weak_pol_before;   /* the polarity before it (see weak_take_back) */
	double weak_horizon_us; /* it decided everything before this */
	/* it gave the line back after WEAK_GIVE_BACK_US of darkness: the
	 * weak trigger waits for the next frame until the line times out */
	bool weak_wait;
	double weak_wait_g;    /* the idle level's tracking rate there */
	/* samples the weak band has stayed under the trigger since the
	 * detector took a start back, and how many re-arm it (WEAK_REARM_US) */
	unsigned weak_quiet_n, weak_rearm_n;
	/* the weak band's idle level on the full path, and for how many
	 * samples it has followed an idle line (see demod_weak_idle_sample) */
	double weak_idle;
	unsigned weak_idle_n;
	uint64_t weak_idle_at; /* the sample it last followed */
	/* the weak band's last strong_d samples (see STRONG_LOOK_US) */
	float strong_hist[STRONG_HIST_MAX];
	unsigned strong_d, strong_i, strong_n;
	/* the drooped-step band (see DROOP_BAND_US): its sections, gain,
	 * noise variance gain, noise variance measured as the weak band's,
	 * and its trigger (INFINITY: off) */
	float d1, d2, droop_g, droop_thr;
	double droop_gain, droop_noise2;
	/* ...its sections' length where it runs below WEAK_TRIGGER_FAST_RATE:
	 * DROOP_BAND_LOW_US (droop_low; the other length's gain and noise
	 * gain kept beside), DROOP_BAND_US while the idle level's departure
	 * from the baseline (droop_hum2, averaged) says hum (see DROOP_HUM_ON) */
	bool droop_low_ok, droop_low;
	float droop_g_alt;
	double droop_gain_alt, droop_hum2, droop_hum_g;
	float droop_acc; /* squared deviations gathered for it (demod_droop_noise) */
	unsigned droop_acc_n;
	/* ...gathered every IDLE_NOISE_EVERY samples (else one every
	 * IDLE_HOUSEKEEPING: see DROOP_NOISE_SPARSE_RATE) */
	bool droop_gather;
	bool droop_first; /* ...and runs before the stream's first edge (see DROOP_FIRST_TRIGGER) */
	uint64_t droop_first_n; /* ...from this sample on (see DROOP_FIRST_ARM_US) */
	bool weak_droop; /* the weak start in progress was the drooped-step band's */
	/* a trigger out of idle taken for a missed pulse's fall (see
	 * WEAK_FALL_DISP): its direction (0: none) and sample */
	int weak_fall_dir;
	uint64_t weak_fall_n;
	/* the last start the acquisition refused: its direction, sample */
	int weak_refused_dir;
	bool weak_from_base, weak_refused_base; /* the weak start, the refused one, came from the baseline */
	uint64_t weak_refused_n;
	bool droop_on;   /* the band runs at this rate (see DROOP_MAX_RATE) */

	/* envelope hook: a photodiode's carrier energy added to the samples
	 * (ir_envelope.h) at rates that hold the carrier; NULL below 66 kHz.
	 * The samples go through env_buf in chunks. */
	struct ir_envelope *envelope;
	float env_buf[256];
	const float *env_raw; /* the input sample of the one in process, for ir_carrier */

	/* the last LOOKBACK_US of input (see ir_lookback.h) */
	struct ir_lookback lb;

	/* report */
	double peak, clipped_samples, report_samples;
	uint64_t edges;

	/* the decay's lag and the receiver's stretch (see DECAY_EDGE_BANDS
	 * and STRETCH_MIN_RUNS) */
	/* narrow bands: the latest blocks, not yet known to be clear of the
	 * next edge's approach (see DECAY_EDGE_BANDS) */
	double lag_mean[DECAY_LAG_MAX];
	uint64_t lag_center[DECAY_LAG_MAX];
	unsigned lag_len, decay_lag; /* ...how many, and how many it takes */
	/* the receiver's mark stretch (see STRETCH_MIN_RUNS) */
	double stretch_us;          /* from earlier activities: told back */
	double stretch_last_us;     /* the last activity's alone */
	double run_pmin, run_smin;  /* this activity's shortest mark and space */
	unsigned run_np, run_ns;    /* ...of how many */
};

/* Samples in one of the AC coupling's decay blocks (DECAY_BLOCK_US, at
 * least 2). */
static inline unsigned demod_decay_block_n(double us_per_sample)
{
	unsigned n = (unsigned)ceil(DECAY_BLOCK_US / us_per_sample);

	return n < 2 ? 2 : n;
}

/* The coefficient of a one-pole section y += g (x - y) with time constant
 * tc_us, at us_per_sample. */
static inline double demod_alpha_for(double tc_us, double us_per_sample)
{
	return 1.0 - exp(-us_per_sample / tc_us);
}

/* The gain of one update of the weak band's noise (one in IDLE_NOISE_EVERY
 * samples; see WEAK_NOISE_US), counted. */
static inline double demod_weak_noise_gain(struct ir_demod *d)
{
	bool early = d->weak_noise_k < d->weak_noise_fast_k;

	if (early)
		d->weak_noise_k++;
	return (early || !d->have_edge ? d->alpha_noise : d->alpha_weak_noise) * IDLE_NOISE_EVERY;
}

/* Every IDLE_HOUSEKEEPING samples of a dark line: the drooped-step band's
 * noise takes in the mean of the squared deviations gathered since
 * (droop_acc, one every IDLE_NOISE_EVERY samples as the weak band's),
 * limited to `lim_sigmas2` times its variance, at the weak band's rate of
 * averaging.  (Folded in one by one, as the weak band's, the idle path
 * cost 2.3 instructions a sample more, 26.3; one sample every
 * IDLE_HOUSEKEEPING instead made the estimate too coarse at 16 kHz: its
 * 6 dB τ 5 ms/DC mean fell to 77.7 %.)  From DROOP_NOISE_SPARSE_RATE up
 * see demod_droop_noise_sparse. */
static inline void demod_droop_noise(struct ir_demod *d, double lim_sigmas2)
{
	double lim2, k, acc, g;
	bool early;

	/* (first: nothing gathered where the band is off, and its loads cost
	 * the idle path 0.2 instructions a sample) */
	if (!d->droop_gather)
		return;
	lim2 = lim_sigmas2 * d->droop_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
	k = d->droop_acc_n;
	acc = d->droop_acc;
	early = d->weak_noise_k < d->weak_noise_fast_k;
	g = (early || !d->have_edge ? d->alpha_noise : d->alpha_weak_noise) * IDLE_NOISE_EVERY;
	/* (k updates of gain g toward their mean m: g k (m - v), m = acc / k;
	 * g k stays under 0.19, see noise_alpha_for) */
	d->droop_noise2 += g * ((acc < k * lim2 ? acc : k * lim2) - k * d->droop_noise2);
	d->droop_acc = 0;
	d->droop_acc_n = 0;
}

/* The drooped-step band's sections (see DROOP_BAND_LOW_US): DROOP_BAND_LOW_US
 * or DROOP_BAND_US (`low` false), its noise variance carried over by the
 * ratio of the two noise gains. */
static inline void demod_droop_sections(struct ir_demod *d, bool low)
{
	float g = d->droop_g;
	double gain = d->droop_gain;

	if (low == d->droop_low || !d->droop_low_ok)
		return;
	d->droop_g = d->droop_g_alt;
	d->droop_gain = d->droop_gain_alt;
	d->droop_g_alt = g;
	d->droop_gain_alt = gain;
	d->droop_noise2 *= d->droop_gain / gain;
	d->droop_low = low;
}

/* Every IDLE_HOUSEKEEPING samples of a dark line where the long sections
 * may run (on the idle path and the full path's dark, `level` the idle
 * level it follows): the idle level's departure from the slow baseline,
 * squared and averaged over WEAK_NOISE_US, against the input's own white
 * noise (raw_noise2); the long sections while it is under the hum's
 * bound (DROOP_HUM_ON) and the step learnt under DROOP_LOW_MAX_SNR_DB. */
static inline void demod_droop_hum(struct ir_demod *d, double level)
{
	double h = level - d->baseline;
	bool low;

	/* (every DROOP_HUM_EVERY housekeepings: see DROOP_HUM_ON) */
	if (d->n % (IDLE_HOUSEKEEPING * DROOP_HUM_EVERY) != 0)
		return;
	d->droop_hum2 += d->droop_hum_g * (h * h - d->droop_hum2);
	low = d->droop_hum2 < (d->droop_low ? DROOP_HUM_ON : DROOP_HUM_OFF) * d->raw_noise2 &&
	      d->step * d->step < DROOP_LOW_MAX_STEP2 * d->raw_noise2;
	if (low != d->droop_low)
		demod_droop_sections(d, low);
}

/* ...and from DROOP_NOISE_SPARSE_RATE up (the band on, not gathered): one
 * deviation now, from `ref` (the idle level, or the baseline where the
 * band is tested from it either way), weighed as DROOP_SPARSE_WEIGHT
 * gathered ones. */
static inline void demod_droop_noise_sparse(struct ir_demod *d, double lim_sigmas2, double ref)
{
	double dd = (double)d->d2 - ref, dd2 = dd * dd;
	double lim2 = lim_sigmas2 * d->droop_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
	bool early = d->weak_noise_k < d->weak_noise_fast_k;
	double g = (early || !d->have_edge ? d->alpha_noise : d->alpha_weak_noise) *
		   (IDLE_NOISE_EVERY * DROOP_SPARSE_WEIGHT);

	d->droop_noise2 += g * ((dd2 < lim2 ? dd2 : lim2) - d->droop_noise2);
}

/* The polarity in which the drooped-step band is tested from the slow
 * baseline (see DROOP_FROM_BASE): the line's; DROOP_BASE_EITHER before the
 * stream's first edge while it is unknown (see DROOP_FIRST_TRIGGER); 0
 * (from the idle level, either way) otherwise. */
static inline float demod_droop_base_dir(const struct ir_demod *d)
{
	if (!DROOP_FROM_BASE || !d->droop_on)
		return 0;
	if (d->pol != 0)
		return (float)d->pol;
	return d->droop_first && !d->have_edge ? DROOP_BASE_EITHER : 0;
}

/* Whether the drooped-step band's noise is measured from the slow
 * baseline: where the band is tested from it either way (before the
 * stream's first edge: see DROOP_FIRST_TRIGGER); else from the idle
 * level.  (The idle path decides it once, in demod_idle_enter: droop_ref.) */
static inline bool demod_droop_noise_from_base(const struct ir_demod *d)
{
	return d->droop_first && !d->have_edge && d->pol == 0;
}

/* ...the reference so: the baseline, or the idle level `level`. */
static inline double demod_droop_noise_ref(const struct ir_demod *d, double level)
{
	return demod_droop_noise_from_base(d) ? d->baseline : level;
}

static inline double demod_threshold(const struct ir_demod *d)
{
	double t = NOISE_FACTOR * d->noise_sd;
	double s = STEP_FRACTION * d->step;

	if (s > t)
		t = s;
	return t > THRESHOLD_FLOOR ? t : THRESHOLD_FLOOR;
}

/* How far one sample may move the level tracker: 3 σ or a tenth of the
 * step, enough to follow droop and hum, not an edge before it is seen. */
static inline double demod_track_limit(const struct ir_demod *d)
{
	double lim = 3 * d->noise_sd;

	if (lim < 0.1 * d->step)
		lim = 0.1 * d->step;
	return lim > THRESHOLD_FLOOR ? lim : THRESHOLD_FLOOR;
}

#endif
