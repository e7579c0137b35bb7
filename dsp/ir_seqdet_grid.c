/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_seqdet_grid.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* A run within GRID_TOL of a whole number of units (as a fraction of the
 * unit) is on the grid; off it, it costs GRID_OFF_NATS: small, so that
 * the samples overrule the grid where they are clear, and a remote off
 * the nominal timings loses the help, not the frame. */
#ifndef GRID_TOL
#define GRID_TOL 0.2
#endif
#ifndef GRID_OFF_NATS
#define GRID_OFF_NATS 4.0
#endif
/* A receiver module lengthens every mark and shortens the space after it
 * by as much (TSOP382's datasheet: -5 to +6 carrier cycles, -139..+167 µs
 * at 36 kHz; cheap modules more at strong signal), so a run is on the
 * grid once that stretch is taken off it (a mark's) or given back (a
 * space's); a period (mark and space) needs neither.  The stretch is one
 * number per frame, unknown: each window is retimed under these
 * hypotheses (units; each covers ±GRID_TOL) and the best path kept, the
 * first (none) on a tie.  -0.2..+0.4 units covers -178..+267 µs on RC-6's
 * unit, -225..+337 µs on NEC's. */
static const double stretch_units[] = { 0, 0.2, 0.4, -0.2 };
#define N_STRETCH ((int)(sizeof(stretch_units) / sizeof(stretch_units[0])))
/* A stretch other than the frame's so far (its leader's, then its last
 * plan's) must earn its place: the hypotheses overlap (each ±GRID_TOL
 * wide), and one of them alone puts a lone run off by 1.25-1.45 units
 * back on the grid.  It pays what two runs off the grid cost.  (Paid in
 * every window instead, 200 µs stretched frames lost 3-7 points at
 * 0-2 dB, in their first windows; the leader's stretch took them back.) */
#ifndef STRETCH_NATS
#define STRETCH_NATS (2 * GRID_OFF_NATS)
#endif

/* No two edges closer than this (units): runs are one unit at least. */
#define GRID_MIN_SEP 0.5
/* A leader's run fits within this fraction of the unit. */
#define LEADER_TOL 0.5

/* The runs each protocol has, as bit masks of whole units (bit m: m
 * units), and its leader (first pulse, first space).  Timings: RC-6 16
 * cycles of 36 kHz, RC-5 32, NEC/Sanyo 562.5 µs, JVC 527, Sony 600. */
struct grid_def {
	double unit;
	unsigned pulse, space;           /* runs of the frame */
	unsigned lead_pulse, lead_space; /* the leader's */
	unsigned bit_pulse, bit_space;   /* the data bits' (the rest come once a frame) */
};

#define B(m) (1u << (m))
#define GRID_RC6 0 /* (grids[]'s first) */
#define GRID_RC5 1
static const struct grid_def grids[] = {
	/* RC-6 (its 3-unit runs: the trailer bit's double-width half next to a unit one) */
	{ 444.4, B(1) | B(2) | B(3) | B(6), B(1) | B(2) | B(3), B(6), B(2), B(1) | B(2), B(1) | B(2) },
	{ 888.9, B(1) | B(2), B(1) | B(2), B(1) | B(2), B(1) | B(2), B(1) | B(2), B(1) | B(2) }, /* RC-5 */
	{ 562.5, B(1) | B(16), B(1) | B(3) | B(4) | B(8), B(16), B(4) | B(8), B(1), B(1) | B(3) }, /* NEC, Sanyo */
	{ 527.0, B(1) | B(16), B(1) | B(3) | B(8), B(16), B(8), B(1), B(1) | B(3) },             /* JVC */
	{ 600.0, B(1) | B(2) | B(4), B(1), B(4), B(1), B(1) | B(2), B(1) },                      /* Sony */
};
#define N_GRID ((int)(sizeof(grids) / sizeof(grids[0])))

/* How far (units) a run of `units` is from the nearest whole number in
 * mask; HUGE_VAL when past the mask's longest by half a unit or more. */
static double off_mask(double units, unsigned mask)
{
	double best = HUGE_VAL;

	for (int m = 1; m < 32; m++)
		if (mask & B(m))
			best = fmin(best, fabs(units - m));
	return best;
}

int ir_grid_pick(double pulse_us, double space_us)
{
	int best = -1;
	double bd = HUGE_VAL;

	for (int i = 0; i < N_GRID; i++)
		for (int h = 0; h < N_STRETCH; h++) {
			double st = stretch_units[h] * grids[i].unit;
			double dp = off_mask((pulse_us - st) / grids[i].unit, grids[i].lead_pulse);
			double ds = off_mask((space_us + st) / grids[i].unit, grids[i].lead_space);

			if (dp <= LEADER_TOL && ds <= LEADER_TOL && dp + ds < bd) {
				bd = dp + ds;
				best = i;
			}
		}
	return best;
}

