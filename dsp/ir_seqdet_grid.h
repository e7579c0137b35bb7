/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet_grid.h - the sequence detector's edges retimed on a
 * protocol's unit grid (private to dsp/ir_seqdet.c).
 *
 * Every protocol of the general family (RC-6, RC-5, NEC, Sanyo, JVC,
 * Sony) puts its edges on a unit grid: each run (pulse or space) lasts a
 * whole number of units out of a small set.  At 0-2 dB the detector's
 * blocks and refine_edge place an edge alone, and one off by 150-260 µs
 * turns a Manchester half-bit.  The frame's leader (its first pulse and
 * space) picks the grid; the edges traced are then timed together to
 * the sample (a Viterbi over the edges, each a few candidates either
 * way, scored by the samples' fit the caller hands in, a run off the
 * grid costing a few nats).  A leader no grid knows leaves the edges
 * alone, and so does a retimed path with most runs still off its grid.
 * A receiver module lengthens marks (spaces shrink by as much): the grid
 * is fitted under a few such stretches, and the stretch a path shows is
 * handed back so that the caller can tell the remote's marks.
 * Pure functions: no allocation, no state.
 */
#ifndef IRJACK_IR_SEQDET_GRID_H
#define IRJACK_IR_SEQDET_GRID_H

#include <stdbool.h>

#define IR_GRID_EDGES_MAX 32
#define IR_GRID_CAND_MAX 64

/* The edges of a window, as traced, and what moving each costs. */
struct ir_grid {
	double us;          /* µs per sample */
	int W;              /* candidate c of edge k: sample at[k] + c - W */
	unsigned n;         /* edges */
	double anchor;      /* the last edge told (sample): fixed */
	/* a rise told (sample; NAN: no Manchester phase) and its whole
	 * units after the frame's first rise (see ir_grid_mid_parity) */
	double ref, ref_n;
	bool anchor_lit;    /* the level after it (edges alternate) */
	double at[IR_GRID_EDGES_MAX];
	/* the samples' fit of edge k at candidate c less at W (nats;
	 * -INFINITY: not a place it may take) */
	double gain[IR_GRID_EDGES_MAX][IR_GRID_CAND_MAX];
};

/* The grid whose leader a first pulse and space of these lengths (µs,
 * under any of the receiver stretches the grids allow) fit best: its
 * index, or -1 when none fits. */
int ir_grid_pick(double pulse_us, double space_us);

/* The receiver's stretch (µs) a leader of these lengths shows on grid
 * `grid`: half its pulse's excess plus half its space's shortfall. */
double ir_grid_leader_stretch(int grid, double pulse_us, double space_us);

/* The longest leader space (µs) of the grids whose leader (a first pulse
 * of three units and more: RC-6's, NEC's, JVC's, Sony's) a first pulse of
 * pulse_us fits, under any of the receiver stretches the grids allow; 0
 * when it fits none. */
double ir_grid_leader_space_max(double pulse_us);

/* The unit of grid `grid` (µs). */
double ir_grid_unit(int grid);

/* The longest space of grid `grid`'s frames (µs): darkness past it (and
 * the grid's tolerance) is a gap, not a space of the frame. */
double ir_grid_longest_space(int grid);

/* The runs grid `grid`'s frames have at level `lit` (a pulse's if true),
 * or only its data bits' (`bits`; the others come once a frame: a
 * leader's, a trailer's): bit m set where a run of m units is one. */
unsigned ir_grid_runs(int grid, bool lit, bool bits);

/* The runs (bit m: m units, at either level) that grid `grid`'s frames
 * have only where a header puts them, and the window (units after the
 * frame's first rise) where such a run ends: *from_units..*to_units, set
 * only where the mask is not 0 (RC-6's trailer bit's 3-unit runs). */
unsigned ir_grid_trailer(int grid, double *from_units, double *to_units);

/* Where grid `grid`'s frames are Manchester coded (RC-6's, RC-5's), the
 * parity of the units after the frame's first rise where its bits' mid
 * transitions come (every bit has one; its boundary has one only where
 * two bits are alike, so a data run of two units starts and ends mid-bit),
 * and *from_units the first data edge (past the leader); -1 where the
 * grid is not Manchester.  RC-6's trailer bit (see ir_grid_trailer) is
 * off this parity: a caller leaves its window out. */
int ir_grid_mid_parity(int grid, double *from_units);

/* An edge this far (units) or more from a whole unit after the frame's
 * first rise has no known Manchester phase. */
#define IR_GRID_PHASE_TOL 0.3

/* Times g's edges together on grid `grid` (from ir_grid_pick): out[k] is
 * edge k's sample (on a Manchester grid a data run of two units from a
 * bit boundary costs what a run off the grid does), and *stretch_us the
 * receiver's stretch (µs: how much longer its marks are, and its spaces shorter, than the grid's) that the
 * path shows, 0 where the grid fits it unstretched.  `frame_us` is the
 * frame's stretch so far (0 at its start): a stretch far from it must
 * earn its place.  Returns false (out[] as traced, *stretch_us 0) when
 * the best path has most of its runs off the grid or gains nothing over
 * the edges as traced. */
bool ir_grid_retime(const struct ir_grid *g, int grid, double frame_us, double *out,
		    double *stretch_us);

#endif
