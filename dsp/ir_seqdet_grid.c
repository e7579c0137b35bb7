/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_seqdet_grid.h"

#include <math.h>
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
};

#define B(m) (1u << (m))
static const struct grid_def grids[] = {
	{ 444.4, B(1) | B(2) | B(3) | B(6), B(1) | B(2) | B(3), B(6), B(2) }, /* RC-6 */
	{ 888.9, B(1) | B(2), B(1) | B(2), B(1) | B(2), B(1) | B(2) },        /* RC-5 */
	{ 562.5, B(1) | B(16), B(1) | B(3) | B(4) | B(8), B(16), B(4) | B(8) }, /* NEC, Sanyo */
	{ 527.0, B(1) | B(16), B(1) | B(3) | B(8), B(16), B(8) },             /* JVC */
	{ 600.0, B(1) | B(2) | B(4), B(1), B(4), B(1) },                      /* Sony */
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

	for (int i = 0; i < N_GRID; i++) {
		double dp = off_mask(pulse_us / grids[i].unit, grids[i].lead_pulse);
		double ds = off_mask(space_us / grids[i].unit, grids[i].lead_space);

		if (dp <= LEADER_TOL && ds <= LEADER_TOL && dp + ds < bd) {
			bd = dp + ds;
			best = i;
		}
	}
	return best;
}

double ir_grid_unit(int grid)
{
	return grids[grid].unit;
}

/* A run of `samples` at level `lit` on grid d: 1 when off it, 0 on it or
 * past its longest run (a frame's end, a repeat's gap: no grid there). */
static int run_off(const struct grid_def *d, double samples, double us, bool lit)
{
	unsigned mask = lit ? d->pulse : d->space;
	double units = samples * us / d->unit;
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
static unsigned path_off(const struct ir_grid *g, const struct grid_def *d, const double *pos)
{
	unsigned off = 0;
	double q = g->anchor;

	for (unsigned k = 0; k < g->n; k++) {
		off += (unsigned)run_off(d, pos[k] - q, g->us, k == 0 ? g->anchor_lit : lit_after(g, k - 1));
		q = pos[k];
	}
	return off;
}

/* Edge k's candidate c after edge k - 1's c2 (or the anchor): the
 * best path's score into v1[c] and its choice into back[c].  The runs'
 * costs, which depend on c - c2 only, are taken once each. */
static void retime_edge(const struct ir_grid *g, const struct grid_def *d, unsigned k, const double *v0,
			double *v1, uint8_t *back)
{
	int W = g->W, nc = 2 * W + 1;
	bool lv = k == 0 ? g->anchor_lit : lit_after(g, k - 1);
	double base = k > 0 ? g->at[k] - g->at[k - 1] : g->at[0] - g->anchor;
	double sep = GRID_MIN_SEP * d->unit / g->us, cost[4 * IR_GRID_CAND_MAX];

	/* the run of c - c2 + 2W samples more than base - 2W */
	for (int i = 0; i <= 4 * W; i++) {
		double run = base + i - 2 * W;

		cost[i] = run < sep ? INFINITY : GRID_OFF_NATS * run_off(d, run, g->us, lv);
	}
	for (int c = 0; c < nc; c++) {
		double bv = -INFINITY;

		back[c] = (uint8_t)W;
		if (k == 0) {
			/* the anchor is fixed: its run is c - W samples more */
			bv = -cost[c + W];
		} else if (isfinite(g->gain[k][c])) {
			for (int c2 = 0; c2 < nc; c2++) {
				double val = v0[c2] - cost[c - c2 + 2 * W];

				if (val > bv) {
					bv = val;
					back[c] = (uint8_t)c2;
				}
			}
		}
		v1[c] = bv + g->gain[k][c];
	}
}

bool ir_grid_retime(const struct ir_grid *g, int grid, double *out)
{
	const struct grid_def *d = &grids[grid];
	int nc = 2 * g->W + 1, cur = 0, best = g->W;
	double v[2][IR_GRID_CAND_MAX];
	uint8_t back[IR_GRID_EDGES_MAX][IR_GRID_CAND_MAX];

	if (g->n == 0 || nc > IR_GRID_CAND_MAX)
		return false;
	for (unsigned k = 0; k < g->n; k++) {
		retime_edge(g, d, k, v[cur], v[1 - cur], back[k]);
		cur = 1 - cur;
	}
	for (int c = 0; c < nc; c++)
		if (v[cur][c] > v[cur][best])
			best = c;
	if (!isfinite(v[cur][best]))
		return false;
	for (unsigned k = g->n; k-- > 0;) {
		out[k] = g->at[k] + best - g->W;
		best = back[k][best];
	}
	/* most runs still off the grid: not this protocol's frame */
	if (2 * path_off(g, d, out) > g->n) {
		for (unsigned k = 0; k < g->n; k++)
			out[k] = g->at[k];
		return false;
	}
	return true;
}
