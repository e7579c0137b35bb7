/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_seqdet.h"
#include "ir_seqdet_fb.h"
#include "ir_seqdet_grid.h"
#include "ir_seqdet_rcmm.h"
#include "ir_seqdet_state.h"
#include "ir_seqdet_trellis.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The shortest run of each unit family (space, pulse): no pulse of RC-6,
 * JVC, NEC, Sanyo, Sony or RC-5 is shorter than RC-6's 444 µs unit, less a
 * few % of a remote's clock drift, nor a space, less what a receiver
 * module's pulse lengthening (up to ~100 µs) takes from it too; RC-MM's
 * pulses are 167 µs, its spaces 278 µs and more.  A run shorter than its
 * family's is noise.  Each family has its own trellises; the one that
 * explains the frame's start best is kept (a family with shorter runs can
 * only win by more than the edges it adds cost, see EDGE_NATS). */
static const double min_run_us[][2] = {
	{ 300, 400 }, /* RC-6, JVC, NEC, Sanyo, Sony, RC-5 */
	{ 170, 120 }, /* RC-MM */
};
_Static_assert(sizeof(min_run_us) / sizeof(min_run_us[0]) == N_FAMILY,
	       "N_FAMILY (ir_seqdet_state.h) counts min_run_us's families");
/* How much of the first pulse each family may fit its step on (µs after
 * its start): RC-MM's 417 µs header ends inside the caller's acquisition. */
#ifndef RCMM_FIT_US
#define RCMM_FIT_US 360.0
#endif
static const double first_pulse_us[] = { 1e9, RCMM_FIT_US };
/* (RC-MM's long runs: see RCMM_MAX_SPACE_US in ir_seqdet_state.h) */
static const double long_run_us[][2] = { { 0, 0 }, { RCMM_MAX_SPACE_US, RCMM_BIT_PULSE_US } };
#ifndef RCMM_EDGE_NATS
#define RCMM_EDGE_NATS 3.0
#endif
/* RC-MM's edges come every 450-950 µs, its pulses are 167 µs: an edge
 * there is likelier, and its two edges' 8 nats left a 2 dB bit pulse
 * (8 samples at 48 kHz, ~25 nats expected, less where the blocks cut it)
 * undecided in about one of 50.  rcmm32 2 dB 48 kHz, τ 1 ms/5 ms/DC:
 * 31/60/54 % at 4 nats, 46/77/58 at 3, 44/77/61 at 2, 31/43/45 at 1
 * (noise then cuts pulses in two). */
static const double edge_nats[] = { EDGE_NATS, RCMM_EDGE_NATS };
/* No pulse is longer (NEC's 9 ms leader, plus a receiver's lengthening).
 * With AC coupling a long pulse droops to where darkness is, and leaving
 * such a state costs the step's undershoot: without the limit, a false
 * start on noise stayed "lit" for hundreds of ms.  (Kept per survivor of
 * the saturated pulse state, not in the state: an approximation.) */
#define MAX_PULSE_US 10000.0
/* No frame has two pulses of a leader's length: NEC's and Sanyo's 9 ms,
 * GICable's 8.8 ms, JVC's 8.4 ms, Proton's 8 ms leaders are the only
 * pulses of 7 ms and more in the protocol tables (src/protocols: then
 * DirecTV's 6 ms header; RC-MM's, RC-6's, Sony's are under 3 ms).  A run
 * whose frame has told two has lost the line (a start mid-frame on the
 * general family with a slow τ, a baseline gone wrong: its path then
 * tells ~9.5 ms pulses, MAX_PULSE_US, and short spaces until
 * WEAK_SEQ_MAX_US, deaf to the frames that follow), and stops.  A space
 * of RUNAWAY_GAP_US ends a frame (no space inside one is over Dish's
 * 6.1 ms; GICable's shortest gap before a ditto is 20.6 ms).  Traced
 * at 0 dB under a 1 ms coupling, rcmm32 44.1/48 kHz (seeds 70-85):
 * 22 and 21 such runs in 16 trials each, 100-450 ms long.  At every
 * rate: at 16 kHz (bench_audio limit --rates 16000, six protocols)
 * 0/2/4 dB 26.4/66.4/92.9 -> 27.0/67.1/93.4 %, 6 dB 98.8 -> 99.0
 * (sony12 5 ms 95 -> 98); one frame more came out as another code in
 * 1800 (nec τ 1 ms 0 dB: after a stop the weak start took the frame's
 * last bit pulse alone, and iMON's decoder a lone pulse and darkness,
 * 0x7fffffff). */
#ifndef RUNAWAY_PULSE_US
#define RUNAWAY_PULSE_US 7000.0
#endif
#ifndef RUNAWAY_GAP_US
#define RUNAWAY_GAP_US 10000.0
#endif
#define FAMILY_NATS 10.0
/* A first pulse that ended inside the caller's acquisition (RC-MM's 417 µs
 * header) must explain its samples better than one lit all through by
 * this much (nats). */
#ifndef SHORT_FIRST_NATS
#define SHORT_FIRST_NATS 8.0
#endif
/* At 0 dB under a 1 ms coupling the weak trigger fires 200-340 µs into
 * the 417 µs header, so that only 80-220 µs of the 400 µs acquisition is
 * lit: at least a third lit (as before) put dark samples into the lit
 * level.  And the coupling leaves the line under its idle level after the
 * header's fall (by its low-pass, 0.34 of the step after 417 µs at τ
 * 1 ms): dark samples taken at the idle level hid the fall.  They are
 * fitted at a level of their own where it is under the idle level and no
 * deeper than the lit samples stand over it (a header's undershoot is at
 * most half the step under τ >= 700 µs, its lit level at least that; a
 * trigger on noise of the wrong polarity before a JVC leader looked like
 * a level at 0 and a fall to -a: 6 of 100 JVC frames lost so).  The level
 * returned is the lit one at the header's start (the caller's lookback
 * places the start with it): between the lit samples' mean, drooped, and
 * the fall's drop, lit less dark mean, that the coupling keeps; half the
 * undershoot on the lit mean.  (Traced at 0 dB 48 kHz τ 1 ms: starts
 * placed 120-200 µs early with a step of a quarter to half the true one,
 * and 13 of 100 frames rejected as no start at all.  bench_audio limit
 * rcmm32 0 dB τ 1 ms 44.1/48 kHz: 19/34 -> 32/53 %; the whole undershoot
 * on it: 33/55 but starts 100-190 µs late at 2 dB (the step too high),
 * 2 dB 48 kHz 93 -> 89 %; at least a third lit still: 31/51.) */
#ifndef SHORT_FIRST_LIT_PART
#define SHORT_FIRST_LIT_PART 5
#endif
#ifndef SHORT_FIRST_UNDERSHOOT
#define SHORT_FIRST_UNDERSHOOT 0.5
#endif
#define COMMIT_US 6000.0
/* ...but where that holds fewer than COMMIT_MIN_SAMPLES samples (under
 * 33.3 kHz), COMMIT_LOW_US: a start's evidence grows with its samples,
 * not with time, and at 16 kHz a 6 dB NEC, JVC or Sanyo leader under a
 * 1 ms coupling had drooped away with 13-19 nats gained, under
 * START_NATS, and was taken back (16 kHz 6 dB τ 1 ms: 17-26 of about 50
 * lost frames each).  10 ms sees NEC's 9 ms leader end and its
 * undershoot (16 kHz 6 dB 87.2 -> 93.1 %; 9 and 12 ms within 0.5 point). */
#define COMMIT_MIN_SAMPLES 200.0
#define COMMIT_LOW_US 10000.0
/* Where at COMMIT_US the best hypothesis is lit, or has not yet beaten
 * darkness by START_NATS, the choice waits, up to COMMIT_MAX_US: under a
 * 1 ms coupling a long leader's only evidence before it ends is its first
 * ~2 ms (the rest has drooped to the dark level), and its end (the
 * undershoot) is what tells the τ hypotheses apart and proves the start.
 * At 0 dB 48 kHz τ 1 ms, traced, the detector took back 16 NEC, 23 JVC
 * and 19 Sanyo starts of 100 at 6 ms, and chose a slow τ on others that
 * then ended the leader where it had drooped (a 1.4 ms "leader").  Waiting
 * only while lit took back most of them still: the fast τ hypotheses see
 * the drooped leader as dark.  A strong frame still ends the wait
 * (strong_edge in ir_demod_weak.c).  (48 kHz 0 dB τ 1 ms: nec, jvc, sanyo
 * 38/33/35 -> 51/49/46 %.) */
#define COMMIT_MAX_US 11000.0
/* (Tried, keep16: below 33.3 kHz a wait of 16 ms, where an 0 dB NEC,
 * JVC or Sanyo leader drooped away under a 1 ms coupling had gained only
 * 5-20 nats over darkness at 11 ms and its right start was taken back:
 * 113 of 1800 right starts at 16 kHz 0 dB taken back -> 43, `limit
 * --rates 16000 --snr 0,2,6` (six protocols × τ) with the stop-46 merge
 * 51.9/85.4/99.7 -> 53.5/86.1/99.4 %: 6 dB lost a frame in four cells
 * (jvc/rc5/sony12 5 ms, nec 1 ms), under the 99.5 % bar; 13 ms took back
 * 99, 20 ms 26 but decoded fewer.  Not kept: a start proven by a few nats
 * more is to be proven by the frame's grid, not by waiting.) */
/* Decisions are final this long after the block they decide: at 0 dB
 * the survivors of a two-level run-length trellis merge within a few
 * units (RC-5's 889 µs is the longest). */
#define LAG_US 4000.0
#define EMIT_EVERY_US 1000.0
/* The τ hypotheses one step either side of the kept one run on beside
 * it once the decision feedback has taken over: at each of its fits they
 * start again with the kept trellis from the last decided block, each on
 * its own fit's step (fb_neighbours), and before the next traceback the
 * kept trellis gives way to one whose best path has become cheaper by
 * NEIGHBOUR_SWITCH_NATS; blocks already decided stay decided.  At 0 dB
 * the first 6-11 ms do not tell 0.7, 1 and 1.4 ms apart (traced at
 * 44.1 kHz τ 1 ms: the right τ's cost 0.1-3.9 nats off the kept
 * neighbour's, a third of the choices a neighbour), and the feedback's
 * least-squares fit on decided blocks only sees what a wrong τ decided;
 * the undecided blocks' path costs under the neighbours tell them apart
 * before they are decided.  (bench_audio limit, 100 frames a point, main
 * df5d780 -> with them: 0 dB 44.1/48 kHz, all protocols × τ 1/5 ms/DC,
 * 86.6/90.0 -> 87.4/90.9 %; 16 kHz 2/4 dB 46.4/83.7 -> 48.6/85.6 %.
 * Earlier, on 12d89fb: neighbours also between the choice and the
 * feedback's first fit, no gain (within 0.2 point); τ two steps either
 * side, +0.6 point at 44.1 kHz 0 dB for twice the neighbours' cost; a
 * switch at 1, 4 or 6 nats, 16 kHz 0.2-1.2 points under 2.) */
