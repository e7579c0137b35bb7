/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_seqdet_rcmm.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* A period within RCMM_GRID_TOL_US of a symbol's is on the grid.  At
 * 0-2 dB RC-MM's typical loss is a bit pulse missed: the two spaces
 * around it decided as one, a period of 1055-1889 µs that no symbol has.
 * Such a gap, between two rises the path decided, is mended to the
 * sample: a bit pulse where the samples say it best is, among the places
 * that put both periods on the grid within RCMM_GRID_TOL_US.  (A missed
 * pulse between two 00 symbols, 888 µs, reads as a symbol 11: not seen
 * here.) */
#ifndef RCMM_GRID_TOL_US
#define RCMM_GRID_TOL_US 45.0
#endif
/* An inserted pulse must explain its samples better than darkness by
 * this much (nats): the gap is off the grid either way, so any pulse
 * the samples support beats none. */
#ifndef RCMM_INSERT_NATS
#define RCMM_INSERT_NATS 0.0
#endif
#define RCMM_BIT_US 166.7
/* The longest symbol period and the decoder's margin; two symbols. */
#define RCMM_PERIOD_MAX_US (944.4 + 83.3)
#define RCMM_GAP_MAX_US (2 * 944.4 + 83.3)
static const double rcmm_period_us[] = { 444.4, 611.1, 777.8, 944.4 };

/* A rise may move this far from where the path's blocks and
 * refine_edge put it (a block, and the ±1 block either edge of a period
 * was seen off at 0 dB), and one off the grid costs RCMM_OFF_GRID_NATS:
 * the rises of a window are timed together, each to the sample, so that
 * every period is on the grid where the samples allow (a Viterbi over
 * the rises, as the genie-aided bound integrates over known symbols).
 * At 0 dB 48 kHz τ 5 ms the periods told were off their symbol's by
 * 39 µs rms, a third of them by 40-83 µs (and more, read as the next
 * symbol). */
#ifndef RCMM_RETIME_US
#define RCMM_RETIME_US 100.0
#endif
#ifndef RCMM_OFF_GRID_NATS
#define RCMM_OFF_GRID_NATS 4.0
#endif
#define RCMM_CAND_MAX 64

static bool rcmm_on_grid(double us)
{
	for (unsigned i = 0; i < sizeof(rcmm_period_us) / sizeof(rcmm_period_us[0]); i++)
		if (fabs(us - rcmm_period_us[i]) <= RCMM_GRID_TOL_US)
			return true;
	return false;
}

/* Restored sample s of the window; false outside it. */
static bool window_sample(const struct ir_rcmm *w, double s, double *r)
{
	double rel = s - w->s0;

	if (rel < 0 || rel >= (double)w->n_x)
		return false;
	*r = w->x[(uint64_t)rel];
	return true;
}

/* Samples [p, p + P) lit against dark: the squared errors' difference
 * over 2σ², in nats (-INFINITY when a sample is not in the window). */
static double rcmm_pulse_gain(const struct ir_rcmm *w, double p, unsigned P)
{
	double sum = 0, a = w->a;

	for (unsigned i = 0; i < P; i++) {
		double r;

		if (!window_sample(w, p + i, &r))
			return -INFINITY;
		sum += 2 * a * r - a * a;
	}
	return sum / (2 * w->noise2);
}

/* The gap between rises r1 and r2 (first lit samples) is off RC-MM's
 * grid: plans the bit pulse that mends it (out->ins_rise, ins_fall),
 * after sample `from` (the first not yet told) and `fall` (the end of
 * r1's pulse), where one is worth RCMM_INSERT_NATS. */
