/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One block through one run-length trellis (ir_seqdet_trellis.h), and
 * the τ hypotheses every trellis is one of (ir_seqdet_tau.h). */
#include "ir_seqdet_trellis.h"

#include <math.h>
#include <string.h>

/* The τ hypotheses of the AC coupling (0: DC), and how long they run side
 * by side before the best is kept: long enough to see a 9 ms leader droop
 * (or not) and an RC-5 frame's first pulses. */
const double ir_seqdet_tau_us[IR_SEQDET_N_TAU] = { 0, 30000, 10000, 5000, 3000, 2000, 1400, 1000, 700 };

/* (RC-MM's long runs: see RCMM_MAX_SPACE_US in ir_seqdet_state.h) */
#ifndef RCMM_LONG_PULSE_NATS
#define RCMM_LONG_PULSE_NATS 30.0
#endif
static const double long_run_nats[2] = { RCMM_LONG_NATS, RCMM_LONG_PULSE_NATS };

/* Trellis t set to the coupling rate w (per sample). */
void seqdet_trellis_set_w(const struct ir_seqdet *sd, struct trellis *t, double w)
{
	t->q = 0;
	t->sw = 0;
	for (unsigned j = 0; j < sd->L; j++) {
		t->wp[j] = pow(w, j + 1);
		t->q += t->wp[j] * t->wp[j];
		t->sw += t->wp[j];
	}
	t->wl = pow(w, sd->L);
}

/* Which of the run prior's tables prices a run of level `lit` that has
 * lasted `run` blocks up to block j: the trailer's where j is in its
 * window, the bit boundary's where the run started on one (see
 * GRID_RUN_PHASE in ir_seqdet.c), else the grid's. */
static unsigned run_table(const struct ir_seqdet *sd, unsigned at_trailer, unsigned lit, int run, uint64_t j)
{
	double x, n, r;

	if (at_trailer || sd->gr_mid_par < 0)
		return at_trailer;
	/* (the run's first block's start is its edge; a fall comes a
	 * stretch late) */
	x = (double)((int64_t)j - run) * sd->block_us - (lit ? 0 : sd->gr_run_stretch);
	if (x < sd->gr_data_us)
		return 0;
	n = sd->ph_n + (x - (sd->ph_ref - (double)sd->n0) * sd->us) / sd->gr_unit;
	r = nearbyint(n);
	if (fabs(n - r) >= IR_GRID_PHASE_TOL)
		return 0;
	return ((int64_t)r & 1) == sd->gr_mid_par ? 0 : 2;
}

/* What a run of level s that starts now costs trellis t: a rise after
 * t->gap_run blocks of darkness (past the frame's grid: see
 * GRID_GAP_NATS) GRID_GAP_NATS; on the grid, as much as the run it ends
 * tells (GRID_RUN_PRIOR in ir_seqdet.c). */
static double edge_cost(const struct ir_seqdet *sd, const struct trellis *t, unsigned s, unsigned at_trailer,
			uint64_t j)
{
	int r = t->run[1 - s];

	if (t->gap_run <= 0)
		return t->edge_cost;
	if (s && t->run[0] >= t->gap_run)
		return sd->penalty / EDGE_NATS * GRID_GAP_NATS;
	return sd->gr_run_nats > 0 && r >= 0 && r < GRID_RUN_TABLE
		       ? t->edge_cost * sd->gr_run_cost[run_table(sd, at_trailer, 1 - s, r, j)][1 - s][r]
		       : t->edge_cost;
}

/* The limit (blocks) of a space that starts now after the saturated
 * pulse state's survivor of `run` blocks (see LEAD_SPACE_NATS): 0 unless
 * that is the frame's first pulse (lit since the start: any later one
 * began after D[0] blocks of darkness at least) of a leader's length.
 * (Only the first: under the fast τ hypotheses a long drooped "pulse" is
 * as dark as darkness, and mid-frame such a run is no leader.) */
static int space_limit(const struct ir_seqdet *sd, const struct trellis *t, int run)
{
	if (run < 0 || run + (int)t->D[0] <= t->lead_run0 + (int)sd->nb)
		return 0;
	return sd->lead_space[run < LEAD_TABLE ? run : LEAD_TABLE - 1];
}

/* One block through one trellis: S1 = Σ u_i w^(i+1). */
void seqdet_trellis_block(const struct ir_seqdet *sd, struct trellis *t, double s1, uint64_t j)
{
	double nc[2][MAX_RUN_BLOCKS + 1], ncost[2][MAX_RUN_BLOCKS + 1];
	int run[2], sat = t->lead_sat, pulse_run = t->run[1];
	unsigned slot = (unsigned)(j % RING), at_trailer = j >= sd->gr_run_win[0] && j <= sd->gr_run_win[1];
	uint8_t bits = 0;

	for (unsigned s = 0; s < 2; s++) {
		double T = s ? t->a : 0;
		unsigned o = 1 - s, D = t->D[s];

		/* a new run: the other level's run lasted long enough */
		for (unsigned k = 1; k <= D; k++) {
			unsigned from_s = k == 1 ? o : s;
			unsigned from_k = k == 1 ? t->D[o] : k - 1;
			double c = t->c[from_s][from_k], dd = c - T;
			double cost = t->cost[from_s][from_k];

			if (cost < COST_INF)
				cost += 2 * dd * s1 + dd * dd * t->q + (k == 1 ? edge_cost(sd, t, s, at_trailer, j) : 0);
			ncost[s][k] = cost;
			nc[s][k] = T + dd * t->wl;
			/* (a pulse run that began at the start is the first pulse) */
			if (k == D)
				run[s] = (int)D - (s && sd->nb + 1 <= D ? t->first_allow : 0);
			if (k == D && t->cost[s][D] < COST_INF && (!s || t->run[s] < (int)sd->max_pulse)) {
				double c2 = t->c[s][D], d2 = c2 - T;
				double cost2 = t->cost[s][D] + 2 * d2 * s1 + d2 * d2 * t->q;

				if (t->run[s] + 1 == t->long_run[s])
					cost2 += sd->penalty / EDGE_NATS * long_run_nats[s];
				if (t->gap_run > 0 && sd->gr_run_nats > 0 && t->run[s] >= 0 &&
				    t->run[s] < GRID_RUN_TABLE)
					cost2 += t->edge_cost *
						 sd->gr_run_on[run_table(sd, at_trailer, s, t->run[s], j)][s][t->run[s]];
				if (!s && t->run[0] + 1 == t->lead_sat)
					cost2 += sd->penalty / EDGE_NATS * LEAD_SPACE_NATS;

				if (cost2 <= cost) {
					ncost[s][k] = cost2;
					nc[s][k] = T + d2 * t->wl;
					bits |= (uint8_t)(1u << s);
					run[s] = t->run[s] + 1;
				}
			}
		}
	}
	memcpy(t->cost, ncost, sizeof(ncost));
	memcpy(t->c, nc, sizeof(nc));
	memcpy(t->run, run, sizeof(run));
	if (t->lead_on) {
		/* (the saturated space's survivor: its own, or the space's
		 * that began D[0] - 1 blocks ago) */
		if (!(bits & 1u))
			sat = t->lead_ring[(slot + RING - (t->D[0] - 1)) % LEAD_RING];
		t->lead_sat = sat;
		t->lead_ring[slot % LEAD_RING] = space_limit(sd, t, pulse_run);
	}
	t->bits[slot] = bits;
}