#ifndef NEIGHBOUR_SWITCH_NATS
#define NEIGHBOUR_SWITCH_NATS 2.0
#endif
/* The commit window at `us` per sample (see COMMIT_MIN_SAMPLES), µs. */
static double commit_us_for(double us)
{
	return COMMIT_US / us < COMMIT_MIN_SAMPLES ? COMMIT_LOW_US : COMMIT_US;
}

/* A frame's leader is decided before any grid exists: at 16 kHz under a
 * 1 ms coupling the 54 trellises of the commit window decide it at
 * EDGE_NATS an edge, and the bit pulse after the leader's space (NEC's
 * 563 µs, 9 samples at 16 kHz) was missed and the space told as long as
 * the next pulse: traced at 16 kHz 2 dB τ 1 ms (700 frames), of the
 * right starts lost at the leader's own edges, 30 of 45 were that (NEC
 * 11, JVC 9, RC-6 6, Sony 4; told 1-12 ms long).  The protocol tables
 * say how long a leader's space is (ir_grid_leader_space_max: NEC 4.5 ms,
 * JVC 4.2, RC-6 0.89, Sony 0.6): a space after a first pulse of a
 * leader's length that runs past LEAD_SPACE_SLACK of the longest of
 * them, and LEAD_SPACE_US more (the leader's fall placed a few blocks
 * off; a receiver's lengthening shortens spaces), pays LEAD_SPACE_NATS
 * once (ir_seqdet_state.h; a space's survivor carries its limit, see
 * struct trellis's lead_ring).  bench_audio limit --rates 16000 (six
 * protocols × τ 1 ms/5 ms/DC) 0/2/4/6 dB 32.2/72.7/94.8/99.1 ->
 * 34.1/73.9/95.1/99.1 %, no cell down (rc6_0 5 ms/DC 2 dB 68/75 ->
 * 74/80, jvc and sanyo 5 ms 0 dB 41/27 -> 49/33); frames decoded as
 * other codes 53 -> 52; at 8 nats 34.3/74.2/95.2/99.1 (scatter; a pulse
 * of noise after a false leader then needs no evidence at all); a weak
 * 16 kHz stream's decode +2.9 % instructions.  The same at 44.1/48 kHz
 * under a 1 ms coupling at -2 dB (nec, rc6_0, sony12, sanyo: 800 frames,
 * 131 lost after a right start): 39 lost at the leader before any grid
 * was fixed, rc6_0's start bit's unit pulse after the 2-unit space
 * missed in 11 (the space told 5 units).  Below LEAD_PRIOR_MAX_RATE only
 * (96 kHz and more byte-identical: untried there). */
#ifndef LEAD_PRIOR_MAX_RATE
#define LEAD_PRIOR_MAX_RATE 50000u
#endif
#define LEAD_SPACE_SLACK 1.1
#define LEAD_SPACE_US 250.0

static void lead_space_init(struct ir_seqdet *sd, unsigned sample_rate)
{
	sd->lead_prior = sample_rate < LEAD_PRIOR_MAX_RATE;
	for (unsigned j = 0; j < LEAD_TABLE; j++) {
		double space = ir_grid_leader_space_max(j * sd->block_us);

		sd->lead_space[j] = space > 0 ? (int)ceil((space * LEAD_SPACE_SLACK + LEAD_SPACE_US) / sd->block_us) : 0;
	}
}

int ir_seqdet_new(unsigned sample_rate, ir_seqdet_edge_fn edge_fn,
		  ir_seqdet_horizon_fn horizon_fn, void *userdata, struct ir_seqdet **out)
{
	struct ir_seqdet *sd;
	double block_us;

	if (!out || !edge_fn || sample_rate < 4000 || sample_rate > 1000000)
		return -EINVAL;
	sd = calloc(1, sizeof(*sd));
	if (!sd)
		return -ENOMEM;
	sd->edge_fn = edge_fn;
	sd->horizon_fn = horizon_fn;
	sd->userdata = userdata;
	sd->us = 1e6 / sample_rate;
	sd->L = (unsigned)lround(BLOCK_US / sd->us);
	if (sd->L < 1)
		sd->L = 1;
	if (sd->L > MAX_BLOCK)
		sd->L = MAX_BLOCK;
	block_us = sd->L * sd->us;
	sd->block_us = block_us;
	sd->max_pulse = (unsigned)ceil(MAX_PULSE_US / block_us);
	sd->lag = (unsigned)ceil(LAG_US / block_us);
	sd->every = (unsigned)ceil(EMIT_EVERY_US / block_us);
	sd->commit = (unsigned)ceil(commit_us_for(sd->us) / block_us);
	/* (at least the start window: below 33 kHz that is COMMIT_LOW_US) */
	sd->commit_max = (unsigned)ceil(COMMIT_MAX_US / block_us);
	if (sd->commit_max < sd->commit)
		sd->commit_max = sd->commit;
	seqdet_fb_init(sd, sample_rate);
	lead_space_init(sd, sample_rate);
	if (sd->lag + sd->every + 2 > RING) {
		free(sd);
		return -EINVAL;
	}
	sd->xr = calloc((size_t)RING * sd->L, sizeof(*sd->xr));
	sd->g_x = calloc((size_t)RING * sd->L, sizeof(*sd->g_x));
	sd->g_sc.cum = calloc((size_t)RING * sd->L + 1, sizeof(*sd->g_sc.cum));
	sd->g_sc.v = calloc((size_t)RING * sd->L + 1, sizeof(*sd->g_sc.v));
	sd->g_sc.b = calloc((size_t)RING * sd->L + 1, sizeof(*sd->g_sc.b));
	sd->g_sc.back = calloc((size_t)RING * sd->L + 1, sizeof(*sd->g_sc.back));
	sd->g_sc.count = calloc((size_t)RING * sd->L + 1, sizeof(*sd->g_sc.count));
	if (!sd->xr || !sd->g_x || !sd->g_sc.cum || !sd->g_sc.v || !sd->g_sc.b || !sd->g_sc.back || !sd->g_sc.count) {
		ir_seqdet_free(sd);
		return -ENOMEM;
	}
	*out = sd;
	return 0;
}

void ir_seqdet_free(struct ir_seqdet *sd)
{
	if (sd) {
		free(sd->xr);
		free(sd->g_x);
		free(sd->g_sc.cum);
		free(sd->g_sc.v);
		free(sd->g_sc.b);
		free(sd->g_sc.back);
		free(sd->g_sc.count);
	}
	free(sd);
}

void ir_seqdet_arm(struct ir_seqdet *sd, uint64_t n)
{
	sd->acq_n = 0;
	sd->acq_n0 = n;
}

void ir_seqdet_acquire(struct ir_seqdet *sd, float x)
{
	if (sd->acq_n < ACQ_MAX)
		sd->acq[sd->acq_n++] = x;
}

bool ir_seqdet_running(const struct ir_seqdet *sd)
{
	return sd->running;
}

double ir_seqdet_step(const struct ir_seqdet *sd)
{
	/* (before the hypotheses are chosen: the caller's, not one trellis's;
	 * trellis 0's fit (DC, scaled by 0.8) over an RC-MM header's
	 * acquisition, dark samples and all, was half the step, and the
	 * caller's strong-edge rule took the header's own end for a strong
	 * frame: the frame was lost) */
	return sd->best >= 0 ? sd->tr[sd->best].a : sd->step0;
}

bool ir_seqdet_short_units(const struct ir_seqdet *sd)
{
	return sd->best >= (int)(N_TAU_H * N_SCALE);
}

double ir_seqdet_baseline(const struct ir_seqdet *sd)
{
	return sd->b;
}

/* The first pulse's drooped level at sample n under coupling rate w: the
 * acquisition samples before sample `end` are G·w^(j - n) (least
 * squares); 0 when they say nothing. */
static double fit_level(const struct ir_seqdet *sd, double w, uint64_t n, double end)
{
	double num = 0, den = 0;

	for (unsigned j = 0; j < sd->acq_n && (double)(sd->acq_n0 + j) < end; j++) {
		double g = pow(w, (double)(sd->acq_n0 + j) - (double)n);
		double u = sd->pol * ((double)sd->acq[j] - sd->b);

		num += u * g;
		den += g * g;
	}
	return den > 0 && num > 0 ? num / den : 0;
}

double ir_seqdet_short_first(const struct ir_seqdet *sd, double b, int pol, double noise2)
{
	double u[ACQ_MAX], s = 0, best = 0, level = 0, all, tot;
	unsigned n = sd->acq_n;

	if (n < 6 || noise2 <= 0)
		return 0;
	for (unsigned j = 0; j < n; j++) {
		u[j] = (pol >= 0 ? 1 : -1) * ((double)sd->acq[j] - b);
		s += u[j];
	}
	all = s * s / n;
	/* lit for the first k samples, dark after: the change point that
	 * explains them best, at least a fifth of them lit, two dark (see
	 * SHORT_FIRST_LIT_PART, SHORT_FIRST_UNDERSHOOT) */
	tot = s;
	s = 0;
	for (unsigned k = 1; k + 2 <= n; k++) {
		double gain, under;

		s += u[k - 1];
		if (SHORT_FIRST_LIT_PART * k < n || s <= 0)
			continue;
		under = (tot - s) / (n - k);
		if (under < 0 && s / k + under >= 0) {
			gain = s * s / k + (tot - s) * (tot - s) / (n - k) - all;
		} else {
			gain = s * s / k - all;
			under = 0;
		}
		if (gain > best) {
			best = gain;
			level = s / k - SHORT_FIRST_UNDERSHOOT * under;
		}
	}
	return best / (2 * noise2) >= SHORT_FIRST_NATS ? level : 0;
}

/* What the acquisition samples' squared error under darkness exceeds the
 * one under "lit, drooped to g at sample n". */
static double acq_gain(const struct ir_seqdet *sd, double w, double g, uint64_t n)
{
	double sum = 0;

	for (unsigned j = 0; j < sd->acq_n; j++) {
		double p = g * pow(w, (double)(sd->acq_n0 + j) - (double)n);
		double u = sd->pol * ((double)sd->acq[j] - sd->b);

		sum += 2 * u * p - p * p;
	}
	return sum;
}