static void rcmm_mend(const struct ir_rcmm *w, struct ir_rcmm_plan *out, double r1, double r2,
		      double fall)
{
	unsigned P = (unsigned)lround(RCMM_BIT_US / w->us);
	double best = RCMM_INSERT_NATS, lo = fmax(w->from, fall + 1);

	if (P < 1)
		P = 1;
	for (double p = ceil(lo); p + P < r2; p++) {
		double g;

		if (!rcmm_on_grid((p - r1) * w->us) || !rcmm_on_grid((r2 - p) * w->us))
			continue;
		g = rcmm_pulse_gain(w, p, P);
		if (g > best) {
			best = g;
			out->ins_rise = p;
			out->ins_fall = p + P;
		}
	}
}

/* The pulse lit from sample p to `fall` against darkness there, nats,
 * as rcmm_pulse_gain. */
static double rcmm_rise_gain(const struct ir_rcmm *w, double p, double fall)
{
	return fall > p ? rcmm_pulse_gain(w, p, (unsigned)(fall - p)) : -INFINITY;
}

/* w's rises timed together on the grid: out->at. */
static void rcmm_retime(const struct ir_rcmm *w, struct ir_rcmm_plan *out)
{
	int W = (int)ceil(RCMM_RETIME_US / w->us), nc = 2 * W + 1;
	double v[2][RCMM_CAND_MAX];
	uint8_t back[IR_RCMM_PLAN_MAX][RCMM_CAND_MAX];
	double off = RCMM_OFF_GRID_NATS;
	const double *r = w->rise, *f = w->fall;
	int cur = 0, best = W;

	if (nc > RCMM_CAND_MAX) {
		W = (RCMM_CAND_MAX - 1) / 2;
		nc = 2 * W + 1;
	}
	for (unsigned k = 0; k < w->n; k++) {
		double lo = fmax(w->from, (k > 0 ? f[k - 1] : w->fall0) + 1);
		double g0 = f[k] >= 0 ? rcmm_rise_gain(w, r[k], f[k]) : 0;

		for (int c = 0; c < nc; c++) {
			double p = r[k] + c - W, g = 0, bv = -INFINITY;

			if (c != W) {
				if (f[k] < 0 || p < lo || p + 1 >= f[k])
					g = -INFINITY;
				else
					g = rcmm_rise_gain(w, p, f[k]) - g0;
			}
			back[k][c] = (uint8_t)W;
			for (int c2 = 0; c2 < nc && isfinite(g); c2++) {
				double q = k > 0 ? r[k - 1] + c2 - W : w->prev_rise, val;

				if (k > 0 && !isfinite(v[cur][c2]))
					continue;
				val = (k > 0 ? v[cur][c2] : 0) -
				      (q >= 0 && !rcmm_on_grid((p - q) * w->us) ? off : 0);
				if (val > bv) {
					bv = val;
					back[k][c] = (uint8_t)c2;
				}
				if (k == 0)
					break;
			}
			v[1 - cur][c] = bv + g;
		}
		cur = 1 - cur;
	}
	for (int c = 0; c < nc; c++)
		if (v[cur][c] > v[cur][best])
			best = c;
	for (unsigned k = w->n; k-- > 0;) {
		out->at[k] = r[k] + best - W;
		best = back[k][best];
	}
}

void ir_rcmm_plan(const struct ir_rcmm *w, struct ir_rcmm_plan *out)
{
	double prev = w->prev_rise, fall = w->fall0;

	out->ins_rise = -1;
	if (w->n == 0)
		return;
	rcmm_retime(w, out);
	for (unsigned k = 0; k < w->n && out->ins_rise < 0; k++) {
		double s = out->at[k], gap = (s - prev) * w->us;

		if (prev >= 0 && gap > RCMM_PERIOD_MAX_US && gap <= RCMM_GAP_MAX_US)
			rcmm_mend(w, out, prev, s, fall);
		prev = s;
		fall = w->fall[k];
	}
}

/* The symbol detector (ir_rcmm_symbols).  A period may be off its
 * symbol's by the remote's clock tolerance (a few %: 4 % of 944 µs is
 * 38 µs) and the sampling; each µs off costs (off / RCMM_SYM_SIGMA_US)² / 2
 * nats, so that the samples decide where they are clear and the nominal
 * period where they are not. */
