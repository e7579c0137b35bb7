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