/* Trellis i: its family, τ and step scale follow from i. */
static void trellis_init(struct ir_seqdet *sd, struct trellis *t, unsigned i, double t0n,
			 double step, uint64_t n, bool replay)
{
	unsigned fam = i / (N_TAU_H * N_SCALE), h = (i / N_SCALE) % N_TAU_H;
	double scale = step_scale[i % N_SCALE];
	double w = ir_seqdet_tau_decay(h, sd->us), m = (double)n - t0n, g;
	unsigned age;

	for (unsigned s = 0; s < 2; s++) {
		unsigned D = (unsigned)ceil(min_run_us[fam][s] / sd->block_us);

		t->D[s] = D < 2 ? 2 : D > MAX_RUN_BLOCKS ? MAX_RUN_BLOCKS : D;
	}
	for (unsigned s = 0; s < 2; s++)
		t->long_run[s] = long_run_us[fam][s] > 0 ? (int)ceil(long_run_us[fam][s] / sd->block_us) : 0;
	t->edge_cost = sd->penalty / EDGE_NATS * edge_nats[fam];
	t->gap_run = 0;

	t->alive = true;
	seqdet_trellis_set_w(sd, t, w);
	if (m < 0)
		m = 0;
	g = fit_level(sd, w, n, t0n + first_pulse_us[fam] / sd->us);
	t->a = scale * (g > 0 ? g * pow(w, -m) : step);
	t->a0 = t->a;
	t->acq_gain = g > 0 && !replay ? acq_gain(sd, w, g, n) : 0;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned k = 0; k <= MAX_RUN_BLOCKS; k++) {
			t->cost[s][k] = COST_INF;
			t->c[s][k] = 0;
		}
	/* lit since t0: the low-pass has come as far as the level drooped */
	age = (unsigned)(m / sd->L);
	age = age < 1 ? 1 : age > t->D[1] ? t->D[1] : age;
	t->cost[1][age] = 0;
	t->run[0] = t->D[0];
	t->first_allow = fam == 1 ? (int)ceil((RCMM_MAX_PULSE_US - RCMM_BIT_PULSE_US) / sd->block_us) : 0;
	t->run[1] = (int)(m / sd->L) - t->first_allow;
	t->lead_run0 = t->run[1];
	t->c_start = g > 0 ? t->a - g : t->a * (1 - pow(w, m));
	t->c[1][age] = t->c_start;
	t->lead_on = sd->lead_prior && fam == 0;
	memset(t->lead_ring, 0, sizeof(t->lead_ring));
	t->lead_sat = 0;
}

void ir_seqdet_start(struct ir_seqdet *sd, const struct ir_seqdet_start *st)
{
	double t0n = st->t0_us / sd->us;
	/* the acquisition's samples go through the trellises too: a first
	 * pulse shorter than the acquisition (RC-MM's header) ends where
	 * they put it, not after them */
	bool replay = sd->acq_n > 0 && sd->acq_n0 + sd->acq_n == st->n;
	uint64_t n = replay ? sd->acq_n0 : st->n;

	sd->b = st->baseline;
	sd->pol = st->pol >= 0 ? 1 : -1;
	sd->penalty = 2 * st->noise2 * EDGE_NATS;
	sd->offset = 0;
	sd->t0_us = st->t0_us;
	sd->step0 = st->step;
	sd->noise0 = st->noise2;
	for (unsigned i = 0; i < N_TAU; i++)
		trellis_init(sd, &sd->tr[i], i, t0n, st->step, n, replay);
	sd->commit_now = st->commit_us > 0 ? (unsigned)ceil(st->commit_us / sd->block_us) : sd->commit;
	if (sd->commit_now > sd->commit_max)
		sd->commit_now = sd->commit_max;
	sd->best = -1;
	sd->n0 = n;
	sd->nb = 0;
	sd->fill = 0;
	sd->xsum = 0;
	sd->dec = 0;
	sd->dec_level = 1;
	sd->g_rise = -1;
	sd->g_told = 1;
	sd->g_sym = false;
	sd->ins_rise = -1;
	sd->g_n = 0;
	sd->last_edge = t0n;
	sd->long_pulses = 0;
	sd->gr_grid = -1;
	sd->gr_t0 = t0n;
	sd->gr_fall = sd->gr_rise = -1;
	sd->gr_told = 0;
	sd->gr_n = 0;
	sd->gr_stretch = NAN;
	sd->gr_lead_stretch = 0;
	sd->gr_tent = false;
	sd->gr_run_nats = 0;
	sd->gr_run_win[0] = 1;
	sd->gr_run_win[1] = 0;
	sd->gr_mid_par = -1;
	sd->ph_ref = t0n;
	sd->ph_n = 0;
	seqdet_fb_start(sd, n, t0n);
	sd->running = true;
	if (replay)
		for (unsigned j = 0; j < sd->acq_n && sd->running; j++)
			ir_seqdet_push(sd, sd->acq[j]);
}

void ir_seqdet_stop(struct ir_seqdet *sd)
{
	sd->running = false;
}

static double trellis_min(const struct trellis *t, unsigned *s_out, unsigned *k_out)
{
	double best = COST_INF;

	for (unsigned s = 0; s < 2; s++)
		for (unsigned k = 1; k <= t->D[s]; k++)
			if (t->cost[s][k] < best) {
				best = t->cost[s][k];
				if (s_out) {
					*s_out = s;
					*k_out = k;
				}
			}
	return best;
}

/* Costs only matter relative to each other: keep them near 0. */
static void renormalise(struct ir_seqdet *sd)
{
	double m = COST_INF;

	for (unsigned i = 0; i < N_TAU; i++)
		if (sd->tr[i].alive) {
			double v = trellis_min(&sd->tr[i], NULL, NULL);

			if (v < m)
				m = v;
		}
	for (unsigned i = 0; i < N_TAU; i++) {
		struct trellis *t = &sd->tr[i];

		if (!t->alive)
			continue;
		for (unsigned s = 0; s < 2; s++)
			for (unsigned k = 1; k <= t->D[s]; k++)
				if (t->cost[s][k] < COST_INF)
					t->cost[s][k] -= m;
	}
	sd->offset += m;
}

/* The hypothesis with the smallest cost so far. */
static int best_trellis(const struct ir_seqdet *sd)
{
	double best = COST_INF;
	int b = 0;

	for (unsigned i = 0; i < N_TAU; i++) {
		/* (a family with shorter runs fits noise better: it must win
		 * by FAMILY_NATS) */
		double v = trellis_min(&sd->tr[i], NULL, NULL) +
			   (i >= N_TAU_H * N_SCALE ? sd->penalty / EDGE_NATS * FAMILY_NATS : 0);

		if (v < best) {
			best = v;
			b = (int)i;
		}
	}
	return b;
}

/* True when trellis i's best path beats darkness all along by START_NATS. */
static bool start_proven(const struct ir_seqdet *sd, int i)
{
	return trellis_min(&sd->tr[i], NULL, NULL) + sd->offset - sd->tr[i].acq_gain <=
	       -sd->penalty / EDGE_NATS * START_NATS;
}

/* See COMMIT_MAX_US: the best hypothesis is lit now (a long first pulse,
 * or a later one, that has not ended), or its start is not proven yet. */
static bool commit_wait(const struct ir_seqdet *sd)
{
	int i = best_trellis(sd);
	unsigned s = 0, k = 0;

	if (sd->nb >= sd->commit_max)
		return false;
	trellis_min(&sd->tr[i], &s, &k);
	return s == 1 || !start_proven(sd, i);
}

/* See NEIGHBOUR_SWITCH_NATS: before a traceback, the kept trellis gives
 * way to a neighbour (fb_neighbours) whose best path has become cheaper
 * by that much.  The decided path's low-pass goes on under the
 * neighbour's τ (the decision feedback's, as fb_switch takes it). */
static void neighbour_switch(struct ir_seqdet *sd)
{
	unsigned kept = (unsigned)sd->best, to = kept;
	double ck = trellis_min(&sd->tr[kept], NULL, NULL), cn = ck;

	for (unsigned i = 0; i < N_TAU_H * N_SCALE; i++)
		if (i != kept && sd->tr[i].alive) {
			double v = trellis_min(&sd->tr[i], NULL, NULL);

			if (v < cn) {
				cn = v;
				to = i;
			}
		}
	if (to == kept || ck - cn < sd->penalty / EDGE_NATS * NEIGHBOUR_SWITCH_NATS)
		return;
	sd->best = (int)to;
	sd->dec_c = sd->tr[to].a * sd->fb.l[(to / N_SCALE) % N_TAU_H];
}

/* The hypothesis with the smallest cost so far is kept. */
static void commit(struct ir_seqdet *sd)
{
	sd->best = best_trellis(sd);
	for (unsigned i = 0; i < N_TAU; i++)
		sd->tr[i].alive = (int)i == sd->best;
	/* the decided path starts lit, its c as the survivor's start */
	sd->dec_c = sd->tr[sd->best].c_start;
}

/* Trellis t's best survivor traced back over blocks [dec, nb) into
 * sd->lev (nb > dec). */
static void trace_back(struct ir_seqdet *sd, const struct trellis *t)
{
	unsigned s = 0, k = 1;

	trellis_min(t, &s, &k);
	for (uint64_t j = sd->nb - 1;; j--) {
		uint8_t bits = t->bits[j % RING];

		sd->lev[j % RING] = (int)s;
		if (j == sd->dec)
			break;
		if (k == 1) {
			s = 1 - s;
			k = t->D[s];
		} else if (k < t->D[s] || !(bits & (1u << s))) {
			k--;
		}
	}
}

/* The sample where the decided change from level `from` to `to` at block
 * j's start fits best, within a block either way (blocks of ~55 µs put
 * an edge up to half a block off, and a period of two edges a whole
 * block: more than half RC-MM's ±83 µs).  The samples' restored levels
 * are taken against the low-pass c at the boundary (it moves by little
 * over two blocks). */
static double refine_edge(const struct ir_seqdet *sd, const struct trellis *t, uint64_t j, int from,
			  int to)
{
	double tf = from ? t->a : 0, tt = to ? t->a : 0, best = 0, acc;
	int L = (int)sd->L, shift = 0;

	if (j == 0 || sd->L < 2)
		return 0;
	/* earlier: samples of block j - 1 take the new level */
	acc = 0;
	for (int k = 1; k < L; k++) {
		uint64_t jj = j - 1;
		double r = sd->pol * ((double)sd->xr[(jj % RING) * sd->L + (unsigned)(L - k)] - sd->b) + sd->dec_c;

		acc += (tt - tf) * (tt + tf - 2 * r);
		if (acc < best) {
			best = acc;
			shift = -k;
		}
	}
	/* later: samples of block j keep the old level */
	acc = 0;
	for (int k = 0; k + 1 < L; k++) {
		double r = sd->pol * ((double)sd->xr[(j % RING) * sd->L + (unsigned)k] - sd->b) + sd->dec_c;

		acc += (tf - tt) * (tf + tt - 2 * r);
		if (acc < best) {
			best = acc;
			shift = k + 1;
		}
	}
	return shift;
}