#ifndef RCMM_SYM_TOL_US
#define RCMM_SYM_TOL_US 45.0
#endif
#ifndef RCMM_SYM_SIGMA_US
#define RCMM_SYM_SIGMA_US 25.0
#endif
/* A bit pulse costs this much (nats) besides its samples' fit: after the
 * frame's last one, noise at a grid place (at 0 dB 48 kHz its fit is
 * -16 ± 6 nats, a real bit pulse's +16 ± 6) must not extend the frame. */
#ifndef RCMM_SYM_PULSE_NATS
#define RCMM_SYM_PULSE_NATS 2.0
#endif
/* A frame that ends (no rise after it in the window, and the window's
 * end far enough for one) other than after its stop pulse pays this. */
#ifndef RCMM_SYM_END_NATS
#define RCMM_SYM_END_NATS 20.0
#endif
/* Rises of a 12, 24 and 32-bit frame, the header's and the stop pulse's
 * counted. */
static bool rcmm_frame_done(unsigned rises)
{
	return rises == 8 || rises == 14 || rises == 18;
}
#define RCMM_RISES_MAX 18

unsigned ir_rcmm_bit_samples(double us)
{
	unsigned P = (unsigned)lround(RCMM_BIT_US / us);

	return P < 1 ? 1 : P;
}

/* The header's period (417 µs pulse, 278 µs space): from the frame's
 * start as the caller placed it, which at 0 dB is known to within
 * RCMM_HEAD_TOL_US (a block of the trellis and the trigger's error). */
#define RCMM_HEAD_PERIOD_US 694.5
#ifndef RCMM_HEAD_TOL_US
#define RCMM_HEAD_TOL_US 80.0
#endif
#ifndef RCMM_HEAD_SIGMA_US
#define RCMM_HEAD_SIGMA_US 60.0
#endif

/* The cost of the header's period of `d` samples (-INFINITY off it). */
static double rcmm_head_fit(const struct ir_rcmm *w, double d)
{
	double off = d * w->us - RCMM_HEAD_PERIOD_US;

	if (fabs(off) > RCMM_HEAD_TOL_US)
		return -INFINITY;
	return -off * off / (2 * RCMM_HEAD_SIGMA_US * RCMM_HEAD_SIGMA_US);
}

/* The cost of a period of `d` samples (-INFINITY off every symbol's). */
static double rcmm_period_fit(const struct ir_rcmm *w, double d)
{
	double best = -INFINITY, s2 = 2 * RCMM_SYM_SIGMA_US * RCMM_SYM_SIGMA_US;

	for (unsigned i = 0; i < sizeof(rcmm_period_us) / sizeof(rcmm_period_us[0]); i++) {
		double off = d * w->us - rcmm_period_us[i];

		if (fabs(off) <= RCMM_SYM_TOL_US && -off * off / s2 > best)
			best = -off * off / s2;
	}
	return best;
}

/* The cost of ending the frame after a rise at window index i (its
 * `rises`-th): 0 after a stop pulse or where the next rise could lie
 * past the window. */
static double rcmm_end_fit(const struct ir_rcmm *w, double i, unsigned rises)
{
	double room = (double)w->n_x - i;

	if (rcmm_frame_done(rises) || room * w->us < 944.4 + RCMM_SYM_TOL_US + RCMM_BIT_US)
		return 0;
	return -RCMM_SYM_END_NATS;
}

/* The periods (samples) a symbol may take and their cost: 4 symbols of
 * 2·RCMM_SYM_TOL_US each, 364 at 1 MHz. */
#define SYM_D_MAX 512

/* What the passes over a window share. */
struct sym_pass {
	const struct ir_rcmm *w;
	const struct ir_rcmm_scratch *sc;
	unsigned P, told;
	int lo_d, hi_d;
	double first, anchor, scale;
	unsigned n_d;
	int d[SYM_D_MAX];           /* ascending */
	double d_fit[SYM_D_MAX];
};