/* The whole number of units in mask nearest `units`. */
static int nearest_in_mask(double units, unsigned mask)
{
	int best = 0;

	for (int m = 1; m < 32; m++)
		if ((mask & B(m)) && (best == 0 || fabs(units - m) < fabs(units - best)))
			best = m;
	return best;
}

double ir_grid_leader_stretch(int grid, double pulse_us, double space_us)
{
	const struct grid_def *d = &grids[grid];
	double bd = HUGE_VAL, est = 0;

	for (int h = 0; h < N_STRETCH; h++) {
		double st = stretch_units[h] * d->unit;
		double dp = off_mask((pulse_us - st) / d->unit, d->lead_pulse);
		double ds = off_mask((space_us + st) / d->unit, d->lead_space);

		if (dp + ds < bd) {
			int mp = nearest_in_mask((pulse_us - st) / d->unit, d->lead_pulse);
			int ms = nearest_in_mask((space_us + st) / d->unit, d->lead_space);

			bd = dp + ds;
			est = (pulse_us - mp * d->unit + ms * d->unit - space_us) / 2;
		}
	}
	return est;
}

/* A leader is a first pulse of LEADER_MIN_UNITS units and more (RC-5's
 * one- or two-unit "leader" is a bit's pulse like any other). */
#define LEADER_MIN_UNITS 3

double ir_grid_leader_space_max(double pulse_us)
{
	double longest = 0;

	for (int i = 0; i < N_GRID; i++) {
		const struct grid_def *d = &grids[i];
		int m = 31;

		if (d->lead_pulse < B(LEADER_MIN_UNITS))
			continue;
		for (int h = 0; h < N_STRETCH; h++) {
			double st = stretch_units[h] * d->unit;

			if (off_mask((pulse_us - st) / d->unit, d->lead_pulse) > LEADER_TOL)
				continue;
			while (m > 0 && !(d->lead_space & B(m)))
				m--;
			longest = fmax(longest, m * d->unit);
		}
	}
	return longest;
}

double ir_grid_unit(int grid)
{
	return grids[grid].unit;
}

double ir_grid_longest_space(int grid)
{
	int m = 31;

	while (m > 0 && !(grids[grid].space & B(m)))
		m--;
	return m * grids[grid].unit;
}

unsigned ir_grid_runs(int grid, bool lit, bool bits)
{
	const struct grid_def *d = &grids[grid];

	return bits ? (lit ? d->bit_pulse : d->bit_space) : (lit ? d->pulse : d->space);
}

/* RC-6's header (leader 6 + 2 units, start bit 2, mode bits 6, from the
 * frame's first rise) puts its double-width trailer bit at 16-20 units;
 * its halves, two units each, next to a unit half of the bit before or
 * after make the frame's only 3-unit runs, ending 18 or 21 units in
 * (the trailer bit's value and the neighbours' decide which): the data
 * bits' runs are one unit or two.  The same in every mode (RC-6A's too). */
#define RC6_TRAILER_FROM 18
#define RC6_TRAILER_TO 21

unsigned ir_grid_trailer(int grid, double *from_units, double *to_units)
{
	if (grid != GRID_RC6)
		return 0;
	*from_units = RC6_TRAILER_FROM;
	*to_units = RC6_TRAILER_TO;
	return B(3);
}

/* RC-6: leader 6 + 2 units from the first rise, the start bit's rise at
 * 8 and its mid at 9, the mode bits' at 11, 13, 15, the data's (past the
 * trailer's 16-20) at 21, 23...: odd.  RC-5: the first rise is the first
 * start bit's mid: even. */
int ir_grid_mid_parity(int grid, double *from_units)
{
	if (grid == GRID_RC6) {
		*from_units = 8;
		return 1;
	}
	if (grid == GRID_RC5) {
		*from_units = 0;
		return 0;
	}
	return -1;
}

/* A run of `samples` at level `lit` on grid d, under a stretch of
 * `stretch` units: 1 when off it, 0 on it or past its longest run (a
 * frame's end, a repeat's gap: no grid there). */
static int run_off(const struct grid_def *d, double samples, double us, bool lit, double stretch)
{
	unsigned mask = lit ? d->pulse : d->space;
	double units = samples * us / d->unit + (lit ? -stretch : stretch);
	int top = 31;

	while (top > 0 && !(mask & B(top)))
		top--;
	if (units >= top + 0.5)
		return 0;
	return off_mask(units, mask) > GRID_TOL;
}