/* RC-MM's symbol detector (ir_rcmm_symbols) after the first bit pulse;
 * 0: the grid's retiming all through (rcmm_plan). */
#ifndef RCMM_SYMBOLS
#define RCMM_SYMBOLS 1
#endif
#ifndef RCMM_SYM_MARGIN_NATS
#define RCMM_SYM_MARGIN_NATS 4.0
#endif

static bool rcmm_family(const struct ir_seqdet *sd)
{
	return sd->best >= (int)(N_TAU_H * N_SCALE);
}

/* The traced path's low-pass (what the AC coupling subtracts) at the
 * start of each block of [dec, nb), into sd->g_c: the restoring term of
 * ring_restored (the unit grids) and rcmm_window (RC-MM's grid). */
static void trace_lowpass(struct ir_seqdet *sd, const struct trellis *t)
{
	double c = sd->dec_c;

	for (uint64_t j = sd->dec; j < sd->nb; j++) {
		double T = sd->lev[j % RING] ? t->a : 0;

		sd->g_c[j % RING] = c;
		c = T + (c - T) * t->wl;
	}
}

/* Raw sample s (an index of the stream) from the ring, restored with
 * the traced path's low-pass there (sd->g_c, set by trace_lowpass); false
 * when it is no longer (or not yet) there. */
static bool ring_restored(const struct ir_seqdet *sd, const struct trellis *t, double s, double *r)
{
	double rel = s - (double)sd->n0, c, T;
	uint64_t j, off;

	if (rel < 0 || rel >= (double)(sd->nb * sd->L))
		return false;
	j = (uint64_t)rel / sd->L;
	off = (uint64_t)rel % sd->L;
	if (j + RING <= sd->nb || j < sd->dec)
		return false;
	T = sd->lev[j % RING] ? t->a : 0;
	c = T + (sd->g_c[j % RING] - T) * (off ? t->wp[off - 1] : 1);
	*r = sd->pol * ((double)sd->xr[(j % RING) * sd->L + off] - sd->b) + c;
	return true;
}

/* The path's rises and falls over blocks [dec, nb), to the sample (as
 * refine_edge puts them): rises r[], the fall after each f[] (-1 where
 * it is not in the window), *fall0 the last fall before r[0] (the last
 * edge told where there is none); returns how many rises.  Sets g_blk
 * and g_c. */
static unsigned rcmm_path_edges(struct ir_seqdet *sd, const struct trellis *t, double *r, double *f,
				double *fall0)
{
	int lev = sd->dec_level;
	unsigned n = 0;

	trace_lowpass(sd, t);
	for (uint64_t j = sd->dec; j < sd->nb; j++) {
		int l = sd->lev[j % RING];
		double s;

		if (l == lev)
			continue;
		s = (double)(sd->n0 + j * sd->L) + refine_edge(sd, t, j, lev, l);
		lev = l;
		if (l && n == IR_RCMM_PLAN_MAX)
			break;
		if (l) {
			sd->g_blk[n] = j;
			f[n] = -1;
			r[n++] = s;
		} else if (n > 0) {
			f[n - 1] = s;
		} else {
			*fall0 = s;
		}
	}
	return n;
}

/* The window's samples (blocks [dec, nb), as ring_restored has them)
 * restored with the traced path's low-pass (sd->g_c), into sd->g_x: RC-MM's
 * grid (ir_seqdet_rcmm.h) scores its pulses on them; returns the first
 * sample's stream index, *n the samples. */
static double rcmm_window(struct ir_seqdet *sd, const struct trellis *t, unsigned *n)
{
	uint64_t j0 = sd->dec;

	if (j0 + RING <= sd->nb)
		j0 = sd->nb - RING + 1;
	*n = 0;
	for (uint64_t j = j0; j < sd->nb; j++) {
		double T = sd->lev[j % RING] ? t->a : 0;

		for (unsigned off = 0; off < sd->L; off++) {
			double c = T + (sd->g_c[j % RING] - T) * (off ? t->wp[off - 1] : 1);

			sd->g_x[(*n)++] = sd->pol * ((double)sd->xr[(j % RING) * sd->L + off] - sd->b) + c;
		}
	}
	return (double)(sd->n0 + j0 * sd->L);
}

/* Before telling blocks [dec, upto): the traced path's rises over
 * [dec, nb) timed on RC-MM's grid, and the first gap between two that no
 * symbol has mended (ir_rcmm_plan): sd->g_at, ins_rise, ins_fall. */
static void rcmm_plan(struct ir_seqdet *sd, const struct trellis *t)
{
	struct ir_rcmm *w = &sd->rcmm;
	struct ir_rcmm_plan plan;

	w->fall0 = sd->last_edge;
	w->n = rcmm_path_edges(sd, t, w->rise, w->fall, &w->fall0);
	w->us = sd->us;
	w->a = t->a;
	w->noise2 = sd->penalty / (2 * EDGE_NATS);
	w->from = (double)(sd->n0 + sd->dec * sd->L);
	w->prev_rise = sd->g_rise;
	w->s0 = rcmm_window(sd, t, &w->n_x);
	w->x = sd->g_x;
	ir_rcmm_plan(w, &plan);
	sd->g_n = w->n;
	sd->ins_rise = plan.ins_rise;
	sd->ins_fall = plan.ins_fall;
	for (unsigned k = 0; k < w->n; k++)
		sd->g_at[k] = plan.at[k];
}

/* RC-MM after its first bit pulse: the symbols over the window
 * (ir_rcmm_symbols, from the last rise told) whose rises lie before
 * block `upto` are told, each a bit pulse. */
static void rcmm_symbols_tell(struct ir_seqdet *sd, const struct trellis *t, uint64_t upto)
{
	struct ir_rcmm *w = &sd->rcmm;
	double rise[IR_RCMM_PLAN_MAX], margin[IR_RCMM_PLAN_MAX], end = (double)(sd->n0 + upto * sd->L);
	unsigned P = ir_rcmm_bit_samples(sd->us), width = P, n;

	trace_lowpass(sd, t);
	w->us = sd->us;
	w->a = t->a;
	w->noise2 = sd->penalty / (2 * EDGE_NATS);
	w->from = (double)(sd->n0 + sd->dec * sd->L);
	/* (before the first bit pulse: from the header's rise) */
	w->prev_rise = sd->g_told == 1 ? sd->gr_t0 : sd->g_rise;
	w->fall0 = sd->last_edge;
	w->n = 0;
	w->s0 = rcmm_window(sd, t, &w->n_x);
	w->x = sd->g_x;
	n = ir_rcmm_symbols(w, sd->g_told, &sd->g_sc, rise, margin);
	for (unsigned k = 0; k < n && rise[k] < end; k++) {
		if (margin[k] < RCMM_SYM_MARGIN_NATS) {
			/* a symbol the samples cannot tell from another is
			 * told as a pulse too short for a bit pulse (under
			 * half one; every period is some symbol's within
			 * ±83 µs): the decoder refuses the frame there (a
			 * wrong code is worse than none), and the detector
			 * stays in step with the rest of it (given up, its
			 * rest started frames of its own: 74 iMON and 44
			 * RC-MM-12/24 false frames in 1200 at 0-2 dB) */
			width = P / 4 > 1 ? P / 4 : 1;
		}
		sd->edge_fn(sd->userdata, (rise[k] - 0.5) * sd->us, true);
		if (!sd->running)
			return;
		sd->edge_fn(sd->userdata, (rise[k] + width - 0.5) * sd->us, false);
		if (!sd->running)
			return;
		sd->g_rise = rise[k];
		sd->last_edge = rise[k] + width;
		sd->g_told++;
	}
}

/* The sample a grid planned for the edge at block j (blk[k] == j: at[k],
 * of n planned), else `s`. */
static double planned_edge(const uint64_t *blk, const double *at, unsigned n, uint64_t j, double s)
{
	for (unsigned k = 0; k < n; k++)
		if (blk[k] == j)
			return at[k];
	return s;
}

/* The first lit sample of the rise told at block j: as planned, else
 * `s` (refine_edge's); never before the last edge told. */
static double rcmm_rise_at(const struct ir_seqdet *sd, uint64_t j, double s)
{
	return fmax(planned_edge(sd->g_blk, sd->g_at, sd->g_n, j, s), sd->last_edge + 1);
}

/* Block j is being told: a planned bit pulse that starts in it (and ends
 * before `upto`, what this call decides) is told first. */
static void rcmm_tell_inserted(struct ir_seqdet *sd, uint64_t j, uint64_t upto)
{
	double b0 = (double)(sd->n0 + j * sd->L);

	if (sd->ins_rise < b0 || sd->ins_rise >= b0 + sd->L || sd->dec_level != 0 ||
	    sd->ins_fall >= (double)(sd->n0 + upto * sd->L))
		return;
	sd->edge_fn(sd->userdata, (sd->ins_rise - 0.5) * sd->us, true);
	if (!sd->running)
		return;
	sd->edge_fn(sd->userdata, (sd->ins_fall - 0.5) * sd->us, false);
	sd->g_rise = sd->ins_rise;
	sd->g_told++;
	sd->last_edge = sd->ins_fall;
	sd->ins_rise = -1;
}

/* The general family's unit grid (see ir_seqdet_grid.h): an edge may
 * move this far from where the blocks and refine_edge put it.  The lead's
 * trace of rc6_0 at 0 dB 44.1 kHz found edges 150-260 µs off. */
#ifndef GRID_RETIME_US
#define GRID_RETIME_US 260.0
#endif

/* Once the frame's grid is known, its edges cost EDGE_NATS scaled by the
 * grid's unit in samples over GRID_UNIT_FULL_SAMPLES (the whole of it at
 * 16 samples a unit and more: every grid from 36 kHz up, RC-6's 444 µs
 * included: GRID_RUN_UNITS prices those).  A pulse of one unit is evidence
 * in proportion to its samples (a²/2σ² nats each), its two edges cost
 * 2·EDGE_NATS whatever the rate: at 16 kHz a 563 µs NEC bit pulse is
 * 9 samples, ~28 ± 7.5 nats at 2 dB, and its 8 nats of edges decided it
 * dark about one time in 300, a tenth of NEC's 34-pulse frames (traced
 * at 16 kHz 2 dB, τ 1/5 ms/DC, six protocols: 330 of 876 lost frames had
 * the right start and one or two pulses wrong, most a pulse missed, the
 * edges two fewer; 132 more had several wrong).  Holding the edges' cost
 * per sample of a unit where EDGE_NATS was tuned keeps the ratio of
 * missed pulses to false ones (a 300 µs false run's evidence scales with
 * its samples the same way).  bench_audio limit --rates 16000, 0/2/4 dB
 * (six protocols × τ 1/5 ms/DC), with GRID_GAP_NATS: 12.3/48.7/85.6 ->
 * 18.6/57.0/88.3 % (up to +21 points a cell, nec 5 ms 2 dB 66 -> 87,
 * rc6_0 DC 2 dB 41 -> 62; none down by more than one frame).  Without
 * the gap rule, full at 16 samples 18.4/57.1/88.2, at 12 15.4/54.9/88.0,
 * at 20 20.4/58.2/87.7 (RC-5 DC 2 dB 94 -> 92, Sony τ 1 ms 4 dB
 * 63 -> 58); EDGE_NATS 2 at 16 kHz for every trellis from the start
 * 21.6/57.9/87.4, but RC-5 τ 1 ms/DC 2 dB 31/94 -> 27/89 (its 14-sample
 * units lose more to false runs than to missed ones) and RC-MM's family
 * choice (rcmm32 DC 4 dB 26 -> 19).  (With the run-length prior, its
 * hazard is what an edge costs: GRID_RUN_PRIOR_SHORT_UNITS.) */