/* Bit pulse at window index i: its samples' fit less its cost, nats. */
static double sym_pulse(const struct sym_pass *sp, unsigned i)
{
	return (sp->sc->cum[i + sp->P] - sp->sc->cum[i]) * sp->scale - RCMM_SYM_PULSE_NATS;
}

/* Forward: v[i], the best path from the anchor with a rise at i (its
 * back pointer and rises counted); returns the best path's last rise
 * (-1: none) and its score in *best. */
static int32_t sym_forward(const struct sym_pass *sp, double *best)
{
	const struct ir_rcmm_scratch *sc = sp->sc;
	int32_t best_i = -1;

	*best = rcmm_end_fit(sp->w, sp->anchor, sp->told);
	for (unsigned i = 0; i + sp->P <= sp->w->n_x; i++) {
		double in = -INFINITY, a = (double)i - sp->anchor;
		int32_t from = -1;
		uint8_t rises = (uint8_t)(sp->told + 1);

		sc->v[i] = -INFINITY;
		if ((double)i < sp->first)
			continue;
		if (a >= sp->lo_d && a <= sp->hi_d)
			in = sp->told == 1 ? rcmm_head_fit(sp->w, a) : rcmm_period_fit(sp->w, a);
		for (unsigned m = 0; m < sp->n_d && sp->d[m] <= (int)i; m++) {
			unsigned j = i - (unsigned)sp->d[m];
			double f;

			if (!isfinite(sc->v[j]) || sc->count[j] >= RCMM_RISES_MAX)
				continue;
			f = sc->v[j] + sp->d_fit[m];
			if (f > in) {
				in = f;
				from = (int32_t)j;
				rises = (uint8_t)(sc->count[j] + 1);
			}
		}
		if (!isfinite(in))
			continue;
		sc->v[i] = in + sym_pulse(sp, i);
		sc->back[i] = from;
		sc->count[i] = rises;
		if (sc->v[i] + rcmm_end_fit(sp->w, i, rises) > *best) {
			*best = sc->v[i] + rcmm_end_fit(sp->w, i, rises);
			best_i = (int32_t)i;
		}
	}
	return best_i;
}

/* Backward: b[i], the best rest of a frame after a rise at i (its end
 * included), for every i forward reached. */
static void sym_backward(const struct sym_pass *sp)
{
	const struct ir_rcmm_scratch *sc = sp->sc;

	for (unsigned i = sp->w->n_x - sp->P + 1; i-- > 0;) {
		double b;

		if (!isfinite(sc->v[i])) {
			sc->b[i] = -INFINITY;
			continue;
		}
		b = rcmm_end_fit(sp->w, i, sc->count[i]);
		for (unsigned m = 0; m < sp->n_d && i + (unsigned)sp->d[m] + sp->P <= sp->w->n_x; m++) {
			unsigned j = i + (unsigned)sp->d[m];
			double f;

			if (sc->count[i] >= RCMM_RISES_MAX)
				break;
			if (!isfinite(sc->b[j]))
				continue;
			f = sp->d_fit[m] + sym_pulse(sp, j) + sc->b[j];
			if (f > b)
				b = f;
		}
		sc->b[i] = b;
	}
}

/* How much better the best path is than the best with rise k (of
 * rise_i[0..n)) elsewhere: any rise after the one before it, a symbol's
 * period on, not within half a bit pulse of a rise of the path. */
static double sym_margin(const struct sym_pass *sp, const int32_t *rise_i, unsigned n, unsigned k,
			 double best)
{
	double prev = k > 0 ? rise_i[k - 1] : sp->anchor, alt = -INFINITY;
	double lo = fmax(prev + sp->lo_d, sp->first), hi = fmin(prev + sp->hi_d, sp->w->n_x - sp->P);

	for (double i = ceil(lo); i <= hi; i++) {
		bool on_path = false;
		double t;

		for (unsigned j = 0; j < n && !on_path; j++)
			on_path = fabs(i - rise_i[j]) * 2 < sp->P;
		t = sp->sc->v[(unsigned)i] + sp->sc->b[(unsigned)i];
		if (!on_path && t > alt)
			alt = t;
	}
	return best - alt;
}

