/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sequence detector's decision feedback (ir_seqdet_fb.h). */
#include "ir_seqdet_fb.h"
#include "ir_seqdet_trellis.h"

#include <math.h>
#include <string.h>

/* The step and baseline follow the decided blocks with this time constant. */
#define TRACK_US 3000.0
/* Decision feedback: once blocks are decided, the coupling's τ, the step
 * and the baseline are fitted to them by least squares (one fit per τ
 * hypothesis, on the decided levels and the raw samples), with a memory
 * of FB_MEMORY_US.  The τ chosen at COMMIT_US was picked out of 54
 * trellises on its first 6 ms (at 0 dB a 10 or 30 ms coupling and none
 * differ there by less than the noise: 41 of 99 rc6_0 DC frames at
 * 48 kHz kept a wrong one, and every one of the 13 lost was such a
 * frame), and the step on a grid of ±20-25 % (step_scale).  Where
 * another τ explains the decided samples better by FB_SWITCH_NATS, the
 * detector switches to it: its trellis is started again from the last
 * decided block and the undecided blocks are decided anew (their raw
 * samples are kept).  (0 dB 44.1/48 kHz, six protocols × τ 5 ms/DC:
 * 92.1 -> 93.5 %; rc6_0 DC 83/91 -> 90/97, nec 5 ms 91/88 -> 94/94.
 * Memory 20-150 ms, a switch at 2-8 nats, the fit from 1-4 ms of each
 * level: all within 0.5 point.) */
#ifndef FB_MEMORY_US
#define FB_MEMORY_US 50000.0
#endif
#ifndef FB_SWITCH_NATS
#define FB_SWITCH_NATS 4.0
#endif
/* (The neighbours, and when the kept trellis gives way to one: see
 * NEIGHBOUR_SWITCH_NATS in ir_seqdet.c.) */
/* A neighbour runs only where its fit explains the decided blocks no
 * worse than the kept τ's and leaves at most NEIGHBOUR_FIT_NOISE times
 * the noise's variance per decided sample unexplained: the neighbours'
 * path costs are evidence about τ only where the model (two levels
 * through the coupling, white noise) holds.  Traced at 44.1 kHz: on IR
 * at 0 dB the switches' fits left 0.5-1.9 times the noise; on
 * bench_audio false's music (the detector running on a bass note)
 * 68-1950 times, the hypotheses' path costs there differed by hundreds
 * to thousands of nats from one emit to the next, the detector walked
 * from τ 1 ms to DC in half a second, and an hour gave a false Roomba
 * frame (with a guard on the fits' order alone).  A bar of 2 or 4: limit
 * the same.  So at most one side runs, and none once the feedback sits
 * on the best-fitting τ: on weak streams (irjack decode, 48 kHz τ 1 ms
 * 0 dB, nec/sanyo) +0.3/+1.3 % instructions against +34/+39 % with both
 * sides at every fit. */
#ifndef NEIGHBOUR_FIT_NOISE
#define NEIGHBOUR_FIT_NOISE 4.0
#endif
/* ...and a step or baseline from the fit once this much of each level is
 * decided. */
#ifndef FB_MIN_US
#define FB_MIN_US 2000.0
#endif

/* Every cost is in nats of the noise the caller measured before the
 * start (sd->penalty, its idle estimate): at 16 kHz that estimate
 * scatters (Sony 12 at 4 dB, 200 starts: 0.72-1.36 times the frame's
 * own residual, 10th-90th percentile; the residuals' median within 3 %
 * of the channel's σ²).  A start that overrates it makes its edges dear
 * in true nats: a 600 µs space (10 samples, ~50 nats at 4 dB) with a few
 * samples high went lit, two pulses merged into one of 1800 µs (traced,
 * 16 kHz 4 dB τ 5 ms/DC; in the first COMMIT_LOW_US too, which this
 * does not reach).  Once the decision feedback's fit holds
 * NOISE_FIT_SAMPLES samples (its residual's relative spread then
 * √(2/n), 12 %), the costs follow that residual, within
 * NOISE_FIT_LOW..NOISE_FIT_HIGH times the caller's figure (the start's
 * scatter lies well inside; a fit on music leaves far more than the
 * noise, see NEIGHBOUR_FIT_NOISE).  bench_audio limit --rates 16000,
 * six protocols: 0/2/4 dB 27.0/67.1/93.4 -> 28.7/67.8/93.7 %; τ 5 ms/DC
 * at 0/1/2/3 dB 38.9/65.3/85.4/92.8 -> 40.8/66.5/85.2/92.9; 64 samples
 * the same, 256 27.7/67.7/93.4.  Below NOISE_FIT_MAX_RATE only: measured
 * at 16 kHz; 44.1/48 kHz stay as they were. */