#ifndef GRID_UNIT_FULL_SAMPLES
#define GRID_UNIT_FULL_SAMPLES 16.0
#endif

/* Where a grid's unit has its full samples, its edges cost what they
 * tell of where the edges fall: on the frame's grid an edge comes every
 * GRID_RUN_UNITS units or so (a pulse-distance code's bit is a unit's
 * pulse and a space of one unit or three, 1.5 units a run; Manchester's
 * runs of one unit or two, 1.33; Sony's 1.25), so an edge at a given
 * block has prior odds of about one in GRID_RUN_UNITS × unit / block,
 * its cost the log of that (EDGE_NATS at most): at 44.1 kHz (45 µs
 * blocks) RC-6 2.7, NEC 2.9, RC-5 3.4 nats; at 48 kHz (62.5 µs) RC-6 2.4,
 * NEC 2.6.  EDGE_NATS was set for a lone false pulse in the dark, before
 * a frame is known; within one, at 0 dB under a 1 ms coupling (a 444 µs
 * unit pulse ~32 ± 8 nats, its edges 8 of them) a unit pulse or space
 * was decided away in ~1.5 % of them: traced at 44.1 kHz, τ 1 ms, of
 * 79 frames lost (nec, rc6_0, sony12, sanyo at 44.1/48 kHz) 50 started
 * right and then had one or two pulses wrong (rc6_0 44.1 kHz: 15 of 15,
 * 11 a pulse or space missed, 9 of them one unit, 4 an edge a unit off);
 * forcing the true τ (1 ms) at the commit did not help (88.0/92.5 ->
 * 87.5/91.5 %).
 * bench_audio limit --rates 44100,48000 --taus 1 --snr 0 --protocols
 * nec,rc6_0,sony12,sanyo: 88.0/92.5 -> 91.2/95.2 %; with GRID_RUN_UNITS
 * 1: 91.5/95.2, 2: 90.5/94.8; a flat 3 nats 90.5/94.8, 2.5 91.5/95.0,
 * 2 91.2/95.2.  All protocols × τ 1/5 ms/DC, --snr 0,2: 0 dB
 * 90.6/93.0 -> 91.5/93.7 %, 2 dB 98.5/98.7 -> 98.6/98.7, no point down;
 * bench_audio false 0 at 44.1/48 kHz.  The rise in the gap past the
 * frame's grid costs GRID_GAP_NATS, as at 16 kHz. */
#ifndef GRID_RUN_UNITS
#define GRID_RUN_UNITS 1.5
#endif

/* The blocks decided before the frame's grid was known paid EDGE_NATS an
 * edge: the commit comes at COMMIT_MAX_US under a 1 ms coupling at 0 dB
 * (traced: 11.1-11.5 ms after the start for RC-6, Sony, NEC and Sanyo at
 * 44.1/48 kHz), its first traceback tells ~7 ms, and the grid is fixed
 * only once the leader's space and the rise after it are told.  At the
 * commit nothing is told, and where the kept trellis's path already has
 * the leader and the rise after it (RC-6's 2.7 ms + 889 µs, Sony's
 * 2.4 ms + 600 µs; not a 9 ms leader's 4.5 ms space), the grid they pick
 * prices the edges after the leader's fall: the kept trellis starts
 * again at the frame's start and decides the blocks since anew
 * (commit_replay; the leader's pulse keeps EDGE_NATS).  When
 * the grid is fixed from the edges told, the undecided blocks are decided
 * again at once on its cost, as the decision feedback's fits do.  A
 * later grid that differs replaces it; none (gr_grid -2) restores
 * EDGE_NATS.  Traced (first edge wrong of each frame lost after a right
 * start, against the truth): told before the grid was fixed and not the
 * leader's own, 44.1/48 kHz 0 dB τ 1 ms nec/rc6_0/sony12/sanyo 10 -> 6
 * frames of 800; 16 kHz 2 dB τ 1 ms, seven protocols, 36 -> 17 of 700
 * (the leader's own edges wrong: 4 -> 4 and 57 -> 55, no grid yet).
 * bench_audio limit --rates 44100,48000 --taus 1 --snr 0 --protocols
 * nec,rc6_0,sony12,sanyo 91.2/95.2 -> 92.2/95.2 %; --rates 16000 --taus 1
 * --snr 2 37.8 -> 40.7 (rc6_0 29 -> 36, sony12 44 -> 50); --rates
 * 44100,48000 --snr 0,2 0 dB 92.8/94.6 -> 93.1/94.6 (2 dB the same);
 * --rates 16000 --snr 2,4 69.4/93.8 -> 71.3/94.2.  (With the leader
 * priced from the start: the replay at the commit alone
 * 92.0/95.2 and 40.5, the restart at the grid's fix alone 91.5/95.0 and
 * 38.8.)  Both only where the decided (or, at the commit, traced) path
 * fits the model (seqdet_fb_fits: at most NEIGHBOUR_FIT_NOISE times the
 * noise unexplained, as the τ neighbours): ungated, bench_audio false
 * --rate 48000 gave a false Roomba frame an hour on its music-like input
 * (a start on music re-decided on the grid's cheaper edges; main 0);
 * gated 0/h on every input at 48/44.1/16 kHz, and the figures above
 * cell for cell the same.  GRID_REPLAY 0: neither (main's decisions). */
#ifndef GRID_REPLAY
#define GRID_REPLAY 1
#endif

/* On the frame's grid a run lasts one of a few whole numbers of units
 * (ir_grid_runs: RC-6's data 1 or 2, NEC's pulse 1 and spaces 1 or 3,
 * Sony's pulses 1 or 2 and spaces 1), give or take GRID_RUN_TOL of a
 * unit and a block (where the blocks put its edges), and a receiver's
 * stretch (the frame's, as its plans show it: marks longer, spaces
 * shorter by as much).  So where an edge may come depends on how long
 * the run it ends has lasted.  The run-length prior: each of the data
 * bits' lengths equally likely, spread over its window; the grid's other
 * lengths (a leader's, RC-6's trailer's 3 units, NEC's repeat space)
 * and, for spaces, the frame's end GRID_RUN_ONCE each (they come about
 * once in a frame's 20-40 runs); GRID_RUN_OFF_MASS of it all off the
 * grid (a remote off its timings).  An edge that ends a run of r blocks
 * costs -ln h(r), the hazard P(r) / P(≥ r); a run that goes on past r
 * blocks -ln(1 - h(r)) (the trellis pays these on its saturated states'
 * survivors, whose run it counts; a run still in the states before them
 * has not reached the grid's shortest).  With a flat edge cost a unit
 * pulse is decided away at the price of its two edges, whatever length
 * the merged run then has; with the prior, the merged run pays for going
 * on past the windows where runs end (traced at 44.1/48 kHz 0 dB τ 1 ms,
 * nec/rc6_0/sony12/sanyo: of 31 frames lost after a right start, 16 a
 * unit pulse or space missed, most of the rest an edge a unit or half a
 * unit off).  bench_audio limit --rates 44100,48000 --taus 1 --snr 0
 * --protocols nec,rc6_0,sony12,sanyo: 92.2/95.2 -> 94.8/97.8 % (rc6_0
 * 92/91 -> 97/97); --snr -2,0,2 (all protocols × τ 1/5 ms/DC):
 * 64.4/73.9, 93.1/94.6, 99.0/99.0 -> 69.1/78.3, 93.7/95.4, 99.0/99.0
 * (45 points up, 2 down by a frame), other codes 53 -> 38; --stretch 200
 * --taus 1,0 --snr 0 73.2/77.1 -> 79.6/80.8 (none down).  Tried: every
 * grid length weighted alike 93.5/97.0 on the first command; the
 * leader's stretch only (not the plans'), --stretch 200 NEC, JVC and
 * Sanyo down 5-14 points (a 9 ms leader's fall under τ 1 ms tells its
 * stretch poorly); off-grid mass 0.01-0.2 the same to a frame.  Below
 * GRID_UNIT_FULL_SAMPLES a unit too: see GRID_RUN_PRIOR_SHORT_UNITS.
 * GRID_RUN_PRIOR 0: main's flat cost. */
#ifndef GRID_RUN_PRIOR
#define GRID_RUN_PRIOR 1
#endif
#ifndef GRID_RUN_TOL
#define GRID_RUN_TOL 0.2
#endif
#ifndef GRID_RUN_OFF_MASS
#define GRID_RUN_OFF_MASS 0.05
#endif
/* ...but GRID_RUN_OFF_MASS_SHORT where the grid's unit has fewer samples
 * than GRID_UNIT_FULL_SAMPLES (every grid at 16 kHz): there a unit pulse's
 * evidence at 0 dB is a few nats, and at 0.05 a run off the grid cost
 * about what the legal runs it merged did (NEC: a space of 5 units, a
 * bit pulse missed between a unit space and a 3-unit one, ~7.4 nats
 * against their ~6.5; a 3-unit pulse, a unit space missed, the same), so
 * that the samples alone decided whether a unit pulse or space was there.
 * Traced at 16 kHz 0 dB (six protocols × τ 1/5 ms/DC, told runs against
 * the harness's truth): of the frames lost after a right start, 162 first
 * went wrong at a unit run missed in the data, most NEC's and Sanyo's 5-
 * and 7-unit spaces and 3-unit pulses.  At 0.002 a 5-unit space costs
 * ~10.6 nats: 131 (0.01 134, 0.0005 124 but more runs stopped).  Not on
 * a Manchester grid (gr_mid_par set: RC-5's, RC-6's; untraced why, a
 * run off the grid may be how its phase recovers from a slip): there
 * rc6_0 5 ms 2 dB went 89 -> 84 % (86 with the phase table's mass
 * kept).  44.1/48 kHz keep 0.05 (all units full there: byte-identical).
 * bench_audio limit
 * --rates 16000 --snr 0 --taus 5,0 --protocols nec,jvc,sanyo,sony12
 * --frames 300: 521.0 -> 532.3 (sum of the 8 cells' %, none down). */