/* The level of the run that edge k starts. */
static bool lit_after(const struct ir_grid *g, unsigned k)
{
	return (k % 2 == 0) != g->anchor_lit;
}

/* Counts the runs off the grid of the path `pos` (samples). */
static unsigned path_off(const struct ir_grid *g, const struct grid_def *d, double stretch,
			 const double *pos)
{
	unsigned off = 0;
	double q = g->anchor;

	for (unsigned k = 0; k < g->n; k++) {
		off += (unsigned)run_off(d, pos[k] - q, g->us, k == 0 ? g->anchor_lit : lit_after(g, k - 1),
					 stretch);
		q = pos[k];
	}
	return off;
}

/* Where an edge at sample x that starts a run of level `lit` is on
 * Manchester grid d (mid-bit parity `par`, data from `from` units), under
 * a stretch of `stretch` units: 1 on a bit boundary, 0 mid-bit or not
 * known (before the data, off a whole unit, RC-6's trailer bit). */
static int on_boundary(const struct ir_grid *g, const struct grid_def *d, int par, double from, bool lit,
		       double stretch, double x)
{
	double n = g->ref_n + (x - g->ref) * g->us / d->unit - (lit ? 0 : stretch), r = nearbyint(n);
	double tf = 0, tt = -1;

	ir_grid_trailer((int)(d - grids), &tf, &tt);
	if (par < 0 || isnan(n) || n < from - 0.5 || fabs(n - r) >= IR_GRID_PHASE_TOL || (r >= tf - 2 && r <= tt))
		return 0;
	return ((int64_t)r & 1) != par;
}

/* A run of `samples` at level `lit` on grid d under a stretch of
 * `stretch` units is one of its data bits' longer than a unit. */
static bool run_long_bit(const struct grid_def *d, double samples, double us, bool lit, double stretch)
{
	unsigned bits = (lit ? d->bit_pulse : d->bit_space) & ~B(1);
	double units = samples * us / d->unit + (lit ? -stretch : stretch);

	return bits && off_mask(units, bits) <= GRID_TOL;
}

/* The best of edge k - 1's nc candidates c2 before a candidate whose
 * runs from c2 cost cost[-c2] (and two[-c2] more where bnd[c2]; two NULL:
 * none on a boundary, the common case kept as cheap as before): its
 * score, and c2 into *back. */
static double best_before(const double *v0, const double *cost, const double *two, const uint8_t *bnd, int nc,
			  uint8_t *back)
{
	double bv = -INFINITY;

	for (int c2 = 0; c2 < nc; c2++) {
		double val = v0[c2] - cost[-c2] - (two && bnd[c2] ? two[-c2] : 0);

		if (val > bv) {
			bv = val;
			*back = (uint8_t)c2;
		}
	}
	return bv;
}

/* Edge k's candidate c after edge k - 1's c2 (or the anchor): the
 * best path's score into v1[c] and its choice into back[c].  The runs'
 * costs, which depend on c - c2 only, are taken once each; on a
 * Manchester grid a data run longer than a unit from a bit boundary
 * (which of c2 start on one, bnd[]) costs GRID_OFF_NATS more. */
static void retime_edge(const struct ir_grid *g, const struct grid_def *d, double stretch, unsigned k,
			const double *v0, double *v1, uint8_t *back)
{
	int W = g->W, nc = 2 * W + 1, par;
	bool lv = k == 0 ? g->anchor_lit : lit_after(g, k - 1);
	double base = k > 0 ? g->at[k] - g->at[k - 1] : g->at[0] - g->anchor, from = 0;
	double sep = GRID_MIN_SEP * d->unit / g->us, cost[4 * IR_GRID_CAND_MAX], two[4 * IR_GRID_CAND_MAX];
	uint8_t bnd[IR_GRID_CAND_MAX];
	bool any_bnd = false;

	par = ir_grid_mid_parity((int)(d - grids), &from);
	/* the run of c - c2 + 2W samples more than base - 2W */
	for (int i = 0; i <= 4 * W; i++) {
		double run = base + i - 2 * W;

		cost[i] = run < sep ? INFINITY : GRID_OFF_NATS * run_off(d, run, g->us, lv, stretch);
	}
	for (int c2 = 0; c2 < nc; c2++) {
		bnd[c2] = (uint8_t)(k > 0 ? on_boundary(g, d, par, from, lv, stretch, g->at[k - 1] + c2 - W)
					  : on_boundary(g, d, par, from, lv, stretch, g->anchor));
		any_bnd = any_bnd || bnd[c2];
	}
	for (int i = 0; any_bnd && i <= 4 * W; i++)
		two[i] = run_long_bit(d, base + i - 2 * W, g->us, lv, stretch) ? GRID_OFF_NATS : 0;
	for (int c = 0; c < nc; c++) {
		double bv = -INFINITY;

		back[c] = (uint8_t)W;
		if (k == 0) {
			/* the anchor is fixed: its run is c - W samples more */
			bv = -cost[c + W] - (any_bnd ? two[c + W] : 0);
		} else if (isfinite(g->gain[k][c])) {
			bv = best_before(v0, cost + c + 2 * W, any_bnd ? two + c + 2 * W : NULL, bnd, nc, &back[c]);
		}
		v1[c] = bv + g->gain[k][c];
	}
}

