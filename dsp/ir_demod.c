/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_demod.h"

#include "ir_carrier.h"
#include "ir_envelope.h"
#include "ir_lookback.h"
#include "ir_seqdet.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
/* The idle path's (slower) level tracker: see set_settle(). */
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
 * thresholds set again every IDLE_HOUSEKEEPING (see enter_idle_fast). */
#define IDLE_NOISE_EVERY 16
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
/* decay_log()'s table: 2^DLOG_BITS intervals of [0.707, 1.414) */
#define DLOG_BITS 7
#define DLOG_N (1u << DLOG_BITS)

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
/* The idle trigger stays over this fraction of a step learnt earlier.  At
 * the wide band's STEP_FRACTION (0.4) it stood over RC-MM's short pulses
 * as the 100 µs band shows them, once the trigger followed the line on
 * the narrow band as well (weak_idle_sample): rcmm32 6 dB τ 1 ms, 44.1 /
 * 48 kHz, 89 / 92 % (75 % with another seed) where 0.25 gives 90 / 99
 * (95); the means at 6 dB 98.8 / 99.2 -> 99.0 / 99.6 % (no floor at all:
 * the same figures). */
#define WEAK_STEP_FRACTION 0.25
#define WEAK_ACQUIRE_US 400.0
/* The input kept (ir_lookback.h): the acquisition and LOOKBACK_BACK_US
 * before the trigger, with room; the start is sought that far back (the
 * trigger fires up to ~300 µs into a pulse at 0 dB). */
#define LOOKBACK_US 1000.0
#define LOOKBACK_BACK_US 500.0
#define WEAK_MIN_STEP 4.0
/* A step from WEAK_MAX_STEP σ of the wide (fast) band up is the wide band's:
 * out of idle it starts only those (weak_owns_start), and the weak
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
 * dragged along by the wide band's tracker: see weak_idle_trigger.) */
#define WEAK_MAX_STEP 6.0
/* The sequence detector works with one-sample blocks: at 16 kHz too
 * (16 kHz 6 dB: 31.2 % of frames without it, 54.4 % with). */
#define WEAK_MIN_RATE 8000u
/* The weak trigger is off where the weak band's noise (measured on the idle
 * path) is under WEAK_WHITE of what the input's sample-to-sample noise
 * puts there (see weak_set_noise).  At 0.5 the ratio's own scatter at
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
 * τ 5 ms lost whole streams to the wide band). */
#define WEAK_WHITE 0.4
#define WEAK_WHITE_N 43.0
/* The coupling's rate assumed for the first pulse's droop, where no state
 * measured one (a τ of 3 ms), and the slowest rate taken from one. */
#define WEAK_TAU_START_US 3000.0
#define WEAK_TAU_MAX_US 200000.0

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
	double dlog_c[DLOG_N], dlog_l[DLOG_N]; /* decay_log()'s table */
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
	double timers_from_us; /* the timeout or MAX_PULSE_US, the nearer (see line_timers) */
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
	double weak_gain;      /* the band's noise variance gain */
	double weak_noise2;    /* its noise variance, measured in the dark */
	float weak_thr;        /* idle trigger: WEAK_TRIGGER σ */
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
	double weak_horizon_us; /* it decided everything before this */
	/* it gave the line back after WEAK_GIVE_BACK_US of darkness: the
	 * weak trigger waits for the next frame until the line times out */
	bool weak_wait;
	double weak_wait_g;    /* the idle level's tracking rate there */
	/* samples the weak band has stayed under the trigger since the
	 * detector took a start back, and how many re-arm it (WEAK_REARM_US) */
	unsigned weak_quiet_n, weak_rearm_n;
	/* the weak band's idle level on the full path, and for how many
	 * samples it has followed an idle line (see weak_idle_sample) */
	double weak_idle;
	unsigned weak_idle_n;
	uint64_t weak_idle_at; /* the sample it last followed */
	/* the weak band's last strong_d samples (see STRONG_LOOK_US) */
	float strong_hist[STRONG_HIST_MAX];
	unsigned strong_d, strong_i, strong_n;

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
};

static double alpha_for(double tc_us, double us_per_sample)
{
	return 1.0 - exp(-us_per_sample / tc_us);
}

/* Variance gain of two cascaded one-pole sections y += g (x - y) for white
 * noise: the sum of the squared impulse response g² (n + 1) aⁿ, a = 1 - g. */
static double band_noise_gain(double g)
{
	double a2 = (1 - g) * (1 - g);

	return g * g * g * g * (1 + a2) / ((1 - a2) * (1 - a2) * (1 - a2));
}

static void set_settle(struct ir_demod *d);
static void enter_idle_fast(struct ir_demod *d);
static void idle_housekeeping(struct ir_demod *d, float x);
static void fold_decay(struct ir_demod *d);
static void dlog_init(struct ir_demod *d);
static void seq_edge(void *userdata, double t_us, bool lit);
static void seq_horizon(void *userdata, double t_us);

/* The weak trigger's white-noise gate (see WEAK_WHITE) for idle-path noise
 * estimates that move by `a` per update: an exponential average of about
 * (2 - a) / a independent samples, the log of a ratio of two of them
 * scattering as the inverse square root of that. */
static double weak_white_for(double a)
{
	double n = (2 - a) / a;

	return n >= WEAK_WHITE_N ? WEAK_WHITE : pow(WEAK_WHITE, sqrt(WEAK_WHITE_N / n));
}