#ifndef NOISE_FIT_SAMPLES
#define NOISE_FIT_SAMPLES 128.0
#endif
#define NOISE_FIT_LOW 0.5
#define NOISE_FIT_HIGH 2.0
#ifndef NOISE_FIT_MAX_RATE
#define NOISE_FIT_MAX_RATE 32000u
#endif

void seqdet_fb_init(struct ir_seqdet *sd, unsigned sample_rate)
{
	double block_us = sd->block_us;

	sd->noise_fit = sample_rate < NOISE_FIT_MAX_RATE;
	sd->mu = 1 - exp(-block_us / TRACK_US);
	sd->fb_forget = exp(-block_us / FB_MEMORY_US);
	sd->fb_min = (unsigned)ceil(FB_MIN_US / block_us);
	for (unsigned h = 0; h < N_TAU_H; h++) {
		double w = ir_seqdet_tau_decay(h, sd->us);

		sd->fb_q[h] = sd->fb_sw[h] = 0;
		for (unsigned j = 0; j < sd->L; j++) {
			sd->fb_w[h][j] = pow(w, j + 1);
			sd->fb_q[h] += sd->fb_w[h][j] * sd->fb_w[h][j];
			sd->fb_sw[h] += sd->fb_w[h][j];
		}
		sd->fb_wl[h] = pow(w, sd->L);
	}
}

/* Decision feedback's sums emptied at a frame's start: the line lit
 * since sample t0n, block 0 starting at sample n. */
void seqdet_fb_start(struct ir_seqdet *sd, uint64_t n, double t0n)
{
	double m = (double)n - t0n;

	if (m < 0)
		m = 0;
	for (unsigned h = 0; h < N_TAU_H; h++) {
		double w = ir_seqdet_tau_decay(h, sd->us);

		sd->fb.l[h] = 1 - pow(w, m);
		sd->fb.rr[h] = sd->fb.r[h] = sd->fb.ur[h] = 0;
	}
	sd->fb.u = sd->fb.uu = sd->fb.n = sd->fb.lit = 0;
	sd->fb_b = sd->b;
	sd->dec_run = (unsigned)(m / sd->L);
}

/* Only the kept trellis runs on (the decision feedback has taken over). */
static void neighbours_end(struct ir_seqdet *sd)
{
	for (unsigned i = 0; i < N_TAU; i++)
		if ((int)i != sd->best)
			sd->tr[i].alive = false;
}

/* The decided block j (level s) into the decision feedback's sums: per
 * τ hypothesis h, within the block r_i = (s - l)·w^(i+1), so Σu·r needs
 * only Σu·w^(i+1) (as the trellises' blocks do). */
void seqdet_fb_block(const struct ir_seqdet *sd, struct fb_sums *fs, uint64_t j, int s)
{
	const float *x = &sd->xr[(j % RING) * sd->L];
	double u[MAX_BLOCK], su = 0, suu = 0, f = sd->fb_forget;

	for (unsigned i = 0; i < sd->L; i++) {
		u[i] = sd->pol * ((double)x[i] - sd->fb_b);
		su += u[i];
		suu += u[i] * u[i];
	}
	fs->u = f * fs->u + su;
	fs->uu = f * fs->uu + suu;
	fs->n = f * fs->n + sd->L;
	fs->lit = f * fs->lit + s * sd->L;
	for (unsigned h = 0; h < N_TAU_H; h++) {
		double d = s - fs->l[h], s1 = 0;

		for (unsigned i = 0; i < sd->L; i++)
			s1 += u[i] * sd->fb_w[h][i];
		fs->rr[h] = f * fs->rr[h] + d * d * sd->fb_q[h];
		fs->r[h] = f * fs->r[h] + d * sd->fb_sw[h];
		fs->ur[h] = f * fs->ur[h] + d * s1;
		fs->l[h] = s + (fs->l[h] - s) * sd->fb_wl[h];
	}
}

/* The least-squares fit under hypothesis h: step *a and the baseline's
 * offset *db (in u); returns the residual sum of squares (COST_INF when
 * the decided levels cannot tell the step from the baseline). */
static double fb_fit(const struct fb_sums *fs, unsigned h, double *a, double *db)
{
	double rr = fs->rr[h], r = fs->r[h], n = fs->n;
	double det = rr * n - r * r;

	*a = *db = 0;
	if (!(det > 1e-9 * rr * n) || n <= 0)
		return COST_INF;
	*a = (fs->ur[h] * n - r * fs->u) / det;
	*db = (rr * fs->u - r * fs->ur[h]) / det;
	return fs->uu - *a * fs->ur[h] - *db * fs->u;
}