#ifndef GRID_RUN_OFF_MASS_SHORT
#define GRID_RUN_OFF_MASS_SHORT 0.002
#endif
#ifndef GRID_RUN_END
#define GRID_RUN_END 0.05
#endif
#ifndef GRID_RUN_ONCE
#define GRID_RUN_ONCE 0.05
#endif

/* The run-length prior where a grid's unit has fewer samples than
 * GRID_UNIT_FULL_SAMPLES too (every grid at 16 kHz, all but RC-5's at
 * 22.05 kHz).  The hazard is a prior's log-odds of where a run ends: it does not
 * depend on how many samples tell the run, so it needs no scaling by the
 * unit's samples as the flat cost did (that only held the ratio of missed
 * to false pulses).  And there it is worth most: a 16 kHz unit pulse is
 * 7-9 samples, its evidence at 0 dB about as much as the two edges' flat
 * cost, so a unit pulse or space missed, or an edge half a unit to a unit
 * off, was decided on the edges' price alone.  Traced (16 kHz 0 dB, six
 * protocols × τ 1/5 ms/DC, 1164 of 1800 frames lost on main): no right
 * start 482, after a right start the leader's edges 170, later edges 506
 * (edge half a unit to a unit off or several runs merged 262, a unit
 * pulse or space missed 243).  bench_audio limit --rates 16000
 * --protocols nec,rc5,rc6_0,sony12,jvc,sanyo --snr 0,2: 35.3/74.7 ->
 * 46.1/80.6 % (36 of 36 cells up), other codes 15 -> 8; --snr 4,6
 * 95.9/99.6 -> 97.1/99.6 (9 up, none down); --rates 22050 --snr 0,2
 * 63.6/92.8 -> 75.1/94.9 (26 up, 2 down: rc6_0 DC 2 dB 98 -> 97, sony12
 * 5 ms 2 dB 97 -> 95).  Tried: the hazard scaled by the unit's part as
 * the flat cost (45.9/80.7) or its square root (46.8/81.4): the same
 * within the scatter.  ≥ 10 dB at 16 kHz and 44.1/48 kHz (every grid's
 * unit full there) byte-identical.  0: main (none below full samples). */
#ifndef GRID_RUN_PRIOR_SHORT_UNITS
#define GRID_RUN_PRIOR_SHORT_UNITS 1
#endif

/* Where in the frame a run ends tells too: RC-6's 3-unit runs are its
 * trailer bit's halves next to a unit half (ir_grid_trailer: ending 18 or
 * 21 units after the frame's first rise), nowhere else.  With the rest
 * of the grid's once-a-frame lengths (GRID_RUN_ONCE) everywhere, a unit
 * pulse or space decided away between two unit runs made a legal 3-unit
 * run anywhere in RC-6's data: traced at 44.1/48 kHz −2 dB τ 1 ms
 * (nec, rc6_0, sony12, sanyo, 800 frames), 9 of rc6_0's 34 losses on the
 * grid.  So a trailer's run weighs as a data bit's within its window
 * (give or take GRID_RUN_TOL, a block and the frame's stretch) and
 * nothing but the off-grid mass outside it.  With LEAD_PRIOR_MAX_RATE
 * at 50 kHz, bench_audio limit --rates 44100,48000 --taus 1 --protocols
 * rc6_0,sony12,nec,sanyo -2 dB: 52.2/72.0 -> 54.0/74.2 % (rc6_0 57/63
 * -> 62/70; the trailer alone 52.5/72.5, rc6_0 58/65, 3 frames up and
 * none down; the leader's space alone 53.8/73.8), 0 dB 94.8/97.8 ->
 * 95.0/97.8; --snr -2,0,2 (all protocols × τ 1/5 ms/DC) -2 dB
 * 69.1/78.3 -> 69.7/79.0, 0 and 2 dB the same (93.7/95.4, 99.0/99.0),
 * 15 cells up, 1 down by a frame (rc6_0 5 ms 0 dB 44.1 kHz 99 -> 98),
 * other codes the same 38.  GRID_RUN_TRAILER 0: the once-a-frame weight
 * everywhere. */
#ifndef GRID_RUN_TRAILER
#define GRID_RUN_TRAILER 1
#endif

/* A Manchester bit (RC-6's, RC-5's) has its transition mid-bit, and one
 * at its boundary only where it and the next are alike: a data run of two
 * units starts and ends mid-bit; from a bit boundary a run lasts a unit.
 * The memoryless prior (one or two units, 1 : 1) let an edge slip a unit
 * where both runs it ends and starts stay legal lengths.  Traced at
 * 16 kHz 0 dB (six protocols × τ 1/5 ms/DC, the harness's told runs
 * against the truth): of RC-6's 145 frames lost after a right start, 75
 * had a two-unit run told from a bit boundary, 1 of the 89 decoded.
 * So a run whose start falls on a bit boundary (whole units after the
 * frame's first rise, ir_grid_mid_parity; off a whole unit by
 * IR_GRID_PHASE_TOL or more, or before the data: not known) weighs the
 * data lengths over a unit at 0 (only the off-grid mass); RC-6's trailer
 * window keeps its own table (its mid-bit is off the parity); the
 * retimer (ir_grid_retime) prices such a run as one off the grid.  The
 * units count from the last rise told on the grid (phase_ref_rise), not
 * the first: a remote's clock 2 % off moves an edge a unit in 50, past
 * an RC-6 frame's end (irjack synth of 40 RC-6 codes × 4 seeds, 16 kHz
 * 3 dB DC, the WAV's rate 2 % low/right/high: main 150/153/153 decoded,
 * counted from the first rise 142/153/148, from the last told rise
 * 145/153/151).  bench_audio limit --rates 16000 --protocols nec,rc5,
 * rc6_0,sony12,jvc,sanyo --snr -2,0,2,4,6: 12.9/46.4/80.7/97.2/99.6 ->
 * 13.1/47.4/81.8/97.3/99.6 % (rc6_0 0 dB 6/33/50 -> 9/40/59, 2 dB
 * 58/82/85 -> 61/89/89; 14 cells up, 3 down a frame), other codes 31 ->
 * 31; the trellis's prior alone 46.9/81.3 at 0/2 dB.  --rates
 * 44100,48000 --snr -2,0,2 --frames 50: rc6_0 τ 1 ms −2 dB 66/72 ->
 * 76/76, none down.  GRID_RUN_PHASE 0: the memoryless prior everywhere
 * (main's decisions). */
#ifndef GRID_RUN_PHASE
#define GRID_RUN_PHASE 1
#endif

/* The weight of a run of m units in grid_run_mass: a data bit's 1, a
 * once-a-frame run's GRID_RUN_ONCE, a trailer's (mask `trailer`) 1 within
 * its window and 0 elsewhere (see GRID_RUN_TRAILER); 0: not the grid's. */
static double grid_run_weight(unsigned runs, unsigned bits, unsigned trailer, int at_trailer, int m)
{
	if (!(runs & (1u << m)))
		return 0;
	if (bits & (1u << m))
		return 1;
	if (GRID_RUN_TRAILER && (trailer & (1u << m)))
		return at_trailer;
	return GRID_RUN_ONCE;
}

/* The run-length prior P[r] (see GRID_RUN_PRIOR) of level `lit` on grid
 * `grid` over the table's blocks, within the trailer's window or not
 * (`at_trailer` 1 or 0, see GRID_RUN_TRAILER), or from a Manchester bit's
 * boundary (2, see GRID_RUN_PHASE); returns the mass past the table. */
static double grid_run_mass(const struct ir_seqdet *sd, int grid, int lit, int at_trailer, double *P)
{
	double unit = ir_grid_unit(grid), tol_us = GRID_RUN_TOL * unit + sd->block_us, from, to;
	double shift = (lit ? 1 : -1) * sd->gr_run_stretch, tail = lit ? 0 : GRID_RUN_END, tot = tail;
	unsigned runs = ir_grid_runs(grid, lit, false), bits = ir_grid_runs(grid, lit, true);
	unsigned trailer = ir_grid_trailer(grid, &from, &to);
	int gap = (int)fmin(GRID_RUN_TABLE, ceil((ir_grid_longest_space(grid) + unit) / sd->block_us));
	double off = unit / sd->us < GRID_UNIT_FULL_SAMPLES && sd->gr_mid_par < 0 ? GRID_RUN_OFF_MASS_SHORT
										  : GRID_RUN_OFF_MASS;

	/* (from a Manchester bit boundary: see GRID_RUN_PHASE) */
	if (at_trailer == 2) {
		runs &= ~(bits & ~(1u << 1));
		bits &= 1u << 1;
		at_trailer = 0;
	}

	for (int r = 0; r < GRID_RUN_TABLE; r++)
		P[r] = 0;
	for (int m = 1; m < 32; m++) {
		double c = m * unit + shift, w = grid_run_weight(runs, bits, trailer, at_trailer, m);
		int lo = (int)fmax(1, ceil((c - tol_us) / sd->block_us)), hi = (int)floor((c + tol_us) / sd->block_us);

		if (!(w > 0) || hi < lo)
			continue;
		for (int r = lo; r <= hi; r++)
			if (r < GRID_RUN_TABLE)
				P[r] += w / (hi - lo + 1);
			else
				tail += w / (hi - lo + 1);
		tot += w;
	}
	/* (past the table: a pulse's runaway, a space's gap) */
	for (int r = 1; r < gap; r++)
		P[r] += off * tot / gap;
	return tail + off * tot / gap;
}

/* sd->gr_run_win: the blocks where grid `grid`'s trailer runs may end
 * under a receiver's stretch of stretch_us (see GRID_RUN_TRAILER; none:
 * an empty window). */
static void grid_trailer_window(struct ir_seqdet *sd, int grid, double stretch_us)
{
	double unit = ir_grid_unit(grid), from, to, slack;

	sd->gr_run_win[0] = 1;
	sd->gr_run_win[1] = 0;
	if (!GRID_RUN_TRAILER || !ir_grid_trailer(grid, &from, &to))
		return;
	/* (a block's start is its edge; the frame's first rise is where the
	 * leader's samples put it, a stretch moves falls) */
	slack = GRID_RUN_TOL * unit + sd->block_us + fabs(stretch_us);
	from = (sd->gr_t0 - (double)sd->n0) * sd->us + from * unit - slack;
	to = (sd->gr_t0 - (double)sd->n0) * sd->us + to * unit + slack;
	sd->gr_run_win[0] = (uint64_t)fmax(0, ceil(from / sd->block_us));
	sd->gr_run_win[1] = (uint64_t)fmax(0, floor(to / sd->block_us));
}