/* The best path of g on grid d under a stretch of `stretch` units into
 * out[]: its score (nats; -INFINITY: none). */
static double retime_path(const struct ir_grid *g, const struct grid_def *d, double stretch, double *out)
{
	int nc = 2 * g->W + 1, cur = 0, best = g->W;
	double v[2][IR_GRID_CAND_MAX], score;
	uint8_t back[IR_GRID_EDGES_MAX][IR_GRID_CAND_MAX];

	for (unsigned k = 0; k < g->n; k++) {
		retime_edge(g, d, stretch, k, v[cur], v[1 - cur], back[k]);
		cur = 1 - cur;
	}
	for (int c = 0; c < nc; c++)
		if (v[cur][c] > v[cur][best])
			best = c;
	score = v[cur][best];
	if (!isfinite(score))
		return -INFINITY;
	for (unsigned k = g->n; k-- > 0;) {
		out[k] = g->at[k] + best - g->W;
		best = back[k][best];
	}
	return score;
}

/* The stretch (units) that the runs of path `pos`, on grid d under the
 * hypothesis `stretch`, show: each run's distance from its whole number
 * of units (a space's negated), their mean over the runs within the grid's
 * longest. */
static double path_stretch(const struct ir_grid *g, const struct grid_def *d, double stretch,
			   const double *pos)
{
	double q = g->anchor, sum = 0;
	unsigned n = 0;

	for (unsigned k = 0; k < g->n; k++) {
		bool lit = k == 0 ? g->anchor_lit : lit_after(g, k - 1);
		unsigned mask = lit ? d->pulse : d->space;
		double units = (pos[k] - q) * g->us / d->unit, sign = lit ? 1 : -1;
		double best = HUGE_VAL;

		q = pos[k];
		for (int m = 1; m < 32; m++)
			if ((mask & B(m)) && fabs(units - sign * stretch - m) < fabs(best))
				best = units - sign * stretch - m;
		if (best > 0.5 || best < -0.5)
			continue; /* past the longest run: a gap */
		sum += sign * best + stretch;
		n++;
	}
	return n ? sum / n : stretch;
}

/* The hypothesis nearest `stretch_us` on grid d. */
static int nearest_stretch(const struct grid_def *d, double stretch_us)
{
	int h0 = 0;

	for (int h = 1; h < N_STRETCH; h++)
		if (fabs(stretch_units[h] * d->unit - stretch_us) < fabs(stretch_units[h0] * d->unit - stretch_us))
			h0 = h;
	return h0;
}

bool ir_grid_retime(const struct ir_grid *g, int grid, double frame_us, double *out, double *stretch_us)
{
	const struct grid_def *d = &grids[grid];
	double best = -INFINITY, stretch = 0, path[IR_GRID_EDGES_MAX];
	int h0 = nearest_stretch(d, frame_us);

	*stretch_us = 0;

	if (g->n == 0 || 2 * g->W + 1 > IR_GRID_CAND_MAX)
		return false;
	for (int h = 0; h < N_STRETCH; h++) {
		double score = retime_path(g, d, stretch_units[h], path) - (h != h0 ? STRETCH_NATS : 0);

		if (score > best) {
			best = score;
			stretch = stretch_units[h];
			for (unsigned k = 0; k < g->n; k++)
				out[k] = path[k];
		}
		/* every run on the grid without a stretch: nothing to find */
		if (h == 0 && h0 == 0 && isfinite(score) && path_off(g, d, 0, path) == 0)
			break;
	}
	/* most runs still off the grid: not this protocol's frame; under a
	 * stretch, which brings any lone run within reach of the grid, a
	 * quarter (runs of 0.6 units, 267 µs on RC-6, passed the half
	 * under a +0.4 unit stretch: every space on, every pulse off) */
	if (!isfinite(best) || (stretch != 0 ? 4 : 2) * path_off(g, d, stretch, out) > g->n) {
		for (unsigned k = 0; k < g->n; k++)
			out[k] = g->at[k];
		return false;
	}
	if (stretch != 0)
		*stretch_us = path_stretch(g, d, stretch, out) * d->unit;
	return true;
}