int ir_demod_new(const struct ir_demod_config *cfg, ir_demod_edge_fn edge_fn,
		 ir_demod_space_fn space_fn, void *userdata, struct ir_demod **out)
{
	struct ir_demod *d;

	if (!cfg || !edge_fn || cfg->sample_rate < 4000 || cfg->sample_rate > 1000000 ||
	    (cfg->polarity != IR_POLARITY_AUTO && cfg->polarity != IR_POLARITY_PULSE_HIGH &&
	     cfg->polarity != IR_POLARITY_PULSE_LOW))
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->cfg = *cfg;
	if (!d->cfg.timeout_us)
		d->cfg.timeout_us = DEFAULT_TIMEOUT_US;
	d->timers_from_us = d->cfg.timeout_us < MAX_PULSE_US ? d->cfg.timeout_us : MAX_PULSE_US;
	dlog_init(d);
	d->edge_fn = edge_fn;
	d->space_fn = space_fn;
	d->userdata = userdata;
	d->us_per_sample = 1e6 / cfg->sample_rate;
	d->fast_g = (float)alpha_for(BAND_FAST_US, d->us_per_sample);
	d->mid_g = (float)alpha_for(BAND_MID_US, d->us_per_sample);
	d->low_g = (float)alpha_for(BAND_SLOW_US, d->us_per_sample);
	d->slow_g = d->low_g;
	d->slow_us = BAND_SLOW_US;
	d->fast_gain = band_noise_gain(d->fast_g);
	d->mid_gain = band_noise_gain(d->mid_g);
	d->low_gain = band_noise_gain(d->low_g);
	d->slow_gain = d->low_gain;
	d->warmup_n = (unsigned)ceil(WARMUP_US / d->us_per_sample);
	if (d->warmup_n < 16)
		d->warmup_n = 16;
	d->alpha_noise = alpha_for(NOISE_US, d->us_per_sample);
	d->alpha_baseline = alpha_for(BASELINE_US, d->us_per_sample);
	/* At least two samples: converters' anti-alias filters ring at close
	 * to half the sample rate, alternating sign from one sample to the next. */
	d->confirm_n = (unsigned)ceil(CONFIRM_US / d->us_per_sample);
	if (d->confirm_n < 2)
		d->confirm_n = 2;
	d->confirm_idle_n = (unsigned)ceil(CONFIRM_IDLE_US / d->us_per_sample);
	if (d->confirm_idle_n < d->confirm_n)
		d->confirm_idle_n = d->confirm_n;
	/* The converter's filter rings for several samples at any rate. */
	set_settle(d);
	d->quiet_n = (unsigned)ceil(QUIET_US / d->us_per_sample);
	d->rise_block_n = (unsigned)ceil(RISE_BLOCK_US / d->us_per_sample);
	if (d->rise_block_n < RISE_BLOCK_MIN_SAMPLES)
		d->rise_block_n = RISE_BLOCK_MIN_SAMPLES;
	d->rise_mean_g = alpha_for(RISE_DETREND_US, d->us_per_sample);
	d->decay_max = alpha_for(DECAY_TAU_MIN_US, d->us_per_sample);
	d->decay_var = d->decay_var_max = d->decay_max * d->decay_max;
	d->decay_gap_max = DECAY_GAP_MAX_US / d->us_per_sample;
	d->block_n = (unsigned)ceil(DECAY_BLOCK_US / d->us_per_sample);
	/* (below WEAK_MIN_RATE a unit is too few samples even for the
	 * sequence detector's one-sample blocks: the trigger stays off) */
	d->weak_on = cfg->sample_rate >= WEAK_MIN_RATE;
	d->weak_g = (float)alpha_for(WEAK_BAND_US, d->us_per_sample);
	d->weak_gain = band_noise_gain(d->weak_g);
	d->weak_white = weak_white_for(d->alpha_noise * IDLE_NOISE_EVERY);
	d->weak_acq_len = (unsigned)ceil(WEAK_ACQUIRE_US / d->us_per_sample);
	d->weak_wait_g = alpha_for(IDLE_TRACK_US, d->us_per_sample);
	d->weak_rearm_n = d->weak_quiet_n = (unsigned)ceil(WEAK_REARM_US / d->us_per_sample);
	d->strong_d = (unsigned)ceil(STRONG_LOOK_US / d->us_per_sample);
	d->strong_d = d->strong_d < 2 ? 2 : d->strong_d > STRONG_HIST_MAX ? STRONG_HIST_MAX : d->strong_d;
	d->weak_k_min = alpha_for(WEAK_TAU_MAX_US, d->us_per_sample);
	if (d->block_n < 2)
		d->block_n = 2;
	d->pol = cfg->polarity;
	d->idle = true;
	d->priming = true;
	d->start_open = cfg->polarity == IR_POLARITY_AUTO;
	d->prime = calloc(2 * (size_t)d->warmup_n, sizeof(float));
	if (!d->prime) {
		free(d);
		return -ENOMEM;
	}
	d->prime_scratch = d->prime + d->warmup_n;
	if (cfg->sample_rate >= 66000) {
		int ret = ir_carrier_new(cfg->sample_rate, &d->carrier);

		if (ret < 0) {
			free(d->prime);
			free(d);
			return ret;
		}
	}
	if (cfg->sample_rate >= 66000) { /* envelope hook */
		int ret = ir_envelope_new(cfg->sample_rate, &d->envelope);

		if (ret < 0) {
			ir_demod_free(d);
			return ret;
		}
	}
	if (d->weak_on) {
		int ret = ir_seqdet_new(cfg->sample_rate, seq_edge, seq_horizon, d, &d->seqdet);

		if (ret < 0) {
			ir_demod_free(d);
			return ret;
		}
	}
	if (ir_lookback_init(&d->lb, LOOKBACK_US, d->us_per_sample) < 0) {
		ir_demod_free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void ir_demod_free(struct ir_demod *d)
{
	if (!d)
		return;
	ir_carrier_free(d->carrier);
	ir_seqdet_free(d->seqdet);
	ir_envelope_free(d->envelope);
	ir_lookback_free(&d->lb);
	free(d->prime);
	free(d);
}

void ir_demod_set_space_deadline(struct ir_demod *d, uint32_t us)
{
	d->deadline_us = us;
}

/* The stream's first edges are told as they were held (flip false) or
 * with pulses and spaces swapped (the stream started inside a pulse). */
static void start_release(struct ir_demod *d, bool flip)
{
	d->start_open = false;
	for (unsigned i = 0; i < d->start_len; i++) {
		struct ir_edge e = d->start_buf[i];

		if (flip && e.kind == IR_PULSE)
			e.kind = IR_SPACE;
		else if (flip && e.kind == IR_SPACE)
			e.kind = IR_PULSE;
		d->edge_fn(d->userdata, &e);
	}
	d->start_len = 0;
}

static void emit(struct ir_demod *d, enum ir_edge_kind kind, uint32_t duration)
{
	struct ir_edge e = { .duration = duration, .kind = (uint8_t)kind };

	if ((kind == IR_PULSE || kind == IR_SPACE) && duration == 0)
		return;
	d->edges++;
	if (d->start_open) {
		if (d->start_len < START_HOLD_MAX) {
			/* merged as they will be told: a flip keeps them apart */
			d->start_buf[d->start_len++] = e;
			return;
		}
		start_release(d, false);
	}
	d->edge_fn(d->userdata, &e);
}

/* The carrier measured over the activity that just ended, if any. */
static void emit_carrier(struct ir_demod *d)
{
	double hz, duty;

	if (!d->carrier || !ir_carrier_estimate(d->carrier, &hz, &duty))
		return;
	d->carrier_hz = hz;
	d->carrier_duty = duty;
	ir_carrier_reset(d->carrier);
	d->edges++;
	d->edge_fn(d->userdata, &(struct ir_edge){ .duration = (uint32_t)lround(hz),
						   .kind = IR_CARRIER,
						   .duty_cycle = (uint8_t)lround(duty) });
}

/* Reports the state that ends at time `t_us` (µs since stream start) and
 * moves the last-edge mark there. */
static void close_state(struct ir_demod *d, double t_us)
{
	uint64_t rounded = (uint64_t)llround(t_us);
	uint64_t dur = rounded > d->last_edge_rounded ? rounded - d->last_edge_rounded : 0;

	if (d->state == LINE_SPACE && d->timed_out)
		dur = dur > d->cfg.timeout_us ? dur - d->cfg.timeout_us : 0;
	while (dur > 0) {
		uint32_t chunk = dur > IR_DURATION_MAX ? IR_DURATION_MAX : (uint32_t)dur;

		emit(d, d->state == LINE_PULSE ? IR_PULSE : IR_SPACE, chunk);
		dur -= chunk;
	}
	d->last_edge_us = t_us;
	d->last_edge_rounded = rounded;
	d->have_edge = true;
}

static void emit_span(struct ir_demod *d, enum ir_edge_kind kind, uint64_t from, uint64_t to)
{
	uint64_t dur = to > from ? to - from : 0;

	while (dur > 0) {
		uint32_t chunk = dur > IR_DURATION_MAX ? IR_DURATION_MAX : (uint32_t)dur;

		emit(d, kind, chunk);
		dur -= chunk;
	}
}

/* The provisional first pulse is real: reports what was held back. */
static void release_held(struct ir_demod *d)
{
	uint64_t from = d->held_from_rounded, pulse = (uint64_t)llround(d->held_pulse_us);

	if (d->held_timed_out)
		from += d->cfg.timeout_us;
	emit_span(d, IR_SPACE, from, pulse);
	if (d->held_ended)
		emit_span(d, IR_PULSE, pulse, (uint64_t)llround(d->held_end_us));
	d->held = false;
	d->have_edge = true;
}

static void set_band(struct ir_demod *d, int band);

/* Nothing learnt of the line holds: it is idle, its polarity (when
 * automatic) and step unknown, and the band is the wide one (a narrow band
 * is chosen for a step's height, see choose_band). */
static void forget_line(struct ir_demod *d)
{
	d->idle = true;
	if (d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = 0;
	d->step = 0;
	d->step_known = false;
	set_band(d, 0);
}

/* The provisional first pulse was a disturbance: the line has been dark
 * since the held mark, and is idle with nothing learnt from it. */
static void retract_held(struct ir_demod *d)
{
	d->held = false;
	d->start_edges = 0;
	d->state = LINE_SPACE;
	d->last_edge_us = d->held_from_us;
	d->last_edge_rounded = d->held_from_rounded;
	d->timed_out = d->held_timed_out;
	d->have_edge = d->held_have_edge;
	if (d->carrier)
		ir_carrier_burst_discard(d->carrier);
	forget_line(d);
}

/* Moves the last-edge mark to t_edge without reporting the state it ends
 * (held back). */
static void mark_edge(struct ir_demod *d, double t_edge)
{
	d->last_edge_us = t_edge;
	d->last_edge_rounded = (uint64_t)llround(t_edge);
}

/* While the stream's first edges are held, an edge far bigger than theirs
 * (RETRACT_RATIO, as for the provisional first pulse) shows that they were
 * the noise's: they are dropped, and this edge is the first out of idle. */
static void start_retract(struct ir_demod *d)
{
	d->start_len = 0;
	d->start_edges = 0;
	d->state = LINE_SPACE;
	d->timed_out = false;
	d->have_edge = false;
	d->last_edge_us = 0;
	d->last_edge_rounded = 0;
	if (d->carrier)
		ir_carrier_burst_discard(d->carrier);
	forget_line(d);
}

/* See START_PROOF_US: the "pulse" under way is darkness, so the stream
 * started lit. */
static void start_flip(struct ir_demod *d)
{
	if (d->held)
		release_held(d);
	if (d->carrier)
		ir_carrier_burst_discard(d->carrier);
	d->state = LINE_SPACE;
	d->pol = -d->pol;
	start_release(d, true);
}

static void confirm_edge(struct ir_demod *d)
{
	int dir = d->cand_dir;
	double t_edge = d->cand_t;

	if (d->start_open) {
		/* a first edge after long enough a wait starts a pulse */
		if (d->state == LINE_SPACE && t_edge - d->last_edge_us >= START_PROOF_US)
			start_release(d, false);
		else
			d->start_edges++;
	}

	if (d->held) {
		double height = fabs(d->y_prev - d->cand_ref);

		/* an edge far bigger than the first pulse's, or one that takes
		 * the line further in the pulse's direction */
		if (height > RETRACT_RATIO * d->step || (d->state == LINE_PULSE && dir == d->pol))
			retract_held(d);
		else if (d->state == LINE_SPACE)
			release_held(d); /* the second pulse starts: the first was real */
	} else if (d->start_open && d->have_edge &&
		   fabs(d->y_prev - d->cand_ref) > RETRACT_RATIO * d->step) {
		start_retract(d);
	}
	if (t_edge < d->last_edge_us)
		t_edge = d->last_edge_us;
	if (d->state == LINE_SPACE && (d->idle || d->pol == 0) &&
	    d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = dir;
	/* The edge callback may set a new deadline: clear the old one first. */
	d->deadline_us = 0;
	if (d->carrier && d->state == LINE_PULSE)
		ir_carrier_burst_end(d->carrier, d->step);
	if (d->state == LINE_SPACE && d->idle && !d->step_known) {
		d->held = true;
		d->held_ended = false;
		d->held_from_us = d->last_edge_us;
		d->held_from_rounded = d->last_edge_rounded;
		d->held_timed_out = d->timed_out;
		d->held_have_edge = d->have_edge;
		d->held_thr = d->cand_cross;
		d->held_band_us = d->cand_band_us;
		d->held_delay_us = d->cand_delay_us;
		d->held_pulse_us = t_edge;
		mark_edge(d, t_edge);
	} else if (d->held) {
		d->held_ended = true;
		d->held_end_us = t_edge;
		mark_edge(d, t_edge);
	} else {
		close_state(d, t_edge);
	}
	d->state = d->state == LINE_PULSE ? LINE_SPACE : LINE_PULSE;
	d->idle = false;
	d->timed_out = false;
	d->cand = false;
	/* Follow the new level quickly until it settles; cand_ref keeps the old
	 * level, to measure the step against.  The first edge's height stands
	 * for the step until a settled one is measured, so that the converter's
	 * ringing after it is not taken for the next edge. */
	d->level = d->y_prev;
	d->edge_dir = dir;
	if (d->step == 0)
		d->step = fabs(d->level - d->cand_ref);
	d->slope = 0;
	fold_decay(d);
	d->settle_until = d->n + d->settle_n;
	/* the level this edge left had settled (see settled()) */
	d->ref_settled = d->n - d->state_start_n >= d->settle_n;
	d->state_start_n = d->n;
}

static void choose_band(struct ir_demod *d);

/* The new level has settled: learn the step, and predict the droop. */
/* How many time constants the band filter (two equal one-pole sections)
 * takes to reach `fraction` of a step: 1 - e^-u (1 + u) = fraction. */
static double band_rise(double fraction)
{
	double lo = 0, hi = 20;

	for (int i = 0; i < 40; i++) {
		double u = 0.5 * (lo + hi);

		if (1 - exp(-u) * (1 + u) < fraction)
			lo = u;
		else
			hi = u;
	}
	return 0.5 * (lo + hi);
}

static void settled(struct ir_demod *d)
{
	double measured = fabs(d->level - d->cand_ref);
	bool first = d->step_known == 0;

	if (d->held && first && measured > d->held_thr) {
		/* The provisional edge crossed a noise threshold, lower on the
		 * step than the band delay assumes: now that the step is known,
		 * its time is corrected, before it is reported. */
		double t = d->held_pulse_us + d->held_delay_us -
			   band_rise(d->held_thr / measured) * d->held_band_us;

		if (t > d->held_from_us && !d->held_ended) {
			d->held_pulse_us = t;
			mark_edge(d, t);
		}
	}

	/* A state shorter than the band's settling (RC-MM's 167 µs pulses on
	 * the 40 µs band) never reached its level: an edge out of it is
	 * short of the step, and a step learnt from those shrinks until
	 * choose_band() picks a band that blurs such pulses away. */
	if (!d->step_known || d->ref_settled)
		d->step = d->step_known ? d->step + 0.25 * (measured - d->step) : measured;
	d->step_known = true;
	d->slope = 0;
	/* The first edge was found on the band the noise floor alone allowed;
	 * now that the step is known the wide band may do (a level, not an
	 * edge, is under way: switching is safe). */
	if (first)
		choose_band(d);
}

static inline double threshold(const struct ir_demod *d);

/* See RISE_BLOCK_US: one more settled residual of activity; true when a
 * block of them shows that the noise floor rose. */
static inline bool noise_rose(struct ir_demod *d, double r)
{
	double mean, dev;
	bool near;

	if (d->raw_noise2 >= SILENT_NOISE_SD * SILENT_NOISE_SD)
		return false;
	/* Seeded once per activity, then followed.  Seeded again at every
	 * block, the mean took the block's first residual, and when that was
	 * the approach of an edge (3/4 of the threshold) the flat residuals
	 * of the state after it counted as near for a whole detrend time: A1
	 * TV Box's 150 µs spaces at 96 kHz made that half of a block, and a
	 * noise-free frame was taken back as noise after its 5th edge. */
	if (!d->rise_seeded) {
		d->rise_mean = r;
		d->rise_seeded = true;
	}
	d->rise_mean += d->rise_mean_g * (r - d->rise_mean);
	dev = r - d->rise_mean;
	d->rise_r2 += dev * dev;
	if (fabs(dev) > 0.5 * threshold(d))
		d->rise_near++;
	if (++d->rise_n < d->rise_block_n)
		return false;
	mean = d->rise_r2 / d->rise_n;
	near = 2 * d->rise_near > d->rise_n;
	d->rise_n = 0;
	d->rise_near = 0;
	d->rise_r2 = 0;
	return near && mean > NOISE_RISE * NOISE_RISE * d->noise2;
}

/* The activity since idle was the noise rising: the line is dark, nothing
 * learnt from it holds, and the noise floor is measured again. */
static void relearn_noise(struct ir_demod *d)
{
	if (d->held) {
		retract_held(d);
	} else {
		if (d->state == LINE_PULSE) {
			if (d->carrier)
				ir_carrier_burst_discard(d->carrier);
			close_state(d, (double)d->n * d->us_per_sample);
			d->state = LINE_SPACE;
		}
		forget_line(d);
	}
	d->noise_count = 0;
	d->rise_seeded = false;
	d->rise_n = 0;
	d->rise_near = 0;
	d->rise_r2 = 0;
}

static inline double threshold(const struct ir_demod *d)
{
	double t = NOISE_FACTOR * d->noise_sd;
	double s = STEP_FRACTION * d->step;

	if (s > t)
		t = s;
	return t > THRESHOLD_FLOOR ? t : THRESHOLD_FLOOR;
}

/* How far one sample may move the level tracker: 3 σ or a tenth of the
 * step, enough to follow droop and hum, not an edge before it is seen. */
static inline double track_limit(const struct ir_demod *d)
{
	double lim = 3 * d->noise_sd;

	if (lim < 0.1 * d->step)
		lim = 0.1 * d->step;
	return lim > THRESHOLD_FLOOR ? lim : THRESHOLD_FLOOR;
}

/* The rate the level tracker's prediction uses: the estimate less one
 * standard deviation (a droop predicted that is not there is an edge; one
 * that is there and not predicted, the tracker follows), within [0, max]. */
static inline double decay_use(double k, double var, double max)
{
	k -= sqrt(var);
	return k < 0 ? 0 : k < max ? k : max;
}

/*
 * ln(x) for a finite x > 0 (normal, not subnormal), within one unit in the
 * last place of libm's log() (the same in ~90 % of arguments; checked over
 * 2e7 of them from 1e-17 to 1e17 and just under 1).  Inline because the
 * wide band's decay rate takes a logarithm every block (~3 samples at
 * 48 kHz) and the next sample's prediction waits for it: the call to libm
 * (which spills every live register) was 15 % of the frames path's time.
 *
 * x = 2^e z, z in [0.707, 1.414) split into DLOG_N intervals; with c near
 * 1/z (26 significant bits, so that the high half of z times c is exact)
 * and l = -ln c from the table, ln x = e ln 2 + l + ln(1 + r),
 * r = z c - 1, |r| < 2^-7; ln(1 + r) to r^8 (the next term is under
 * 2^-56 r).  The two intervals either side of 1 have c = 1 (no
 * cancellation between l and ln(1 + r) just under and over 1).
 */
#define DLOG_OFF UINT64_C(0x3fe6a00000000000) /* 0.70703125: √½ rounded down to 7 bits */

static double dlog_from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

static void dlog_init(struct ir_demod *d)
{
	uint64_t width = UINT64_C(1) << (52 - DLOG_BITS);

	for (unsigned i = 0; i < DLOG_N; i++) {
		double z0 = dlog_from_bits(DLOG_OFF + i * width);
		double z1 = dlog_from_bits(DLOG_OFF + (i + 1) * width);
		double c = z0 <= 1 && 1 <= z1 ? 1 : 2 / (z0 + z1);
		uint64_t u;

		memcpy(&u, &c, sizeof(u));
		c = dlog_from_bits(u & ~((UINT64_C(1) << 27) - 1));
		d->dlog_c[i] = c;
		d->dlog_l[i] = -log(c);
	}
}

static inline double decay_log(const struct ir_demod *d, double x)
{
	static const double ln2_hi = 6.93147180369123816490e-01; /* 0x3fe62e42fee00000 */
	static const double ln2_lo = 1.90821492927058770002e-10;
	uint64_t u, t, zu;
	int64_t e;
	unsigned i;
	double z, zh, c, r, r2, r4, p;

	memcpy(&u, &x, sizeof(u));
	t = u - DLOG_OFF;
	e = (int64_t)t >> 52;
	i = (unsigned)(t >> (52 - DLOG_BITS)) & (DLOG_N - 1);
	zu = u - ((uint64_t)e << 52);
	z = dlog_from_bits(zu);
	zh = dlog_from_bits(zu & ~((UINT64_C(1) << 26) - 1));
	c = d->dlog_c[i];
	r = (zh * c - 1) + (z - zh) * c;
	r2 = r * r;
	r4 = r2 * r2;
	/* ln(1 + r) = r + r² p(r), terms paired (Estrin) for a short chain */
	p = (-0.5 + r * (1.0 / 3)) + r2 * (-0.25 + r * 0.2) +
	    r4 * ((-1.0 / 6 + r * (1.0 / 7)) - r2 * 0.125);
	return ((double)e * ln2_hi + d->dlog_l[i]) + (r + (r2 * p + (double)e * ln2_lo));
}

/* Stable and unclipped: block means of the signal's distance from the
 * baseline; from the first clear one on, the decay since then. */
static inline void narrow_decay(struct ir_demod *d, double mean, double ratio, double gap);

static inline void measure_decay(struct ir_demod *d, double y)
{
	double sum, mean, ratio, k, gap;

	d->block_sum += y - d->baseline;
	if (++d->block_count < d->block_n)
		return;
	sum = d->block_sum;
	d->block_sum = 0;
	d->block_count = 0;
	if (!d->block1_center) {
		mean = sum / d->block_n;
		/* The first block must stand clear of the noise (4 σ of a mean)
		 * and a quarter step away from the baseline: near it a ratio
		 * of block means says nothing (a DC-coupled space). */
		if (mean * mean * d->block_n < 16 * d->noise2 || fabs(mean) < 0.25 * d->step)
			return;
		d->block1 = mean;
		d->block1_inv = 1 / sum;
		d->block1_center = d->n - d->block_n / 2;
		return;
	}
	if (d->n - d->block_n / 2 < d->block1_center + DECAY_MIN_BLOCKS * d->block_n)
		return;
	gap = (double)(d->n - d->block_n / 2 - d->block1_center);
	if (d->use_slow) {
		mean = sum / d->block_n;
		narrow_decay(d, mean, mean / d->block1, gap);
		return;
	}
	/* The ratio of the block means as that of their sums, and over the
	 * gap as times its reciprocal: the same to a unit in the last place,
	 * and no division waits for the signal (the next sample's prediction
	 * waits for k: two divisions and a call to libm's log() there were
	 * a fifth of the frames path's time). */
	ratio = sum * d->block1_inv;
	/* Past a twentieth the decay is lost in the noise and the next edge. */
	if (ratio < 0.05)
		ratio = 0.05;
	k = ratio >= 1 ? 0 : -decay_log(d, ratio) * (1 / gap);
	d->decay_now = k < d->decay_max ? k : d->decay_max;
	d->decay_valid = true;
}

/* measure_decay() on the narrow bands (low SNR), where one state's
 * stretch is too noisy to be taken as the rate. */
static inline void narrow_decay(struct ir_demod *d, double mean, double ratio, double gap)
{
	double k, var, prec;

	/* Once the signal is a tenth of the first block's, or lost in the
	 * noise, the ratio says little more: the rate measured so far stays. */
	if (ratio < 0.1 || mean * mean < 16 * d->noise2)
		return;
	/* Far from the edge the baseline's own error (hum, a slow wander)
	 * is what the ratio reads, not the coupling. */
	if (gap > d->decay_gap_max)
		return;
	/* The rate and its variance from the two means' noise (a block mean
	 * of the band is taken as noisy as one sample of it: on the narrow
	 * bands the block is shorter than the band's memory), combined with
	 * what earlier states taught by their precisions: on a noisy input
	 * one state's short stretch says little (a DC-coupled line must not
	 * be made to droop by it), a long state under a fast coupling (NEC's
	 * 9 ms leader under 1 ms) says much.  A rise (ratio > 1) counts as a
	 * negative rate, so that noise averages out instead of only ever
	 * adding droop. */
	k = -log(ratio > 0 ? ratio : 1e-9) / gap;
	var = (d->noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR) *
	      (1 / (d->block1 * d->block1) + 1 / (mean * mean)) / (gap * gap);
	prec = 1 / d->decay_var + 1 / var;
	/* the state's best stretch (later blocks sink into the noise) */
	if (d->decay_valid && 1 / prec >= d->decay_est_var)
		return;
	d->decay_est = (d->decay / d->decay_var + k / var) / prec;
	d->decay_est_var = 1 / prec;
	d->decay_valid = true;
	d->narrow_valid = true;
	d->decay_now = decay_use(d->decay_est, d->decay_est_var, d->decay_max);
}

/* At an edge: a state that measured its own decay teaches the next. */
static void fold_decay(struct ir_demod *d)
{
	if (d->use_slow) {
		if (d->narrow_valid) {
			d->decay = d->decay_est;
			d->decay_var = d->decay_est_var;
		}
		/* the coupling may change (another input): old states count less */
		d->decay_var *= DECAY_FORGET;
		if (d->decay_var > d->decay_var_max)
			d->decay_var = d->decay_var_max;
		d->decay_now = decay_use(d->decay, d->decay_var, d->decay_max);
	} else {
		if (d->decay_valid)
			d->decay += DECAY_STATE_WEIGHT * (d->decay_now - d->decay);
		d->decay_now = d->decay;
	}
	d->decay_valid = false;
	d->narrow_valid = false;
	d->block1_center = 0;
	d->block_sum = 0;
	d->block_count = 0;
}

static void set_settle(struct ir_demod *d)
{
	double band = d->use_slow ? d->slow_us : BAND_FAST_US;

	/* Two one-pole sections reach STEP_FRACTION of a step after about
	 * 1.4 time constants (1 - e^-1.4 (1 + 1.4) = 0.41). */
	d->band_delay_us = 1.4 * band;
	d->recent_g = alpha_for(RECENT_BANDS * band > 2 * d->us_per_sample ? RECENT_BANDS * band
									   : 2 * d->us_per_sample,
				d->us_per_sample);
	{
		/* A critically damped fading-memory filter, several times slower
		 * than the band's rise (or it follows an edge before the edge
		 * crosses the threshold), and never faster than 6 samples (or at
		 * low rates it follows the converter's ringing). */
		double track_us = TRACK_US + TRACK_BANDS * band;
		double theta;

		if (track_us < 6 * d->us_per_sample)
			track_us = 6 * d->us_per_sample;
		theta = exp(-d->us_per_sample / track_us);
		d->track_a = 1 - theta * theta;
		d->track_b = (1 - theta) * (1 - theta);
		/* Idle, the level only follows hum and drift, slowly enough
		 * (2 ms) that the few samples of an edge's rise under the
		 * threshold cannot drag it along. */
		d->idle_a = (float)alpha_for(IDLE_TRACK_US > track_us ? IDLE_TRACK_US : track_us,
					     d->us_per_sample);
	}
	d->slow_edge_n = (unsigned)ceil(band / d->us_per_sample);
	d->settle_n = (unsigned)ceil((SETTLE_US + SETTLE_BANDS * band) / d->us_per_sample);
	if (d->settle_n < 3)
		d->settle_n = 3;
}

/* While idle: detect on the wide band if edges will stand out there,
 * otherwise on the narrow one.  Switching restarts the level tracker on the
 * new band's signal. */
static void set_band(struct ir_demod *d, int band);

static void choose_band(struct ir_demod *d)
{
	double limit;
	int band;

	/* Until a step has been measured the wide band is used: its noise
	 * threshold still shows a step 7 times its σ, i.e. down to about 6 dB
	 * SNR at 48 kHz, and a narrower band would blur a first edge into
	 * the droop of a strongly AC-coupled input. */
	if (!d->step_known)
		return;
	limit = BAND_SNR_MIN * BAND_SNR_MIN * d->raw_noise2;
	if (d->step * d->step >= limit * d->fast_gain)
		band = 0;
	else if (d->step * d->step >= BAND_MID_SNR_MIN * BAND_MID_SNR_MIN * d->raw_noise2 * d->mid_gain)
		band = 1;
	else
		band = 2;
	set_band(d, band);
}

/* 0: the wide band, 1: BAND_MID_US, 2: BAND_SLOW_US. */
static void set_band(struct ir_demod *d, int band)
{
	bool slow = band > 0;
	float y;

	if (slow == d->use_slow && (!slow || d->slow_g == (band == 1 ? d->mid_g : d->low_g)))
		return;
	if (slow != d->use_slow) {
		/* Block means are too noisy there for the wide band's
		 * per-state rate (and a rate measured on the wide band at this
		 * noise level would be mostly noise): the narrow bands learn
		 * it afresh, weighing each state by its precision (see
		 * narrow_decay()); and back on the wide band its own
		 * estimate starts afresh too. */
		d->decay = d->decay_now = 0;
		d->decay_var = d->decay_var_max;
		d->decay_valid = d->narrow_valid = false;
	}
	d->use_slow = slow;
	if (slow) {
		d->slow_g = band == 1 ? d->mid_g : d->low_g;
		d->slow_gain = band == 1 ? d->mid_gain : d->low_gain;
		d->slow_us = band == 1 ? BAND_MID_US : BAND_SLOW_US;
		d->s1 = d->s2 = d->f2; /* the narrow band starts from the wide one */
	}
	set_settle(d);
	y = slow ? d->s2 : d->f2;
	d->level = y;
	d->recent = y;
	d->slope = 0;
	d->noise2 = d->raw_noise2 * (slow ? d->slow_gain : d->fast_gain);
	d->noise_sd = sqrt(d->noise2);
	d->y_prev = y;
}

static void line_timers(struct ir_demod *d);

/* The weak band's σ, and the idle trigger that follows from it. */
/* The stream's start is the wide band's (see weak_set_noise). */
static bool weak_start_held(const struct ir_demod *d)
{
	return d->start_open &&
	       (d->start_len > 0 || (double)d->n * d->us_per_sample < START_PROOF_US);
}

static void weak_set_noise(struct ir_demod *d, double noise2)
{
	double thr = WEAK_TRIGGER * sqrt(noise2) + THRESHOLD_FLOOR;

	/* a step learnt earlier sets a floor (ripple, droop residue and
	 * ringing stay under it; see WEAK_STEP_FRACTION) */
	if (thr < WEAK_STEP_FRACTION * d->step)
		thr = WEAK_STEP_FRACTION * d->step;
	d->weak_noise2 = noise2;
	/* Off (a threshold no float can reach) on (near-)digital silence: a
	 * weak signal needs a noise floor to be weak against, and the noise's
	 * own arrival after silence is the wide band's to handle (see
	 * NOISE_RISE).  Nor where the band's noise is far below what the
	 * input's sample-to-sample noise puts in it: no noise at all, the
	 * differences reading a clean signal's own slopes, where what the
	 * weak band would see are a strong signal's ripples and droop.  Nor
	 * while the stream's first edges are held (START_PROOF_US): an
	 * AC-coupled recording's start droops, and the first frame's cold
	 * start is the wide band's. */
	d->weak_thr = d->weak_on && !weak_start_held(d) && d->raw_noise2 >= SILENT_NOISE_SD * SILENT_NOISE_SD &&
				      noise2 >= d->weak_white * d->raw_noise2 * d->weak_gain
			      ? (float)thr
			      : INFINITY;
}

/* The height (on the raw input) from which a step is the wide band's. */
static double weak_strong(const struct ir_demod *d)
{
	return WEAK_MAX_STEP * sqrt(d->raw_noise2 * d->fast_gain);
}

/* True where a frame that starts now is the sequence detector's unless it
 * is strong (WEAK_MAX_STEP): the line idle and dark, nothing held, the
 * detector on, and no carrier path (at 66 kHz
 * and up a bare photodiode's envelope is the wide band's: the rule lost
 * its frames at 192 kHz). */
static bool weak_owns_start(const struct ir_demod *d)
{
	return d->seqdet && !d->carrier && d->idle && !d->held && d->state == LINE_SPACE &&
	       isfinite(d->weak_thr) && !weak_start_held(d);
}

/* Time (µs) where `prev` (sample n - 2) to `cur` (sample n - 1) crossed 0. */
static double weak_cross_time(const struct ir_demod *d, double prev, double cur)
{
	double frac = cur != prev ? -prev / (cur - prev) : 1;

	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	return ((double)d->n - 2 + frac) * d->us_per_sample;
}

/* Out of idle, the weak band departed by its trigger while the wide band saw
 * nothing: a weak pulse may have started.  Its first WEAK_ACQUIRE_US are
 * measured before anything is told. */
static inline double threshold(const struct ir_demod *d);
static void weak_start(struct ir_demod *d, double dev, double dev_prev)
{
	int dir = dev > 0 ? 1 : -1;
	double thr = d->weak_thr;

	if (d->cfg.polarity != IR_POLARITY_AUTO && dir != d->cfg.polarity)
		return; /* the line can only go darker: noise */
	d->weak = true;
	d->weak_acq = true;
	d->weak_acq_sum = 0;
	d->weak_acq_n = 0;
	d->weak_b = d->level;
	d->weak_dir = dir;
	/* the trigger's crossing time, in weak_cross_t until the step is known */
	d->weak_cross_t = weak_cross_time(d, dir * dev_prev - thr, dir * dev - thr);
	ir_seqdet_arm(d->seqdet, d->n); /* seqdet hook */
}

static inline double threshold(const struct ir_demod *d);
static double band_rise(double fraction);

static void weak_stop(struct ir_demod *d)
{
	bool seq = d->weak_seq;

	if (seq) {
		/* seqdet hook: its baseline, not the band's noisy sample, is
		 * the idle level (that started false weak frames at once) */
		ir_seqdet_stop(d->seqdet);
		d->weak_seq = false;
		d->weak_b = ir_seqdet_baseline(d->seqdet);
	}
	d->weak = false;
	d->weak_acq = false;
	d->level = seq ? d->weak_b : d->use_slow ? d->s2 : d->f2;
	d->recent = d->level;
	d->slope = 0;
	d->baseline = d->weak_b;
}

/* The weak band's start was noise: back to the idle path (most of a
 * receiver's life; see enter_idle_fast) when the wide band is idle too. */
static void weak_reject(struct ir_demod *d)
{
	weak_stop(d);
	if (!d->idle && d->state == LINE_SPACE && d->seqdet && d->have_edge) {
		/* a start between two frames: wait for the next one */
		d->weak_wait = true;
		d->level = d->weak_b;
		return;
	}
	if (d->idle && !d->held && !d->cand && d->state == LINE_SPACE && !d->use_slow &&
	    d->n >= d->settle_until && d->noise_count >= d->warmup_n)
		enter_idle_fast(d);
}

/* A step the wide band can see after all (it lost the race by chance): the
 * path above takes it, as the candidate edge it would have found, from the
 * level before it and at the time the weak band places it. */
static void weak_hand_over(struct ir_demod *d, double a)
{
	double t0 = d->weak_cross_t -
		    band_rise(d->weak_thr / a < 0.99 ? d->weak_thr / a : 0.99) * WEAK_BAND_US;

	d->weak = false;
	d->level = d->weak_b;
	d->recent = d->weak_b;
	d->slope = 0;
	d->cand = true;
	d->cand_dir = (int)d->weak_dir;
	d->cand_confirm_n = d->confirm_n;
	d->cand_ref = d->weak_b;
	d->cand_thr = threshold(d);
	d->cand_quiet = 0;
	d->cand_fast = d->cand_thr;
	d->cand_cross = d->cand_thr;
	d->cand_band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
	d->cand_delay_us = 0;
	d->cand_t = t0 > d->last_edge_us ? t0 : d->last_edge_us;
}

/* Before the stream's first edge, a weak pulse being measured stood over
 * the hand-over level (see weak_acq_below_wide): it is the wide band's,
 * met as the edge it would have found, from the level before it
 * (weak_hand_over), when it stands over the wide band's threshold.
 * (Stopped there, the wide band met it from a level inside its rise: a
 * 6 dB sanyo or NEC leader was then taken as an edge the other way, the
 * frame lost and the wrong polarity kept for the next one.) */
static void weak_acq_cut(struct ir_demod *d)
{
	double a = d->weak_acq_sum / d->weak_acq_n;

	d->weak_acq = false;
	if (a >= threshold(d))
		weak_hand_over(d, a);
	else
		weak_stop(d);
}

/* RC-MM: where the first pulse most likely began (µs), from the samples
 * before the trigger (the ring, LOOKBACK_BACK_US of them), as the change
 * point from the idle level to the lit level `a`.  Placed from the weak
 * band's rise to its trigger instead, it came out 50-170 µs early at
 * 0-4 dB under a 1 ms coupling (the drooped level made the rise look
 * long), which put the header's period (pulse + space) out of RC-MM's
 * ±83 µs: rcmm32 4 dB τ 1 ms 62/66 % -> 89/91 % at 44.1/48 kHz. */
static double weak_lookback_t0(const struct ir_demod *d, double a)
{
	uint64_t end = d->n - d->weak_acq_n;
	unsigned back = (unsigned)ceil(LOOKBACK_BACK_US / d->us_per_sample);
	uint64_t m = ir_lookback_rise(&d->lb, end, back, d->weak_b, (int)d->weak_dir, a);

	return ((double)m - 0.5) * d->us_per_sample;
}

/* The first pulse's samples are in: its step, and where it started. */
static void weak_acquired(struct ir_demod *d)
{
	double k = d->decay > d->weak_k_min ? d->decay : alpha_for(WEAK_TAU_START_US, d->us_per_sample);
	double a = d->weak_acq_sum / d->weak_acq_n, t0, mid_n, sd = sqrt(d->weak_noise2);
	/* RC-MM: a first pulse that ended inside the acquisition is the
	 * sequence detector's however strong (the wide band cannot hold
	 * RC-MM's 167 µs pulses at 6 dB), and its level is that of its lit
	 * samples (the dark ones after it placed t0 too early) */
	double a_short = ir_seqdet_short_first(d->seqdet, d->weak_b, d->weak_dir, d->raw_noise2);

	d->weak_acq = false;
	if (a_short > 0)
		a = a_short;
	if (a < WEAK_MIN_STEP * sd) {
		weak_reject(d); /* noise, or a wander: nothing was told */
		return;
	}
	if (a >= weak_strong(d) && a_short <= 0) {
		/* as the wide band would have taken it, or left it */
		if (a >= threshold(d))
			weak_hand_over(d, a);
		else
			weak_reject(d);
		return;
	}
	t0 = d->weak_cross_t - band_rise(d->weak_thr / a < 0.99 ? d->weak_thr / a : 0.99) * WEAK_BAND_US;
	if (a_short > 0)
		t0 = weak_lookback_t0(d, a);
	/* the coupling drooped the measured samples: about their middle */
	mid_n = ((double)d->n - 0.5 * d->weak_acq_n) - t0 / d->us_per_sample;
	if (mid_n > 0)
		a *= exp(k * mid_n);
	if (t0 < d->last_edge_us)
		t0 = d->last_edge_us;
	if (d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = (int)d->weak_dir;
	d->deadline_us = 0;
	close_state(d, t0);
	d->state = LINE_PULSE;
	d->idle = false;
	d->timed_out = false;
	/* seqdet hook: the sequence detector decides from here on */
	ir_seqdet_start(d->seqdet, &(struct ir_seqdet_start){ .n = d->n, .t0_us = t0,
							     .step = a, .baseline = d->weak_b,
							     .pol = d->pol,
							     .noise2 = d->raw_noise2 });
	d->weak_seq = true;
	d->weak_seq_n = d->n;
}

/* The sequence detector decided WEAK_GIVE_BACK_US of darkness: the frame
 * is over, the line waits (see WEAK_GIVE_BACK_US). */
static void weak_give_back(struct ir_demod *d)
{
	ir_seqdet_stop(d->seqdet);
	d->weak_seq = false;
	d->weak = false;
	d->weak_b = ir_seqdet_baseline(d->seqdet);
	d->level = d->weak_b;
	d->weak_wait = true;
}

/* Between the frames of a sequence-detected run, until the timeout: only
 * the weak trigger (in the frames' polarity) and the line's timers. */
static void weak_wait_sample(struct ir_demod *d, float w_before)
{
	double dev = d->w2 - d->weak_b;
	bool armed = d->weak_quiet_n >= d->weak_rearm_n;

	if (!armed)
		d->weak_quiet_n = fabs(dev) < d->weak_thr ? d->weak_quiet_n + 1 : 0;
	if (armed && fabs(dev) >= d->weak_thr && (d->pol == 0 || dev * d->pol > 0)) {
		d->weak_wait = false;
		d->level = d->weak_b;
		weak_start(d, dev, w_before - d->weak_b);
		d->weak_wait = !d->weak; /* (a direction the line cannot take) */
		return;
	}
	d->weak_b += d->weak_wait_g * dev;
	d->level = d->weak_b;
	line_timers(d);
	if (d->idle)
		d->weak_wait = false;
}

/* See STRONG_LOOK_US: true when the weak band moved like a strong frame's
 * edge; `ref` gets its level before the move.  Records this sample. */
static inline bool strong_edge(struct ir_demod *d, float *ref)
{
	unsigned i = d->strong_i;
	float old = d->strong_hist[i];
	double dev, a;

	d->strong_hist[i] = d->w2;
	d->strong_i = i + 1 < d->strong_d ? i + 1 : 0;
	if (d->strong_n < d->strong_d) {
		d->strong_n++;
		return false;
	}
	*ref = old;
	/* Only the weak detector's run or wait can be ended: the step and the
	 * move are worked out only then (every frame sample paid for them). */
	if (!d->weak_seq && !d->weak_wait)
		return false;
	dev = (double)d->w2 - old;
	a = d->seqdet ? ir_seqdet_step(d->seqdet) : 0;
	return fabs(dev) >= STRONG_RATIO * a &&
	       dev * dev >= STRONG_NOISE * STRONG_NOISE * 2 * d->weak_noise2;
}

/* See STRONG_LOOK_US: the weak detector's run or wait ends, and the wide
 * band meets the edge as a stream's first, from the level `ref`. */
static void strong_preempts_weak(struct ir_demod *d, float ref)
{
	double now_us = (double)d->n * d->us_per_sample;

	if (d->weak_seq)
		ir_seqdet_stop(d->seqdet);
	d->weak_seq = false;
	d->weak = false;
	d->weak_acq = false;
	d->weak_wait = false;
	d->weak_b = ref;
	d->deadline_us = 0;
	if (d->state == LINE_PULSE) {
		/* dark from where the move began: the edge starts a pulse of
		 * its own, not the continuation of the detector's */
		double from_us = now_us - d->strong_d * d->us_per_sample;

		close_state(d, from_us > d->last_edge_us ? from_us : d->last_edge_us);
		d->state = LINE_SPACE;
	}
	forget_line(d);
	d->cand = false;
	d->level = d->recent = d->baseline = ref;
	d->slope = 0;
}

/* The line is idle on the full path: where a narrow band was chosen for
 * the last frame's step, the idle path never runs again, and with it went
 * the only measurement of the weak band's noise and the only update of its
 * trigger (weak_set_noise).  The trigger then kept whatever it held for the
 * rest of the stream: INFINITY from the stream's start (rcmm32 6 dB, 44.1
 * and 48 kHz: 100 and 99 frames of 100 lost), or a value measured over a
 * lit leader, above the step (sanyo 6 dB 44.1 kHz τ 5 ms: 4 %).  Here the
 * weak band's idle level follows the line as the idle path's does (at
 * IDLE_TRACK_US), its noise is measured against it as idle_noise does,
 * and the trigger follows that noise, once the level has followed the
 * dark line for QUIET_US. */
static void weak_idle_sample(struct ir_demod *d)
{
	double dw = (double)d->w2 - d->weak_idle, dw2 = dw * dw;
	double wlim2 = 9 * d->weak_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;

	/* (a level is followed over consecutive idle samples of this path
	 * only: anything between, the idle path included, starts it anew) */
	if (d->weak_idle_at + 1 != d->n)
		d->weak_idle_n = 0;
	d->weak_idle_at = d->n;
	if (d->weak_idle_n++ == 0) {
		d->weak_idle = d->w2;
		return;
	}
	d->weak_idle += d->weak_wait_g * dw;
	if (d->weak_idle_n < d->quiet_n)
		return;
	if (d->n % IDLE_NOISE_EVERY == 0 && dw2 < wlim2)
		d->weak_noise2 += d->alpha_noise * IDLE_NOISE_EVERY * (dw2 - d->weak_noise2);
	if (d->n % IDLE_HOUSEKEEPING == 0)
		weak_set_noise(d, d->weak_noise2);
}

/* The weak trigger on the full path, the line idle: the weak band departed
 * by the trigger from its idle level (weak_idle_sample's, once it follows
 * the line; before that the line's level, which follows the signal within
 * TRACK_US and would take in a weak pulse's slow rise).  Starts a weak
 * frame from that level and returns true when it fired. */
static bool weak_idle_trigger(struct ir_demod *d, float w_before)
{
	bool followed = d->weak_idle_at == d->n && d->weak_idle_n >= d->quiet_n;
	double ref = followed ? d->weak_idle : d->level, level = d->level;

	if (fabsf(d->w2 - (float)ref) < d->weak_thr || fabs(d->w2 - ref) < STEP_FRACTION * d->step)
		return false;
	d->level = ref;
	weak_start(d, d->w2 - ref, w_before - ref);
	if (!d->weak)
		d->level = level;
	return true;
}

/* One sample of a weak frame's first pulse, measured before the sequence
 * detector starts (see WEAK_ACQUIRE_US). */
static void weak_sample(struct ir_demod *d, float x)
{
	ir_seqdet_acquire(d->seqdet, x); /* seqdet hook */
	d->weak_acq_sum += d->weak_dir * ((double)x - d->weak_b);
	if (++d->weak_acq_n >= d->weak_acq_len)
		weak_acquired(d);
}

static inline void process_sample_full(struct ir_demod *d, float x)
{
	float ax = fabsf(x);
	double y, pred, r;

	if (ax > d->peak)
		d->peak = ax;
	if (ax >= 0.999f)
		d->clipped_samples++;
	if (d->n == 0) {
		/* The stream starts idle at whatever level it has. */
		d->f1 = d->f2 = d->s1 = d->s2 = d->x_prev = d->y_prev = x;
		d->w1 = d->w2 = x;
		d->recent = x;
		d->level = d->baseline = x;
	}

	d->f1 += d->fast_g * (x - d->f1);
	d->f2 += d->fast_g * (d->f1 - d->f2);
	if (d->use_slow) {
		d->s1 += d->slow_g * (d->f2 - d->s1);
		d->s2 += d->slow_g * (d->s1 - d->s2);
		y = d->s2;
	} else {
		y = d->f2;
	}
	float x_before = d->x_prev;

	d->x_prev = x;
	float y_before = d->y_prev;

	d->y_prev = (float)y;
	ir_lookback_put(&d->lb, d->n, x);
	d->n++;

	float w_before = d->w2;

	d->w1 += d->weak_g * (x - d->w1);
	d->w2 += d->weak_g * (d->w1 - d->w2);
	float strong_ref;

	if (strong_edge(d, &strong_ref))
		strong_preempts_weak(d, strong_ref);
	if (d->weak_wait) {
		weak_wait_sample(d, w_before);
		return;
	}
	if (d->weak_seq) {
		/* seqdet hook: the line's timers run at its decision horizon;
		 * a start it took back (noise) returns to the idle path */
		ir_seqdet_push(d->seqdet, x);
		if (d->weak_seq && d->state == LINE_SPACE && d->weak_horizon_us - d->last_edge_us >= WEAK_GIVE_BACK_US) {
			weak_give_back(d);
			return;
		}
		if (d->weak_seq &&
		    (double)(d->n - d->weak_seq_n) * 1e6 >= WEAK_SEQ_MAX_US * d->cfg.sample_rate) {
			weak_reject(d);
			d->weak_b = d->w2; /* not the detector's baseline: it may be what went wrong */
			return;
		}
		if (!ir_seqdet_running(d->seqdet) && d->weak_seq) {
			weak_reject(d);
			d->weak_quiet_n = 0; /* taken back: see WEAK_REARM_US */
		}
		return;
	}
	if (d->weak) {
		weak_sample(d, x);
		line_timers(d);
		return;
	}

	if (d->carrier && d->state == LINE_PULSE)
		ir_carrier_burst_samples(d->carrier, d->env_raw ? d->env_raw : &x, 1, 1);

	pred = d->level + d->slope + (d->baseline - d->level) * d->decay_now;
	r = y - pred;

	/* What the signal did over the last few band rise times: an edge
	 * shows there, a droop or a slow wander does not. */
	double fast = y - d->recent;

	d->recent += d->recent_g * fast;
	if (d->cand) {
		double speed = fast * d->cand_dir;

		if (speed > d->cand_fast)
			d->cand_fast = speed;
		/* A candidate edge must keep its distance from the old level. */
		if ((y - d->cand_ref) * d->cand_dir < d->cand_thr * 0.5) {
			d->cand = false; /* a glitch */
		} else if (++d->cand_quiet >= d->cand_confirm_n) {
			if (d->cand_fast >= FAST_FRACTION * d->cand_thr) {
				confirm_edge(d);
			} else if (d->cand_quiet >= d->cand_confirm_n + d->slow_edge_n) {
				/* Too slow for an edge: the AC coupling's droop
				 * outran the tracker.  Follow it. */
				d->cand = false;
				d->level = y;
			}
			/* else: on a narrow band an edge may cross the
			 * threshold before it has moved fast enough; it
			 * gets a little longer to show its speed (a droop
			 * does not gain any). */
		}
		return;
	}

	double thr = threshold(d);

	if (d->idle && d->state == LINE_SPACE && !d->held && d->noise_count >= d->warmup_n)
		weak_idle_sample(d);
	if (d->noise_count >= d->warmup_n) {
		int dir;

		if (d->state == LINE_PULSE)
			dir = -d->pol;
		else
			dir = d->idle || d->pol == 0 ? 0 : d->pol;
		/* While the first pulse is provisional, an edge far bigger than
		 * its own, either way, takes it back (see RETRACT_RATIO). */
		bool retracting = (d->held || d->start_open) && fabs(r) > thr &&
				  fabs(r) > RETRACT_RATIO * d->step;

		if (retracting)
			dir = r > 0 ? 1 : -1;
		/* Out of idle a step the weak detector can take is its own (see
		 * weak_owns_start): the wide band only starts strong ones. */
		double thr_idle = dir == 0 && !retracting && weak_owns_start(d) ? fmax(thr, weak_strong(d)) : thr;

		if ((dir == 0 && fabs(r) > thr_idle) || (dir != 0 && r * dir > thr)) {
			d->cand = true;
			d->cand_dir = dir ? dir : (r > 0 ? 1 : -1);
			/* Out of idle either direction may start a pulse, and a
			 * converter's pre-ringing before a clipped edge swings
			 * both ways: the first edge must hold longer. */
			d->cand_confirm_n = dir && !retracting ? d->confirm_n : d->confirm_idle_n;
			d->cand_ref = pred;
			d->cand_thr = thr;
			d->cand_quiet = 0;
			d->cand_fast = fast * d->cand_dir;
			/* The edge is where the signal crossed the threshold,
			 * between this sample and the one before; the same
			 * fraction of the step for both directions, so durations
			 * are unbiased.  The band filter's delay to that point
			 * is taken off to give the light's own time. */
			{
				double cross = retracting && RETRACT_RATIO * d->step > thr
						       ? RETRACT_RATIO * d->step
						       : thr;
				double level = pred + d->cand_dir * cross;
				double prev = y_before;
				double frac = y != prev ? (level - prev) / (y - prev) : 1;

				d->cand_cross = cross;
				d->cand_band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
				d->cand_delay_us = d->band_delay_us;
				if (frac < 0)
					frac = 0;
				else if (frac > 1)
					frac = 1;
				d->cand_t = ((double)(d->n - 2) + frac) * d->us_per_sample - d->band_delay_us;
			}
			if (d->cand_confirm_n <= 1)
				confirm_edge(d);
			return;
		} else if (d->idle && !d->held && !weak_start_held(d) && d->state == LINE_SPACE &&
			   weak_idle_trigger(d, w_before)) {
			return;
		}
	}

	if (d->n < d->settle_until) {
		/* The new level is still being approached: hold the furthest
		 * point reached, so that the next edge (the other way) shows as
		 * a drop from it however slowly the band filter rises. */
		if ((y - d->level) * d->edge_dir > 0)
			d->level = y;
		if (d->n + 1 == d->settle_until)
			settled(d);
	} else {
		/* The beginning of an edge must not drag the level along before
		 * it crosses the threshold: residuals count only up to 3 σ or a
		 * tenth of the step (Huber), enough to follow droop and hum. */
		double track_lim = track_limit(d);
		double rc = r > track_lim ? track_lim : r < -track_lim ? -track_lim : r;

		d->level = pred + d->track_a * rc;
		if (ax >= 0.999f) {
			/* Clipped: the level sits on the rail and shows no droop. */
			d->slope = 0;
		} else {
			d->slope += d->track_b * rc;
			/* (On the narrow bands not while idle: the baseline
			 * follows an idle line, and the ratio then reads its
			 * wander, not the coupling; nor in a provisional first
			 * pulse: a recording's start transient decays as the
			 * converter settles, not as the coupling.) */
			if (!d->use_slow || (!d->idle && !d->held))
				measure_decay(d, y);
		}
		/* The input's own noise: half the variance of its first
		 * difference (white noise), to choose the band. */
		double dx = (double)x - x_before;

		if (d->noise_count < d->warmup_n) {
			d->noise_count++;
			d->noise2 += (r * r - d->noise2) / d->noise_count;
			d->noise_sd = sqrt(d->noise2);
			d->raw_noise2 += (0.5 * dx * dx - d->raw_noise2) / d->noise_count;
			if (d->noise_count == d->warmup_n && d->idle && !d->have_edge && !d->use_slow)
				enter_idle_fast(d);
		} else if (d->state == LINE_SPACE && d->n > d->state_start_n + d->quiet_n) {
			/* The noise floor is measured in the dark, away from edges.
			 * Samples beyond 3 σ are left out, not clipped: a click must
			 * not inflate it, nor an edge that has not yet crossed the
			 * threshold (clipped residuals would raise σ, the threshold
			 * with it, and the edge would never cross).  Gaussian noise
			 * loses 0.3 % of its samples and 1.4 % of its σ to this;
			 * a real rise in the noise is still followed, its inner
			 * samples growing the estimate. */
			double lim = 3 * d->noise_sd + THRESHOLD_FLOOR;
			double rlim = 3 * sqrt(d->raw_noise2) + THRESHOLD_FLOOR;

			if (fabs(r) < lim) {
				d->noise2 += d->alpha_noise * (r * r - d->noise2);
				d->noise_sd = sqrt(d->noise2);
			}
			if (fabs(dx) < 2 * rlim)
				d->raw_noise2 += d->alpha_noise * (0.5 * dx * dx - d->raw_noise2);
			/* (the weak band's noise is the idle path's to measure:
			 * against this path's level, which follows the signal
			 * within 150 µs, the weak band's deviation reads far
			 * below its noise, the estimate fell below WEAK_WHITE
			 * of the input's and turned the weak trigger off for
			 * good after a retracted first pulse) */
		}
		if (d->idle)
			d->baseline += d->alpha_baseline * (d->level - d->baseline);
		if (d->idle) {
			d->rise_seeded = false;
		} else if (noise_rose(d, r)) {
			relearn_noise(d);
			return;
		}
	}

	line_timers(d);
}

/* Per sample, after the edges: the deadlines and timeouts that the time
 * since the last edge triggers (a space's deadline, the timeout, the
 * stream's start proof, a pulse too long to be one). */
/* A weak pulse is being measured, and so far it is under WEAK_MAX_STEP σ of
 * the wide band, or has been measured for less than CONFIRM_IDLE_US (the
 * wide band's own proof of a first edge).  Decided on one sample, the
 * noise put a 6 dB step over that level half the time and under it the
 * other half.  With both (weak_acq_cut and this), 6 dB at 44.1/48 kHz
 * lost the first frame of 10 streams of 42, not 12 (6 of them RC-MM's:
 * the wide band makes an iMON frame of its first header), the mean
 * 99.0 -> 99.3 % at 44.1 kHz (`limit --rates 44100,48000`), and
 * test_demod_leading_silence_corpus's known failures went 25 -> 24.
 * (Deciding on the whole acquisition instead lost ledrem-mivar-000's
 * first frame after -80 dBFS noise: a weak start on the transient before
 * it ran the sequence detector into the frame.) */
static bool weak_acq_below_wide(const struct ir_demod *d)
{
	return d->weak_acq && (d->weak_acq_n < d->confirm_idle_n || d->weak_acq_sum < d->weak_acq_n * weak_strong(d));
}

static void line_timers_at(struct ir_demod *d, double now_us);
/* line_timers_at() at this sample.  Every timer there fires on dark_us
 * reaching one of START_PROOF_US (stream start held), the space deadline,
 * the timeout or MAX_PULSE_US: before the nearest, nothing can (one
 * compare per sample instead of the whole check, the same dark_us). */
static inline void line_timers(struct ir_demod *d)
{
	double now_us = (double)d->n * d->us_per_sample;
	double dark_us = now_us - d->last_edge_us;

	if (dark_us < d->timers_from_us && (!d->start_open || dark_us < START_PROOF_US) &&
	    (!d->deadline_us || dark_us < d->deadline_us))
		return;
	line_timers_at(d, now_us);
}

/* seqdet hook: a decided edge (see weak_edge). */
static void seq_edge(void *userdata, double t_us, bool lit)
{
	struct ir_demod *d = userdata;

	if ((d->state == LINE_PULSE) == lit)
		return;
	if (t_us < d->last_edge_us)
		t_us = d->last_edge_us;
	d->deadline_us = 0;
	close_state(d, t_us);
	d->state = lit ? LINE_PULSE : LINE_SPACE;
	d->idle = false;
	d->timed_out = false;
	d->state_start_n = (uint64_t)llround(t_us / d->us_per_sample);
}

/* seqdet hook: the line is decided up to t_us. */
static void seq_horizon(void *userdata, double t_us)
{
	struct ir_demod *d = userdata;

	d->weak_horizon_us = t_us;
	line_timers_at(d, t_us);
}

/* Timeouts, space deadlines and overlong pulses, at time now_us. */
static void line_timers_at(struct ir_demod *d, double now_us)
{
	double dark_us = now_us - d->last_edge_us;

	if (d->state == LINE_SPACE) {
		if (d->start_open && dark_us >= START_PROOF_US)
			start_release(d, false);
		if (d->deadline_us && d->have_edge && !d->timed_out && dark_us >= d->deadline_us) {
			uint32_t elapsed = (uint32_t)((uint64_t)llround(now_us) - d->last_edge_rounded);

			d->deadline_us = 0;
			if (d->space_fn)
				d->space_fn(d->userdata, elapsed);
		}
		/* (not while a pulse too weak for the wide band is being
		 * measured: before a stream's first edge nothing sets timed_out,
		 * and this stopped every weak frame there; a stronger one is
		 * left to the wide band's cold start, see weak_acq_cut) */
		if (!d->timed_out && !weak_acq_below_wide(d) && dark_us >= d->cfg.timeout_us) {
			d->idle = true;
			d->deadline_us = 0;
			if (d->weak_acq)
				weak_acq_cut(d);
			else if (d->weak)
				weak_stop(d);
			choose_band(d);
			/* (not while the noise floor is being measured: the
			 * idle path does not count the warm-up) */
			if (!d->cand && !d->use_slow && d->n >= d->settle_until &&
			    d->noise_count >= d->warmup_n)
				enter_idle_fast(d);
			if (d->held)
				release_held(d);
			if (d->have_edge) {
				d->timed_out = true;
				emit_carrier(d);
				emit(d, IR_TIMEOUT, d->cfg.timeout_us);
			}
		} else if (d->timed_out && d->idle && !d->idle_fast && !d->weak && !d->held && !d->cand &&
			   !d->use_slow && d->n >= d->settle_until && d->noise_count >= d->warmup_n &&
			   dark_us >= d->cfg.timeout_us) {
			/* A retracted first pulse leaves the line idle and timed
			 * out (as it was before it): back to the idle path, whose
			 * level the weak trigger needs (this path's level follows
			 * the signal within 150 µs: no weak frame started here) */
			enter_idle_fast(d);
		}
	} else if (d->start_open && dark_us >= START_PROOF_US && d->start_edges >= START_MIN_EDGES) {
		start_flip(d);
	} else if (dark_us >= MAX_PULSE_US) {
		/* Not a pulse: the line is idle and its polarity unknown again. */
		if (d->held) {
			retract_held(d);
			return;
		}
		close_state(d, now_us);
		d->state = LINE_SPACE;
		d->idle = true;
		if (d->weak)
			weak_stop(d);
		if (d->cfg.polarity == IR_POLARITY_AUTO)
			d->pol = 0;
	}
}

/*
 * The line has been dark past the timeout: most of a receiver's life.  Only
 * the band filter and a one-pole level track run per sample; noise floor,
 * baseline and peak are updated every IDLE_HOUSEKEEPING samples.  The first
 * sample that departs from the level by the threshold leaves this path and
 * is processed in full.
 */

static void enter_idle_fast(struct ir_demod *d)
{
	d->idle_fast = true;
	d->idle_level = (float)d->level;
	idle_housekeeping(d, 0);
}

static void leave_idle_fast(struct ir_demod *d)
{
	d->idle_fast = false;
	d->strong_n = 0; /* its history stopped on the idle path */
	d->level = d->idle_level;
	d->recent = d->idle_level;
	d->slope = 0;
}

/* Every IDLE_NOISE_EVERY samples: one sample of the noise floor and of the
 * input's own noise (half its squared first difference), each limited to
 * 4 σ so one click cannot inflate them. */
static inline void idle_noise(struct ir_demod *d, float x, float x_before, float r)
{
	double r2 = (double)r * r, lim2 = d->idle_lim2;
	double dx = (double)x - x_before, dx2 = 0.5 * dx * dx, rlim2 = d->idle_rlim2;
	double a = d->alpha_noise * IDLE_NOISE_EVERY;

	d->noise2 += a * ((r2 < lim2 ? r2 : lim2) - d->noise2);
	d->raw_noise2 += a * ((dx2 < rlim2 ? dx2 : rlim2) - d->raw_noise2);
	{
		double dw = (double)d->w2 - d->idle_level, dw2 = dw * dw;
		double wlim2 = 16 * d->weak_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;

		d->weak_noise2 += a * ((dw2 < wlim2 ? dw2 : wlim2) - d->weak_noise2);
	}
}

/* Every IDLE_HOUSEKEEPING samples: baseline, peak, and the thresholds that
 * follow from the noise floor. */
static void idle_housekeeping(struct ir_demod *d, float x)
{
	float ax = fabsf(x);

	if (ax > d->peak)
		d->peak = ax;
	d->noise_sd = sqrt(d->noise2);
	d->baseline += d->alpha_baseline * IDLE_HOUSEKEEPING * (d->idle_level - d->baseline);
	d->idle_thr = (float)threshold(d);
	weak_set_noise(d, d->weak_noise2);
	d->idle_lim2 = 16 * d->noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
	d->idle_rlim2 = 16 * d->raw_noise2 + THRESHOLD_FLOOR * THRESHOLD_FLOOR;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* The variance of Gaussian noise whose differences v[0..n) are: their
 * median absolute value is 0.6745 σ of a difference, and a difference of
 * two independent samples has twice the variance of one. */
static double noise2_from_diffs(float *v, unsigned n)
{
	double sd;

	if (n == 0)
		return 0;
	for (unsigned i = 0; i < n; i++)
		v[i] = fabsf(v[i]);
	qsort(v, n, sizeof(*v), cmp_float);
	sd = (n & 1 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2])) / 0.6745;
	return 0.5 * sd * sd;
}

/*
 * Whether the warm-up's samples drift: the change across them on the
 * least-squares line through them stands out of the noise by
 * PRIME_DRIFT_SIGMAS of its own standard error, and is itself over
 * PRIME_DRIFT_STEP σ of the input.  A recording cut inside a pulse starts
 * on the AC coupling's droop, which the idle path's slow level follows
 * only with a lag that grows until it reads as an edge (rc6_0 at 30 dB,
 * tau 5 ms, cut 30 us into the leader: an edge 260 us early, a leader too
 * short for RC-6); the full path's tracker follows the slope.  A smaller
 * drift is a weak signal's, better left to the idle path and its weak
 * trigger (`bench_audio coldstart`, 6 dB: 62.3 -> 58.7 % of the cuts at
 * 48 kHz without the second condition).
 */
static bool prime_drifts(const struct ir_demod *d)
{
	unsigned n = d->prime_len;
	double mean_i = 0.5 * (n - 1), sxy = 0, sxx = 0, mean_x = 0, change, sd_change;

	if (n < 8)
		return false;
	for (unsigned i = 0; i < n; i++)
		mean_x += d->prime[i];
	mean_x /= n;
	for (unsigned i = 0; i < n; i++) {
		sxy += (i - mean_i) * (d->prime[i] - mean_x);
		sxx += (i - mean_i) * (i - mean_i);
	}
	change = sxy / sxx * n;
	sd_change = sqrt(d->raw_noise2 / sxx) * n;
	return fabs(change) > PRIME_DRIFT_SIGMAS * sd_change &&
	       fabs(change) > PRIME_DRIFT_STEP * sqrt(d->raw_noise2);
}

/* The warm-up's samples are in: measures the noise floor on them (see
 * PRIME_LAG_BANDS), then processes them as if it had been known all along. */
static void prime_finish(struct ir_demod *d)
{
	unsigned n = d->prime_len, lag = (unsigned)ceil(PRIME_LAG_BANDS * BAND_FAST_US /
							d->us_per_sample);
	float f1 = d->prime[0], f2 = d->prime[0], start;
	double band2;
	unsigned k;

	for (unsigned i = 1; i < n; i++)
		d->prime_scratch[i - 1] = d->prime[i] - d->prime[i - 1];
	d->raw_noise2 = noise2_from_diffs(d->prime_scratch, n - 1);
	/* the band's output, then its differences `lag` apart */
	for (unsigned i = 0; i < n; i++) {
		f1 += d->fast_g * (d->prime[i] - f1);
		f2 += d->fast_g * (f1 - f2);
		d->prime_scratch[i] = f2;
	}
	if (lag >= n / 2)
		lag = n / 2;
	for (unsigned i = 0; i + lag < n; i++)
		d->prime_scratch[i] = d->prime_scratch[i + lag] - d->prime_scratch[i];
	band2 = noise2_from_diffs(d->prime_scratch, n - lag);
	d->noise2 = d->raw_noise2 * d->fast_gain;
	if (band2 > d->noise2)
		d->noise2 = band2;
	d->noise_sd = sqrt(d->noise2);
	weak_set_noise(d, d->noise2 * d->weak_gain / d->fast_gain);
	d->noise_count = d->warmup_n;
	d->priming = false;
	/* The line starts at the median of its first PRIME_START_US, not at
	 * its first sample: a recording's first samples often hold a click. */
	k = (unsigned)ceil(PRIME_START_US / d->us_per_sample);
	k = k < 3 ? 3 : k > n ? n : k;
	memcpy(d->prime_scratch, d->prime, k * sizeof(float));
	qsort(d->prime_scratch, k, sizeof(float), cmp_float);
	start = d->prime_scratch[k / 2];
	for (unsigned i = 0; i < n; i++) {
		process_sample_full(d, d->prime[i]);
		if (i == 0) {
			d->f1 = d->f2 = d->s1 = d->s2 = d->y_prev = start;
			d->w1 = d->w2 = start;
			d->level = d->baseline = d->recent = start;
		}
	}
	if (d->idle && !d->held && !d->cand && d->state == LINE_SPACE && !d->use_slow &&
	    d->n >= d->settle_until && !prime_drifts(d))
		enter_idle_fast(d);
}

/* Ends the priming early (end of input, a reset): what was held is
 * processed with the floor measured on it. */
static void prime_end(struct ir_demod *d)
{
	if (!d->priming)
		return;
	if (d->prime_len >= 2)
		prime_finish(d);
	d->priming = false;
}

/* While priming: holds one sample. */
static void prime_push(struct ir_demod *d, float x)
{
	d->prime[d->prime_len++] = x;
	if (d->prime_len == d->warmup_n)
		prime_finish(d);
}

static inline void process_sample(struct ir_demod *d, float x)
{
	if (d->priming) {
		prime_push(d, x);
		return;
	}
	if (d->idle_fast) {
		float f1 = d->f1 + d->fast_g * (x - d->f1);
		float f2 = d->f2 + d->fast_g * (f1 - d->f2);
		float w1 = d->w1 + d->weak_g * (x - d->w1);
		float w2 = d->w2 + d->weak_g * (w1 - d->w2);
		float r = f2 - d->idle_level;

		if (fabsf(r) < d->idle_thr && fabsf(w2 - d->idle_level) < d->weak_thr) {
			d->f1 = f1;
			d->f2 = f2;
			d->w1 = w1;
			d->w2 = w2;
			d->y_prev = f2;
			d->idle_level += d->idle_a * r;
			ir_lookback_put(&d->lb, d->n, x);
			if ((++d->n % IDLE_NOISE_EVERY) == 0)
				idle_noise(d, x, d->x_prev, r);
			if (d->n % IDLE_HOUSEKEEPING == 0)
				idle_housekeeping(d, x);
			d->x_prev = x;
			return;
		}
		leave_idle_fast(d);
	}
	process_sample_full(d, x);
}

/* The idle path's state over one stretch, in locals (see idle_run), and
 * the gains and thresholds that stay constant over it. */
struct idle_regs {
	float f1, f2, w1, w2, level, r;
	float g, wg, a, thr, wthr;
};

/* After a whole stretch: its noise sample, and every IDLE_HOUSEKEEPING
 * samples the housekeeping, as idle_run does them (x: the stretch's last
 * sample, x_before the one before it; r its r). */
static inline void idle_stretch_done(struct ir_demod *d, float w2, float level, float x,
				     float x_before, float r)
{
	d->n += IDLE_NOISE_EVERY;
	d->w2 = w2;
	d->idle_level = level;
	idle_noise(d, x, x_before, r);
	if (d->n % IDLE_HOUSEKEEPING == 0)
		idle_housekeeping(d, x);
}

#ifdef __SSE2__
/*
 * Up to `count` whole stretches of IDLE_NOISE_EVERY samples from `p` (the
 * first at a noise sample's boundary), each with its noise sample and
 * housekeeping (idle_stretch_done); stops before a stretch in which a
 * sample departs.  Returns the stretches done; `s` is the state after
 * them, exactly what the scalar steps (idle_run's loop) would have left,
 * bit for bit.  A stretch in which a sample departs is left to the
 * scalar steps, to find which (a frame's start: rare).  Not inlined: in
 * a small function the vectors stay in registers.
 *
 * The two bands side by side in SIMD lanes.  Why it is exact: every lane
 * does the scalar code's own float operations (x + g * (y - x), level +
 * a * r), each rounded to float; a + b and a * b are exact either way
 * round.  Only the departure test is gathered: the largest |r| and
 * |w2 - level| of the stretch, against thresholds constant over it.  Why
 * this layout: the steps are chains of dependent operations (each
 * section's new value needs its last), so the time per sample is a
 * chain's latency, three operations; the first sections [f1, w1], the
 * second [f2, w2] and the level (in every lane) are three vectors whose
 * chains hold no shuffle.  (One vector [f2, w2, f1, w1] run as a pipeline
 * took two instructions a sample less, but the shuffle in its chain made
 * it a seventh slower than the scalar steps in wall time.)
 */
static __attribute__((noinline)) size_t idle_stretches(struct ir_demod *d, const float *p,
						       ptrdiff_t stride, size_t count,
						       struct idle_regs *s)
{
	const __m128 gv = _mm_setr_ps(s->g, s->wg, s->g, s->wg), av = _mm_set1_ps(s->a);
	const __m128 absmask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	__m128 b1 = _mm_setr_ps(s->f1, s->w1, s->f1, s->w1), b2 = _mm_setr_ps(s->f2, s->w2, s->f2, s->w2);
	__m128 lv = _mm_set1_ps(s->level), tv = _mm_setr_ps(s->thr, s->wthr, INFINITY, INFINITY);
	size_t k;

	for (k = 0; k < count; k++, p += IDLE_NOISE_EVERY * stride) {
		__m128 n1 = b1, n2 = b2, nl = lv, m = _mm_setzero_ps(), dv = m, f2;

#define IDLE_SIMD_STEP(x)                                                                        \
	do {                                                                                      \
		n1 = _mm_add_ps(_mm_mul_ps(_mm_sub_ps((x), n1), gv), n1);                         \
		n2 = _mm_add_ps(_mm_mul_ps(_mm_sub_ps(n1, n2), gv), n2);                          \
		dv = _mm_sub_ps(n2, nl); /* [r, w2 - level, ...] */                               \
		m = _mm_max_ps(m, _mm_and_ps(dv, absmask));                                       \
		/* the level's update, r = f2 - level in every lane */                            \
		f2 = _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(n2), 0));                \
		nl = _mm_add_ps(_mm_mul_ps(_mm_sub_ps(f2, nl), av), nl);                          \
	} while (0)
#define IDLE_LANE(v, k) _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), (k) * 0x55))
		if (stride == 1) { /* mono: four samples a load */
#pragma GCC unroll 4
			for (int i = 0; i < IDLE_NOISE_EVERY; i += 4) {
				__m128 x4 = _mm_loadu_ps(p + i);

				IDLE_SIMD_STEP(IDLE_LANE(x4, 0));
				IDLE_SIMD_STEP(IDLE_LANE(x4, 1));
				IDLE_SIMD_STEP(IDLE_LANE(x4, 2));
				IDLE_SIMD_STEP(IDLE_LANE(x4, 3));
			}
		} else {
#pragma GCC unroll 16
			for (int i = 0; i < IDLE_NOISE_EVERY; i++)
				IDLE_SIMD_STEP(_mm_set1_ps(p[i * stride]));
		}
#undef IDLE_LANE
#undef IDLE_SIMD_STEP
		/* A NaN is no departure for the scalar steps, but maxps would
		 * forget the largest before it: a NaN (or an infinity, which
		 * makes one) stays in the filters to the last sample, and such
		 * a stretch is left to the scalar steps. */
		if (_mm_movemask_ps(_mm_or_ps(_mm_cmpge_ps(m, tv), _mm_cmpunord_ps(dv, dv))) & 3)
			break;
		b1 = n1;
		b2 = n2;
		lv = nl;
		idle_stretch_done(d, _mm_cvtss_f32(_mm_shuffle_ps(b2, b2, _MM_SHUFFLE(1, 1, 1, 1))),
				  _mm_cvtss_f32(lv), p[(IDLE_NOISE_EVERY - 1) * stride],
				  p[(IDLE_NOISE_EVERY - 2) * stride], _mm_cvtss_f32(dv));
		if (d->n % IDLE_HOUSEKEEPING == 0) {
			s->thr = d->idle_thr;
			s->wthr = d->weak_thr;
			tv = _mm_setr_ps(s->thr, s->wthr, INFINITY, INFINITY);
		}
	}
	s->f1 = _mm_cvtss_f32(b1);
	s->w1 = _mm_cvtss_f32(_mm_shuffle_ps(b1, b1, _MM_SHUFFLE(1, 1, 1, 1)));
	s->f2 = _mm_cvtss_f32(b2);
	s->w2 = _mm_cvtss_f32(_mm_shuffle_ps(b2, b2, _MM_SHUFFLE(1, 1, 1, 1)));
	s->level = _mm_cvtss_f32(lv);
	return k;
}
#else
/* One whole stretch of the scalar steps, unrolled (the loop's own
 * bookkeeping was a fifth of the work): where no sample departs, `s` is
 * the state after it and returns true; else false, `s` untouched. */
static inline bool idle_stretch(const float *p, ptrdiff_t stride, struct idle_regs *s)
{
	float f1 = s->f1, f2 = s->f2, w1 = s->w1, w2 = s->w2, level = s->level, r = 0;

#pragma GCC unroll 16
	for (int k = 0; k < IDLE_NOISE_EVERY; k++) {
		float xk = p[k * stride];
		float n1 = f1 + s->g * (xk - f1);
		float n2 = f2 + s->g * (n1 - f2);
		float m1 = w1 + s->wg * (xk - w1);
		float m2 = w2 + s->wg * (m1 - w2);

		r = n2 - level;
		if (fabsf(r) >= s->thr || fabsf(m2 - level) >= s->wthr)
			return false;
		f1 = n1;
		f2 = n2;
		w1 = m1;
		w2 = m2;
		level += s->a * r;
	}
	s->f1 = f1;
	s->f2 = f2;
	s->w1 = w1;
	s->w2 = w2;
	s->level = level;
	s->r = r;
	return true;
}

/* idle_stretches() without SIMD: the same contract, stretch by stretch. */
static size_t idle_stretches(struct ir_demod *d, const float *p, ptrdiff_t stride, size_t count,
			     struct idle_regs *s)
{
	size_t k;

	for (k = 0; k < count; k++, p += IDLE_NOISE_EVERY * stride) {
		if (!idle_stretch(p, stride, s))
			break;
		idle_stretch_done(d, s->w2, s->level, p[(IDLE_NOISE_EVERY - 1) * stride],
				  p[(IDLE_NOISE_EVERY - 2) * stride], s->r);
		if (d->n % IDLE_HOUSEKEEPING == 0) {
			s->thr = d->idle_thr;
			s->wthr = d->weak_thr;
		}
	}
	return k;
}
#endif

/*
 * The idle path over a run of samples, with the state in locals (the
 * compiler cannot keep it in registers through the struct: the samples
 * might alias it).  Stops before the first sample that departs from the
 * level by the threshold; returns how many samples it consumed.
 */
static size_t idle_run(struct ir_demod *d, const float *samples, size_t n, size_t stride)
{
	float f1 = d->f1, f2 = d->f2, level = d->idle_level;
	float w1 = d->w1, w2 = d->w2;
	const float g = d->fast_g, a = d->idle_a, wg = d->weak_g;
	float thr = d->idle_thr, wthr = d->weak_thr;
	const float *p = samples;
	size_t done = 0;
	bool departs = false; /* the stretch at p, as idle_stretches found */

	while (done < n) {
		/* up to the next noise sample, without counting per sample */
		size_t left = IDLE_NOISE_EVERY - (size_t)(d->n % IDLE_NOISE_EVERY);
		size_t run = n - done < left ? n - done : left, i;
		float r = 0;

		i = 0;
		if (run == IDLE_NOISE_EVERY && !departs) {
			struct idle_regs s = { f1, f2, w1, w2, level, 0, g, wg, a, thr, wthr };
			size_t count = (n - done) / IDLE_NOISE_EVERY;
			size_t k = idle_stretches(d, p, (ptrdiff_t)stride, count, &s);

			f1 = s.f1;
			f2 = s.f2;
			w1 = s.w1;
			w2 = s.w2;
			level = s.level;
			thr = s.thr;
			wthr = s.wthr;
			done += k * IDLE_NOISE_EVERY;
			p += (ptrdiff_t)(k * IDLE_NOISE_EVERY) * (ptrdiff_t)stride;
			departs = k < count;
			continue; /* then a short run at the end, or the stretch that departs */
		}
		/* a short run, or a sample departs: one at a time, to find it */
		departs = false;
		for (; i < run; i++, p += stride) {
			float n1 = f1 + g * (*p - f1);
			float n2 = f2 + g * (n1 - f2);
			float m1 = w1 + wg * (*p - w1);
			float m2 = w2 + wg * (m1 - w2);

			r = n2 - level;
			if (fabsf(r) >= thr || fabsf(m2 - level) >= wthr)
				break;
			f1 = n1;
			f2 = n2;
			w1 = m1;
			w2 = m2;
			level += a * r;
		}
		done += i;
		d->n += i;
		if (i < run)
			break;
		if (i == left) {
			float x = p[-(ptrdiff_t)stride];
			float x_before = done >= 2 ? p[-2 * (ptrdiff_t)stride] : d->x_prev;

			d->w2 = w2;
			d->idle_level = level;
			idle_noise(d, x, x_before, r);
			if (d->n % IDLE_HOUSEKEEPING == 0) {
				d->idle_level = level;
				d->w2 = w2;
				idle_housekeeping(d, x);
				thr = d->idle_thr;
				wthr = d->weak_thr;
			}
		}
	}
	d->f1 = f1;
	d->f2 = f2;
	d->w1 = w1;
	d->w2 = w2;
	d->y_prev = f2;
	d->idle_level = level;
	if (done) {
		d->x_prev = samples[(done - 1) * stride];
		ir_lookback_fill(&d->lb, d->n, samples, done, stride);
	}
	return done;
}

static void demod_run(struct ir_demod *d, const float *samples, size_t frames, size_t stride,
		      const float *raw, size_t raw_stride);

/* envelope hook: demodulates the n samples of env_buf, which ir_envelope
 * made of `raw`; while it adds the carrier, the report's peak and clipping
 * are the input's (what the card recorded), measured here. */
static void envelope_run(struct ir_demod *d, const float *raw, size_t n, size_t stride)
{
	double peak = d->peak, clipped = d->clipped_samples;

	demod_run(d, d->env_buf, n, 1, raw, stride);
	if (!ir_envelope_active(d->envelope, NULL))
		return;
	d->peak = peak;
	d->clipped_samples = clipped;
	for (size_t i = 0; i < n; i++) {
		float ax = fabsf(raw[i * stride]);

		if (ax > d->peak)
			d->peak = ax;
		if (ax >= 0.999f)
			d->clipped_samples++;
	}
}

void ir_demod_process(struct ir_demod *d, const float *samples, size_t frames, size_t stride)
{
	if (stride == 0)
		stride = 1;
	if (d->envelope) { /* envelope hook: the samples through ir_envelope first */
		for (size_t i = 0; i < frames; i += sizeof(d->env_buf) / sizeof(d->env_buf[0])) {
			size_t n = frames - i;

			if (n > sizeof(d->env_buf) / sizeof(d->env_buf[0]))
				n = sizeof(d->env_buf) / sizeof(d->env_buf[0]);
			ir_envelope_process(d->envelope, samples + i * stride, n, stride, d->env_buf);
			envelope_run(d, samples + i * stride, n, stride);
		}
	} else {
		demod_run(d, samples, frames, stride, NULL, 0);
	}
	d->report_samples += (double)frames;
}

/* ir_demod_process() on the samples the demodulator sees; `raw`, where
 * not NULL, the input they were made of (envelope hook: the carrier is
 * measured on it). */
static void demod_run(struct ir_demod *d, const float *samples, size_t frames, size_t stride,
		      const float *raw, size_t raw_stride)
{
	size_t i = 0;

	while (i < frames) {
		if (d->priming) {
			prime_push(d, samples[i * stride]);
			i++;
			continue;
		}
		if (d->idle_fast) {
			i += idle_run(d, samples + i * stride, frames - i, stride);
			if (i == frames)
				break;
			leave_idle_fast(d);
		}
		d->env_raw = raw ? raw + i * raw_stride : NULL; /* envelope hook */
		process_sample_full(d, samples[i * stride]);
		d->env_raw = NULL;
		i++;
	}
}

/* Channels whose idle stretches ir_demod_process_interleaved() runs ahead
 * (the others: sample by sample). */
#define INTERLEAVED_AHEAD 8

void ir_demod_process_interleaved(struct ir_demod *const *demods, unsigned channels,
				  const float *samples, size_t frames)
{
	/* Where a channel is on the idle path, its samples up to its next
	 * departure go through idle_run() at once: the idle path calls no
	 * callback, so the callbacks still come in time order, and each
	 * demodulator's state does not depend on the others'.  (Sample by
	 * sample, each idle sample took the scalar steps and a call.) */
	size_t ahead[INTERLEAVED_AHEAD] = { 0 }; /* the first frame not yet taken */

	for (size_t i = 0; i < frames; i++)
		for (unsigned c = 0; c < channels; c++)
			if (demods[c]) {
				float x = samples[i * channels + c];

				if (c < INTERLEAVED_AHEAD) {
					struct ir_demod *d = demods[c];

					if (ahead[c] > i)
						continue;
					if (d->idle_fast && !d->envelope && !d->priming) {
						ahead[c] = i + idle_run(d, samples + i * channels + c, frames - i,
									channels);
						if (ahead[c] > i)
							continue;
					}
				}

				if (demods[c]->envelope) { /* envelope hook */
					struct ir_demod *d = demods[c];

					d->env_buf[0] = ir_envelope_sample(d->envelope, x);
					envelope_run(d, &x, 1, 1);
				} else {
					process_sample(demods[c], x);
				}
			}
	for (unsigned c = 0; c < channels; c++)
		if (demods[c])
			demods[c]->report_samples += (double)frames;
}

void ir_demod_flush(struct ir_demod *d)
{
	double now_us;

	prime_end(d);
	if (d->weak_seq)
		ir_seqdet_finish(d->seqdet); /* seqdet hook */
	now_us = (double)d->n * d->us_per_sample;

	d->cand = false;
	if (d->carrier && d->state == LINE_PULSE)
		ir_carrier_burst_end(d->carrier, d->step);
	if (d->held)
		release_held(d);
	/* The darkness after a timeout is reported too: the durations add up
	 * to the stream's length. */
	close_state(d, now_us);
	if (d->start_open)
		start_release(d, false);
	emit_carrier(d);
}

void ir_demod_reset(struct ir_demod *d)
{
	double now_us;

	prime_end(d);
	if (d->start_open)
		start_release(d, false);
	now_us = (double)d->n * d->us_per_sample;

	emit(d, IR_OVERFLOW, 0);
	ir_lookback_forget(&d->lb, d->n);
	if (d->idle_fast)
		leave_idle_fast(d);
	if (d->weak)
		weak_stop(d);
	d->weak_wait = false;
	d->cand = false;
	d->held = false;
	d->state = LINE_SPACE;
	d->idle = true;
	d->timed_out = false;
	d->deadline_us = 0;
	if (d->cfg.polarity == IR_POLARITY_AUTO)
		d->pol = 0;
	d->last_edge_us = now_us;
	d->last_edge_rounded = (uint64_t)llround(now_us);
	d->have_edge = false;
	d->level = d->use_slow ? d->s2 : d->f2;
	d->slope = 0;
	d->baseline = d->level;
}

void ir_demod_report(struct ir_demod *d, struct ir_signal_report *r)
{
	double noise = sqrt(d->noise2);

	memset(r, 0, sizeof(*r));
	r->step = d->step;
	r->noise = noise;
	r->snr_db = d->step > 0 && noise > 0 ? 20 * log10(d->step / (2 * noise)) : 0;
	r->peak = d->peak;
	r->clipped = d->report_samples > 0 ? d->clipped_samples / d->report_samples : 0;
	r->polarity = d->pol > 0 ? IR_POLARITY_PULSE_HIGH : d->pol < 0 ? IR_POLARITY_PULSE_LOW
								       : IR_POLARITY_AUTO;
	r->band_us = d->use_slow ? d->slow_us : BAND_FAST_US;
	r->carrier_hz = d->carrier_hz;
	r->duty_cycle = d->carrier_duty;
	r->edges = d->edges;
	r->samples = d->n;
	d->peak = 0;
	d->clipped_samples = 0;
	d->report_samples = 0;
}