void seqdet_fb_restart(struct ir_seqdet *sd, struct trellis *t, double c)
{
	uint64_t end = sd->nb;
	int s = sd->dec_level;
	unsigned k;

	for (unsigned l = 0; l < 2; l++)
		for (unsigned m = 0; m <= MAX_RUN_BLOCKS; m++) {
			t->cost[l][m] = COST_INF;
			t->c[l][m] = 0;
		}
	k = sd->dec_run < 1 ? 1 : sd->dec_run > t->D[s] ? t->D[s] : sd->dec_run;
	t->cost[s][k] = 0;
	t->c[s][k] = c;
	t->run[s] = (int)sd->dec_run;
	t->run[1 - s] = (int)t->D[1 - s];
	memset(t->lead_ring, 0, sizeof(t->lead_ring));
	t->lead_sat = 0;
	/* (in the leader's space as told: its limit, see LEAD_SPACE_NATS) */
	if (!s && t->lead_on && sd->gr_fall >= 0 && sd->gr_rise < 0) {
		double j = (sd->gr_fall - sd->gr_t0) / sd->L;
		int lim = sd->lead_space[j < LEAD_TABLE - 1 ? (int)lround(j) : LEAD_TABLE - 1];

		if (sd->dec_run >= t->D[0])
			t->lead_sat = lim;
		else
			t->lead_ring[(sd->dec - k) % LEAD_RING] = lim;
	}
	for (uint64_t j = sd->dec; j < end; j++) {
		const float *x = &sd->xr[(j % RING) * sd->L];
		double s1 = 0;

		for (unsigned m = 0; m < sd->L; m++)
			s1 += sd->pol * ((double)x[m] - sd->b) * t->wp[m];
		seqdet_trellis_block(sd, t, s1, j);
	}
}

/* The detector goes on under hypothesis h (same family and scale slot as
 * the kept one), with step a and baseline b: its trellis starts from the
 * last decided block (its level, its run so far, the decided path's
 * low-pass under h) and decides the undecided blocks again. */
static void fb_switch(struct ir_seqdet *sd, unsigned h, double a, double b)
{
	unsigned per_fam = N_TAU_H * N_SCALE, old = (unsigned)sd->best;
	unsigned i = old / per_fam * per_fam + h * N_SCALE + old % N_SCALE;
	struct trellis *t = &sd->tr[i];

	neighbours_end(sd);
	if (i != old) {
		*t = sd->tr[old];
		seqdet_trellis_set_w(sd, t, ir_seqdet_tau_decay(h, sd->us));
		sd->tr[old].alive = false;
		sd->best = (int)i;
	}
	t->a = a;
	sd->b = b;
	sd->dec_c = a * sd->fb.l[h];
	seqdet_fb_restart(sd, t, sd->dec_c);
}

/* See NEIGHBOUR_SWITCH_NATS and NEIGHBOUR_FIT_NOISE: after the kept
 * trellis's switch to τ hypothesis h, each hypothesis one step either
 * side of h whose fit (step a[·], residual rss[·] over the fb.n decided
 * samples) explains the decided blocks no worse than h's, and within what
 * the noise explains, starts again beside it the same way, on its own
 * fit's step (and the baseline of h's fit), from the same scale slot. */
/* The most a fit over n samples may leave unexplained and still be the
 * signal's model (NEIGHBOUR_FIT_NOISE times the noise's variance a
 * sample): the τ neighbours' bar, and GRID_REPLAY's (seqdet_fb_fits). */
static double fit_noise_bar(const struct ir_seqdet *sd, double n)
{
	return NEIGHBOUR_FIT_NOISE * n * sd->penalty / (2 * EDGE_NATS);
}

static void fb_neighbours(struct ir_seqdet *sd, const double *a, const double *rss)
{
	unsigned per_fam = N_TAU_H * N_SCALE, kept = (unsigned)sd->best;
	unsigned h = (kept / N_SCALE) % N_TAU_H;
	double noise_rss = fit_noise_bar(sd, sd->fb.n);

	if (kept >= per_fam)
		return;
	for (int d = -1; d <= 1; d += 2) {
		int hn = (int)h + d;
		struct trellis *t;
		double an;

		if (hn < 0 || hn >= (int)N_TAU_H || !(a[hn] > 0) || rss[hn] > rss[h] ||
		    rss[hn] > noise_rss)
			continue;
		t = &sd->tr[kept - h * N_SCALE + (unsigned)hn * N_SCALE];
		*t = sd->tr[kept];
		seqdet_trellis_set_w(sd, t, ir_seqdet_tau_decay(hn, sd->us));
		an = fmin(fmax(a[hn], 0.5 * t->a0), 2 * t->a0);
		t->a = an;
		seqdet_fb_restart(sd, t, an * sd->fb.l[hn]);
	}
}