/* sd->gr_mid_par and where its parity holds on grid `grid` (see
 * GRID_RUN_PHASE). */
static void grid_phase(struct ir_seqdet *sd, int grid)
{
	double from = 0;

	sd->gr_mid_par = GRID_RUN_PHASE ? ir_grid_mid_parity(grid, &from) : -1;
	sd->gr_unit = ir_grid_unit(grid);
	sd->gr_data_us = (sd->gr_t0 - (double)sd->n0) * sd->us + (from - 0.5) * sd->gr_unit;
}

/* A rise told at sample s on the frame's grid moves the phase's
 * reference there (see GRID_RUN_PHASE): its whole units after the last
 * reference, else after the frame's first rise, where either is within
 * IR_GRID_PHASE_TOL of a whole number (a rise: a receiver's stretch
 * moves falls only). */
static void phase_ref_rise(struct ir_seqdet *sd, double s)
{
	double unit, n, n0;

	if (sd->gr_grid < 0)
		return;
	unit = ir_grid_unit(sd->gr_grid) / sd->us;
	n = sd->ph_n + (s - sd->ph_ref) / unit;
	n0 = (s - sd->gr_t0) / unit;
	if (fabs(n - nearbyint(n)) >= IR_GRID_PHASE_TOL) {
		if (fabs(n0 - nearbyint(n0)) >= IR_GRID_PHASE_TOL)
			return;
		n = n0;
	}
	sd->ph_n = nearbyint(n);
	sd->ph_ref = s;
}

/* sd->gr_run_cost and gr_run_on on grid `grid`, for edges that cost
 * `nats` flat and a receiver's stretch of stretch_us (see
 * GRID_RUN_PRIOR); `nats` 0: none (the flat cost). */
static void grid_run_prior(struct ir_seqdet *sd, int grid, double nats, double stretch_us)
{
	double P[GRID_RUN_TABLE];

	sd->gr_run_nats = GRID_RUN_PRIOR ? nats : 0;
	sd->gr_run_stretch = stretch_us;
	sd->gr_run_grid = grid;
	if (!(sd->gr_run_nats > 0))
		return;
	grid_trailer_window(sd, grid, stretch_us);
	grid_phase(sd, grid);
	/* (the trailer's and the bit boundary's tables only where the grid
	 * has them) */
	for (int at = 0; at < 3; at++)
		for (int lit = 0; lit < 2; lit++) {
			double S;

			if ((at == 1 && sd->gr_run_win[0] > sd->gr_run_win[1]) || (at == 2 && sd->gr_mid_par < 0))
				continue;
			S = grid_run_mass(sd, grid, lit, at, P);

			for (int r = GRID_RUN_TABLE - 1; r >= 0; r--) {
				double h;

				S += P[r];
				h = P[r] / S;
				/* (at most what a rise in the gap costs) */
				sd->gr_run_cost[at][lit][r] = (float)(fmin(GRID_GAP_NATS, -log(h)) / nats);
				sd->gr_run_on[at][lit][r] = (float)(fmin(GRID_GAP_NATS, -log1p(-h)) / nats);
			}
		}
}

/* The general family's trellises' edge cost on the frame's grid (see
 * GRID_UNIT_FULL_SAMPLES and GRID_RUN_UNITS), up to the grid's longest
 * space and a unit, and its run-length prior (GRID_RUN_PRIOR,
 * GRID_RUN_PRIOR_SHORT_UNITS). */
static void grid_edge_cost(struct ir_seqdet *sd, int grid)
{
	double unit = ir_grid_unit(grid), part = fmin(1, unit / sd->us / GRID_UNIT_FULL_SAMPLES);
	double nats = part < 1 ? EDGE_NATS * part : fmin(EDGE_NATS, log(GRID_RUN_UNITS * unit / sd->block_us));
	int gap = (int)ceil((ir_grid_longest_space(grid) + unit) / sd->block_us);

	for (unsigned i = 0; i < N_TAU_H * N_SCALE; i++) {
		sd->tr[i].edge_cost = sd->penalty / EDGE_NATS * nats;
		sd->tr[i].gap_run = nats < EDGE_NATS ? gap : 0;
	}
	grid_run_prior(sd, grid, part < 1 && !GRID_RUN_PRIOR_SHORT_UNITS ? 0 : nats,
		       isnan(sd->gr_stretch) ? sd->gr_lead_stretch : sd->gr_stretch * sd->us);
}

/* A frame no grid fits (gr_grid -2) has no longest space to tell its gap
 * by, but none in the protocol tables is over RUNAWAY_GAP_US: below
 * 33.3 kHz a rise after that much darkness costs GRID_GAP_NATS there
 * too.  With a longer wait (tried: see COMMIT_MAX_US) some 16 kHz 0 dB
 * τ 1 ms starts, proven by a few nats, were told on no grid, and a lone
 * 6-sample run of noise 11 ms after the last edge made, with the darkness
 * after it, an iMON frame of all ones (sanyo); bench_audio limit --rates
 * 16000 --snr 0,2 (six protocols × τ 1/5 ms/DC) with that wait: other
 * codes 10 -> 8 (both iMON's gone), the figures the
 * same.  (Above 33.3 kHz: none, as before.) */
static int nogrid_gap_run(const struct ir_seqdet *sd)
{
	return COMMIT_US / sd->us < COMMIT_MIN_SAMPLES ? (int)ceil(RUNAWAY_GAP_US / sd->block_us) : 0;
}

/* The general family's trellises' edge cost off the grid (EDGE_NATS). */
static void grid_edge_cost_off(struct ir_seqdet *sd)
{
	for (unsigned i = 0; i < N_TAU_H * N_SCALE; i++) {
		sd->tr[i].edge_cost = sd->penalty / EDGE_NATS * EDGE_NATS;
		sd->tr[i].gap_run = nogrid_gap_run(sd);
	}
	sd->gr_run_nats = 0;
}

/* Edge k of sd->grid (from level `from`, at its traced sample): the fit
 * of each candidate against the traced place, nats (as refine_edge's
 * sums, restored with the traced path's low-pass); -INFINITY before
 * sample `lo` or outside the ring. */
static void grid_gains(struct ir_seqdet *sd, const struct trellis *t, unsigned k, int from, double lo)
{
	struct ir_grid *g = &sd->grid;
	double tf = from ? t->a : 0, tt = from ? 0 : t->a, noise2 = sd->penalty / (2 * EDGE_NATS);
	double acc = 0;
	int W = g->W;

	g->gain[k][W] = 0;
	/* earlier: samples [p, at) take the new level */
	for (int c = W - 1; c >= 0; c--) {
		double p = g->at[k] + c - W, r;

		if (isfinite(acc) && p >= lo && ring_restored(sd, t, p, &r))
			acc -= (tt - tf) * (tt + tf - 2 * r) / (2 * noise2);
		else
			acc = -INFINITY;
		g->gain[k][c] = acc;
	}
	/* later: samples [at, p) keep the old level */
	acc = 0;
	for (int c = W + 1; c <= 2 * W; c++) {
		double p = g->at[k] + c - W - 1, r;

		if (isfinite(acc) && ring_restored(sd, t, p, &r))
			acc -= (tf - tt) * (tf + tt - 2 * r) / (2 * noise2);
		else
			acc = -INFINITY;
		g->gain[k][c] = acc;
	}
}

/* The traced path's edges over blocks [dec, nb) into sd->grid, to the
 * sample (refine_edge), with their candidates' fit; sets g_c and gr_blk. */
static void grid_path(struct ir_seqdet *sd, const struct trellis *t)
{
	struct ir_grid *g = &sd->grid;
	int lev = sd->dec_level, W = (int)ceil(GRID_RETIME_US / sd->us);
	double lo = fmax((double)(sd->n0 + sd->dec * sd->L), sd->last_edge + 1);

	if (W > (IR_GRID_CAND_MAX - 1) / 2)
		W = (IR_GRID_CAND_MAX - 1) / 2;
	g->us = sd->us;
	g->W = W;
	g->n = 0;
	g->anchor = sd->last_edge;
	g->anchor_lit = sd->dec_level != 0;
	g->ref = GRID_RUN_PHASE ? sd->ph_ref : NAN;
	g->ref_n = sd->ph_n;
	trace_lowpass(sd, t);
	for (uint64_t j = sd->dec; j < sd->nb && g->n < IR_GRID_EDGES_MAX; j++) {
		int l = sd->lev[j % RING];

		if (l == lev)
			continue;
		sd->gr_blk[g->n] = j;
		g->at[g->n] = (double)(sd->n0 + j * sd->L) + refine_edge(sd, t, j, lev, l);
		grid_gains(sd, t, g->n++, lev, lo);
		lev = l;
	}
}

/* The frame's grid from its leader (first pulse and space, as told or as
 * traced); fixed once both are told. */
static int grid_leader(struct ir_seqdet *sd)
{
	const struct ir_grid *g = &sd->grid;
	double fall = sd->gr_fall, rise = sd->gr_rise;
	unsigned k = 0;
	int grid;

	if (sd->gr_grid != -1)
		return sd->gr_grid;
	if (fall < 0 && k < g->n)
		fall = g->at[k++];
	if (rise < 0 && k < g->n)
		rise = g->at[k++];
	if (fall < 0 || rise < 0)
		return -1;
	grid = ir_grid_pick((fall - sd->gr_t0) * sd->us, (rise - fall) * sd->us);
	if (grid >= 0)
		sd->gr_lead_stretch = ir_grid_leader_stretch(grid, (fall - sd->gr_t0) * sd->us,
							     (rise - fall) * sd->us);
	if (sd->gr_rise >= 0) {
		sd->gr_grid = grid < 0 ? -2 : grid;
		if (grid >= 0)
			grid_edge_cost(sd, grid);
		else if (sd->gr_tent || nogrid_gap_run(sd) > 0)
			grid_edge_cost_off(sd);
	}
	return grid;
}

/* Before telling blocks [dec, upto): the traced path's edges over
 * [dec, nb) timed on the frame's grid (gr_at, gr_n; none without one). */
static void grid_plan(struct ir_seqdet *sd, const struct trellis *t)
{
	double stretch_us, frame_us;
	int grid;

	sd->gr_n = 0;
	if (sd->gr_grid == -2)
		return;
	grid_path(sd, t);
	grid = grid_leader(sd);
	/* the frame's stretch so far: its leader's until a plan shows one */
	frame_us = isnan(sd->gr_stretch) ? sd->gr_lead_stretch : sd->gr_stretch * sd->us;
	if (grid < 0 || !ir_grid_retime(&sd->grid, grid, frame_us, sd->gr_at, &stretch_us))
		return;
	sd->gr_n = sd->grid.n;
	sd->gr_stretch = stretch_us / sd->us;
	/* (the run prior follows the frame's stretch: see GRID_RUN_PRIOR) */
	if (sd->gr_run_nats > 0 && grid == sd->gr_run_grid && fabs(stretch_us - sd->gr_run_stretch) >= sd->block_us / 2)
		grid_run_prior(sd, grid, sd->gr_run_nats, stretch_us);
}