/* A receiver module's output has two levels: the samples of a space
 * between two bit pulses fit darkness, neither the lit level nor one a
 * step under darkness.  Without this the detector read frames out of
 * sound the trellis saw as one long pulse: bench_audio false's music
 * (after a click had set the step, a chord's crest held lit for
 * milliseconds read as bit pulses 444 µs apart: an rcmm24 frame of 00
 * symbols, 1 an hour); and a tone near 2.25 kHz puts its crests on the
 * grid (symbol 00's period) and its troughs in the spaces.  A space
 * fitting either level better than darkness by RCMM_SYM_SPACE_NATS makes
 * the rise after it doubtful.  (A real 278 µs space at 0 dB 48 kHz fits
 * either by -26 ± 7 nats; a coupling's undershoot the traced path
 * missed, 0.15 a after a bit pulse at τ 1 ms, stays nearer darkness.) */
#ifndef RCMM_SYM_SPACE_NATS
#define RCMM_SYM_SPACE_NATS 0.0
#endif

static bool sym_space_off(const struct sym_pass *sp, int32_t i0, int32_t i1)
{
	const struct ir_rcmm *w = sp->w;
	double lit = 0, under = 0;

	for (int32_t i = i0 + (int32_t)sp->P; i < i1; i++) {
		lit += 2 * w->a * w->x[i] - w->a * w->a;
		under += -2 * w->a * w->x[i] - w->a * w->a;
	}
	return fmax(lit, under) * sp->scale > RCMM_SYM_SPACE_NATS;
}

unsigned ir_rcmm_symbols(const struct ir_rcmm *w, unsigned told, const struct ir_rcmm_scratch *sc,
			 double *rise, double *margin)
{
	struct sym_pass sp = { .w = w, .sc = sc, .P = ir_rcmm_bit_samples(w->us), .told = told };
	int32_t rise_i[IR_RCMM_PLAN_MAX], last;
	unsigned n = 0;
	double best;

	sp.lo_d = (int)floor((rcmm_period_us[0] - RCMM_SYM_TOL_US) / w->us);
	sp.hi_d = (int)ceil((rcmm_period_us[3] + RCMM_SYM_TOL_US) / w->us);
	sp.first = fmax(w->fall0 + 1, w->s0) - w->s0;
	sp.anchor = w->prev_rise - w->s0;
	sp.scale = 1 / (2 * w->noise2);
	if (w->n_x <= sp.P || told >= RCMM_RISES_MAX)
		return 0;
	sp.n_d = 0;
	for (int d = sp.lo_d; d <= sp.hi_d && sp.n_d < SYM_D_MAX; d++) {
		double f = rcmm_period_fit(w, d);

		if (isfinite(f)) {
			sp.d[sp.n_d] = d;
			sp.d_fit[sp.n_d++] = f;
		}
	}
	sc->cum[0] = 0;
	for (unsigned i = 0; i < w->n_x; i++)
		sc->cum[i + 1] = sc->cum[i] + (2 * w->a * w->x[i] - w->a * w->a);
	last = sym_forward(&sp, &best);
	for (int32_t i = last; i >= 0; i = sc->back[i])
		n++;
	if (n > IR_RCMM_PLAN_MAX)
		return 0;
	for (int32_t i = last, k = (int32_t)n; i >= 0; i = sc->back[i])
		rise_i[--k] = i;
	sym_backward(&sp);
	for (unsigned k = 0; k < n; k++) {
		rise[k] = w->s0 + rise_i[k];
		margin[k] = sym_margin(&sp, rise_i, n, k, best);
		if (k > 0 && sym_space_off(&sp, rise_i[k - 1], rise_i[k]))
			margin[k] = 0;
	}
	return n;
}