bool seqdet_fb_fits(const struct ir_seqdet *sd, const struct fb_sums *fs)
{
	unsigned h = (unsigned)(sd->best / (int)N_SCALE) % N_TAU_H;
	double a, db, rss = fb_fit(fs, h, &a, &db);

	return a > 0 && rss <= fit_noise_bar(sd, fs->n);
}

/* See NOISE_FIT_SAMPLES: the costs rescaled to the noise the fit left,
 * rss over n samples. */
static void noise_refit(struct ir_seqdet *sd, double rss, double n)
{
	double noise2, ratio;

	if (!sd->noise_fit || !(n >= NOISE_FIT_SAMPLES) || !(rss < COST_INF) || !(sd->noise0 > 0))
		return;
	noise2 = fmin(fmax(rss / n, NOISE_FIT_LOW * sd->noise0), NOISE_FIT_HIGH * sd->noise0);
	ratio = noise2 / (sd->penalty / (2 * EDGE_NATS));
	sd->penalty *= ratio;
	for (unsigned i = 0; i < N_TAU; i++)
		sd->tr[i].edge_cost *= ratio;
}

/* Once the sums fs hold FB_MIN_US of each level: the fits of every τ
 * hypothesis to them; the kept trellis takes the best fit's τ where it
 * is better than its own by FB_SWITCH_NATS, and the fit's step and
 * baseline, and decides again from the last decided block.  (Setting the
 * step and baseline alone, on the survivors' low-pass c of the old ones,
 * lost frames: a DC trellis with a step scaled by 1.25 holds c at a
 * quarter of its step for good, an offset that the fit's baseline then
 * counted twice; nec DC 0 dB 48 kHz 98 -> 58 %.) */
void seqdet_fb_update(struct ir_seqdet *sd, const struct fb_sums *fs)
{
	unsigned cur = (unsigned)(sd->best / (int)N_SCALE) % N_TAU_H, hb = cur;
	double a[N_TAU_H], db[N_TAU_H], rss[N_TAU_H], noise2 = sd->penalty / (2 * EDGE_NATS);
	const struct trellis *t = &sd->tr[sd->best];

	/* (both levels seen: on the first pulse alone the step, the
	 * baseline and the droop are one) */
	if (fs->lit < sd->fb_min * sd->L || fs->n - fs->lit < sd->fb_min * sd->L)
		return;
	for (unsigned h = 0; h < N_TAU_H; h++)
		rss[h] = fb_fit(fs, h, &a[h], &db[h]);
	/* (only towards a shorter τ, the τ list descending: a longer one, up
	 * to DC, takes a slow wander for the level, and music's bass walked
	 * a false start's τ 1 ms up to DC, where its pulses decoded; the
	 * neighbours take a longer τ where its fit leaves little unexplained.
	 * This loop once compared with rss[cur] before fitting it, a read of
	 * the stack that chose so in the Release build by chance: fitting
	 * every τ first made 3-5 false frames an hour on music.) */
	for (unsigned h = cur + 1; h < N_TAU_H; h++)
		if (rss[h] < rss[hb] && a[h] > 0)
			hb = h;
	if (rss[cur] >= COST_INF || a[cur] <= 0)
		return;
	if (hb == cur || (rss[cur] - rss[hb]) / (2 * noise2) < FB_SWITCH_NATS)
		hb = cur;
	fb_switch(sd, hb, fmin(fmax(a[hb], 0.5 * t->a0), 2 * t->a0), sd->fb_b + sd->pol * db[hb]);
	fb_neighbours(sd, a, rss);
	noise_refit(sd, rss[hb], fs->n);
}

/* The decided block j (level s): the step or baseline follows it. */
void seqdet_track(struct ir_seqdet *sd, struct trellis *t, uint64_t j, int s)
{
	unsigned slot = (unsigned)(j % RING);
	double T = s ? t->a : 0, dd = sd->dec_c - T;
	/* (u with today's b: a residual taken with the b of LAG_US ago would
	 * close the loop through that delay, and it oscillated) */
	double s0 = sd->pol * (sd->sx[slot] - sd->L * sd->b);
	double e = (s0 + dd * t->sw) / sd->L;

	/* (within a factor of 2 of the start's: on noise after a false
	 * start the "lit" blocks' mean is 0, and a step tracked down there
	 * made lit and dark alike and runs cheap) */
	if (s)
		t->a = fmin(fmax(t->a + sd->mu * e, 0.5 * t->a0), 2 * t->a0);
	else
		sd->b += sd->mu * sd->pol * e;
	sd->dec_c = T + dd * t->wl;
}