/* See GRID_REPLAY: the path traced over blocks [0, nb) at the commit
 * (sd->lev) fits the signal model, as the decision feedback's sums would
 * hold it once those blocks were told. */
static bool traced_path_fits(const struct ir_seqdet *sd, uint64_t nb)
{
	struct fb_sums fs = sd->fb;

	for (uint64_t j = 0; j < nb; j++)
		seqdet_fb_block(sd, &fs, j, sd->lev[j % RING]);
	return seqdet_fb_fits(sd, &fs);
}

/* See GRID_REPLAY: at the commit, where the kept trellis's path so far
 * (the general family's) has a leader that picks a unit grid, that
 * trellis starts again from the frame's start on the grid's edge cost
 * and decides the blocks since anew (their samples are in the ring:
 * commit_max is well under RING blocks).  Nothing has been told yet. */
static void commit_replay(struct ir_seqdet *sd)
{
	struct trellis *t = &sd->tr[sd->best];
	uint64_t nb = sd->nb;
	double gain = t->acq_gain, lead_cost, grid_cost;
	int grid, gap;

	if (!GRID_REPLAY || rcmm_family(sd) || nb == 0 || nb + 1 >= RING)
		return;
	trace_back(sd, t);
	grid_path(sd, t);
	grid = grid_leader(sd);
	if (grid < 0 || !traced_path_fits(sd, nb))
		return;
	trellis_init(sd, t, (unsigned)sd->best, sd->gr_t0, sd->step0, sd->n0, true);
	t->acq_gain = gain;
	lead_cost = t->edge_cost;
	grid_edge_cost(sd, grid);
	sd->gr_tent = true;
	grid_cost = t->edge_cost;
	gap = t->gap_run;
	/* (the leader's pulse, up to its fall, keeps its edges' cost: its
	 * length picked the grid.  At the grid's cost from the start, 16 kHz
	 * 4 dB RC-6 DC leaders were cut ~1 ms in by a 300-400 µs space and
	 * read as RC-5's: bench_audio limit --rates 16000 --snr 2,4 rc6_0 DC
	 * 4 dB 99 -> 96 %, 71.6/94.1 % in all; so 99 and 71.3/94.2, other
	 * codes 36 -> 38 (main 38); up to the rise after the leader's space
	 * 71.4/94.2, other codes 42) */
	t->edge_cost = lead_cost;
	t->gap_run = 0;
	/* (block by block as block_done ran them: seqdet_trellis_block
	 * reads sd->nb for the first pulse, and the samples as floats) */
	for (sd->nb = 0; sd->nb < nb; sd->nb++) {
		unsigned slot = (unsigned)(sd->nb % RING);
		double s1 = 0;

		if (sd->nb == sd->gr_blk[0] + 1) {
			t->edge_cost = grid_cost;
			t->gap_run = gap;
		}
		for (unsigned m = 0; m < sd->L; m++)
			s1 += (double)(float)(sd->pol * ((double)sd->xr[slot * sd->L + m] - sd->b)) * t->wp[m];
		seqdet_trellis_block(sd, t, s1, sd->nb);
	}
	t->edge_cost = grid_cost;
	t->gap_run = gap;
	renormalise(sd);
}

/* The sample of the edge told at block j: as planned, else `s`
 * (refine_edge's); after the last edge told and before what this call
 * decides (block `upto`).  A planned fall (`rise` false) comes the
 * receiver's stretch earlier: the decoders' tolerances are centred on the
 * remote's marks, and with a receiver's 200 µs on top, RC-6's ±222 µs
 * left 22 µs for the noise.  Keeps the leader's edges for grid_leader. */
static double grid_edge_at(struct ir_seqdet *sd, uint64_t j, double s, uint64_t upto, bool rise)
{
	double p = planned_edge(sd->gr_blk, sd->gr_at, sd->gr_n, j, NAN);

	s = isnan(p) ? s : rise ? p : p - sd->gr_stretch;
	s = fmin(fmax(s, sd->last_edge + 1), (double)(sd->n0 + upto * sd->L) - 1);
	if (sd->gr_told == 0)
		sd->gr_fall = s;
	else if (sd->gr_told == 1)
		sd->gr_rise = s;
	sd->gr_told++;
	sd->last_edge = s;
	if (rise)
		phase_ref_rise(sd, s);
	return s;
}

/* True when the run told in `run_us` (lit: a pulse, else a space)
 * makes a runaway (see RUNAWAY_PULSE_US); counts the frame's long
 * pulses. */
static bool runaway(struct ir_seqdet *sd, bool lit, double run_us)
{
	if (!lit) {
		if (run_us >= RUNAWAY_GAP_US)
			sd->long_pulses = 0;
		return false;
	}
	return run_us >= RUNAWAY_PULSE_US && ++sd->long_pulses >= 2;
}

/* The run stops after a runaway: its baseline, what the caller waits on
 * for the next frame, is the mean of the samples not yet decided (the
 * line after the frame: the path's own is what went wrong). */
static void stop_runaway(struct ir_seqdet *sd)
{
	double sum = 0;
	uint64_t from = sd->nb > sd->lag ? sd->nb - sd->lag : 0;

	for (uint64_t j = from; j < sd->nb; j++)
		sum += sd->sx[j % RING];
	if (sd->nb > from)
		sd->b = sum / ((double)(sd->nb - from) * sd->L);
	sd->running = false;
}

/* Traces the best survivor back and tells the decisions of blocks up to
 * `upto` (exclusive). */
static void emit_upto(struct ir_seqdet *sd, uint64_t upto)
{
	struct trellis *t = &sd->tr[sd->best];
	int prev = sd->dec_level;
	uint64_t j;

	if (upto <= sd->dec || sd->nb == 0)
		return;
	neighbour_switch(sd);
	t = &sd->tr[sd->best];
	/* (all of them: RC-MM's grid looks past upto, rcmm_plan) */
	trace_back(sd, t);
	if (sd->g_sym) {
		rcmm_symbols_tell(sd, t, upto);
		if (!sd->running)
			return;
	} else if (rcmm_family(sd)) {
		rcmm_plan(sd, t);
	} else {
		grid_plan(sd, t);
	}
	for (j = sd->dec; j < upto; j++) {
		int l = sd->lev[j % RING];

		if (sd->g_sym) {
			sd->dec_level = l;
		} else if (sd->ins_rise >= 0) {
			rcmm_tell_inserted(sd, j, upto);
			if (!sd->running)
				return;
		}
		if (l != sd->dec_level) {
			double at = (double)(sd->n0 + j * sd->L) + refine_edge(sd, t, j, sd->dec_level, l);
			double run_from = sd->last_edge;

			if (rcmm_family(sd)) {
				if (l) {
					at = sd->g_rise = rcmm_rise_at(sd, j, at);
					sd->g_told++;
				}
				sd->last_edge = at;
			} else {
				at = grid_edge_at(sd, j, at, upto, l != 0);
			}
			sd->dec_level = l;
			sd->edge_fn(sd->userdata, (at - 0.5) * sd->us, l != 0);
			if (!sd->running)
				return;
			/* (the run just told: a pulse where it fell) */
			if (runaway(sd, !l, (at - run_from) * sd->us)) {
				stop_runaway(sd);
				return;
			}
			/* RC-MM's first bit pulse told: the symbols take
			 * over (see ir_rcmm_symbols) */
			if (rcmm_family(sd) && RCMM_SYMBOLS && !l) {
				sd->g_sym = true;
				rcmm_symbols_tell(sd, t, upto);
				if (!sd->running)
					return;
			}
		}
		sd->dec_run = l != prev ? 1 : sd->dec_run + 1;
		prev = l;
		seqdet_track(sd, t, j, l);
		seqdet_fb_block(sd, &sd->fb, j, l);
	}
	sd->dec = upto;
	/* (the grid fixed by the edges just told: see GRID_REPLAY) */
	if (GRID_REPLAY && sd->gr_grid == -1 && sd->gr_rise >= 0 && !rcmm_family(sd) && !sd->g_sym &&
	    seqdet_fb_fits(sd, &sd->fb) && grid_leader(sd) >= 0)
		seqdet_fb_restart(sd, t, sd->dec_c);
	seqdet_fb_update(sd, &sd->fb);
	if (sd->horizon_fn)
		sd->horizon_fn(sd->userdata, ((double)(sd->n0 + upto * sd->L) - 0.5) * sd->us);
}

static void block_done(struct ir_seqdet *sd)
{
	unsigned slot = (unsigned)(sd->nb % RING);

	for (unsigned i = 0; i < N_TAU; i++) {
		struct trellis *t = &sd->tr[i];
		double s1 = 0;

		if (!t->alive)
			continue;
		for (unsigned m = 0; m < sd->L; m++)
			s1 += sd->ub[m] * t->wp[m];
		seqdet_trellis_block(sd, t, s1, sd->nb);
	}
	sd->sx[slot] = sd->xsum;
	sd->xsum = 0;
	sd->nb++;
	renormalise(sd);
	if (sd->best < 0 && sd->nb >= sd->commit_now && !commit_wait(sd)) {
		commit(sd);
		/* Darkness all along costs 0 (u predicted 0, nothing to
		 * restore); a frame must beat it clearly, or the start was
		 * noise: the first pulse is taken back (an edge at its start
		 * ends it with nothing told) and nothing more is decided. */
		if (!start_proven(sd, sd->best)) {
			sd->running = false;
			sd->edge_fn(sd->userdata, sd->t0_us, false);
			return;
		}
		commit_replay(sd);
	}
	if (sd->best >= 0 && sd->nb >= sd->lag && (sd->nb - sd->lag) >= sd->dec + sd->every)
		emit_upto(sd, sd->nb - sd->lag);
}

void ir_seqdet_push(struct ir_seqdet *sd, float x)
{
	if (!sd->running)
		return;
	sd->xsum += x;
	sd->xr[(sd->nb % RING) * sd->L + sd->fill] = x;
	sd->ub[sd->fill++] = (float)(sd->pol * ((double)x - sd->b));
	if (sd->fill == sd->L) {
		sd->fill = 0;
		block_done(sd);
	}
}

void ir_seqdet_finish(struct ir_seqdet *sd)
{
	if (!sd->running)
		return;
	if (sd->best < 0)
		commit(sd);
	emit_upto(sd, sd->nb);
}
