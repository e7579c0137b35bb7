/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_seqdet_state.h - what the sequence detector's files share (not a
 * public header: only dsp/ir_seqdet*.c include it).
 *
 * The sequence detector (ir_seqdet.h) is one state machine over one
 * struct, in files by concern:
 *
 *   ir_seqdet.c          the public API, the hypotheses' start and
 *                        choice, the traceback, RC-MM's symbol and the
 *                        unit grid's planning over the traced path, the
 *                        runaway stop and the emission of decided edges;
 *   ir_seqdet_trellis.c  one block through one run-length trellis;
 *   ir_seqdet_fb.c       the decision feedback: the decided blocks'
 *                        least-squares sums, the fits under each τ
 *                        hypothesis, the switch, the neighbours, the
 *                        noise refit and the step/baseline tracking;
 *   ir_seqdet_grid.c,
 *   ir_seqdet_rcmm.c     the unit grid's and RC-MM's retiming (they take
 *                        their own structs, not this one).
 *
 * The struct and the constants more than one of these files needs are
 * here, so that they are defined once.  No file calls one that calls it
 * back (tools/check-layers): ir_seqdet.c uses fb and trellis, fb uses
 * trellis.  Each file's functions for the others are in its own header
 * (ir_seqdet_fb.h, ir_seqdet_trellis.h); none allocates.
 */
#ifndef IRJACK_IR_SEQDET_STATE_H
#define IRJACK_IR_SEQDET_STATE_H

#include "ir_seqdet.h"
#include "ir_seqdet_grid.h"
#include "ir_seqdet_rcmm.h"
#include "ir_seqdet_tau.h"

#include <stdbool.h>
#include <stdint.h>

/* Decisions are made on blocks of about an eighth of RC-6's 444 µs unit
 * (the shortest unit of the families this detector serves, RC-MM's 167 µs
 * aside): an edge lands within half a block of where the blocks put it,
 * well inside the decoders' tolerances (a quarter of a unit and more). */
#define BLOCK_US 55.0
#define MAX_BLOCK 64
/* The unit families (min_run_us[] in ir_seqdet.c: the general one and
 * RC-MM's); each has its own trellises. */
#define N_FAMILY 2u
/* No space inside an RC-MM frame is longer than 778 µs (symbol 11), no
 * pulse than its 417 µs header (plus a receiver's lengthening).  A decided
 * space over RCMM_MAX_SPACE_US is a bit pulse missed (at 2 dB and 48 kHz a
 * 167 µs pulse is 8 samples, and one in ~50 fell under its two edges'
 * EDGE_NATS: a third of the frames lost) or the frame's end; a pulse over
 * RCMM_MAX_PULSE_US is not RC-MM's.  The family pays RCMM_LONG_NATS once
 * per such run: a frame pays it once at its end, a missed pulse is decided
 * where its samples say, and a leader of the other families (NEC's 9 ms,
 * RC-6's 2.7 ms) costs the RC-MM family its choice (with the space's cost
 * alone, NEC frames at 0 dB DC that it won, harmlessly before, were cut
 * into false pulses: 83/96 -> 76/91 % at 44.1/48 kHz).  After the first
 * pulse no RC-MM pulse is longer than a bit's 167 µs (and a receiver's
 * lengthening): a later pulse over RCMM_BIT_PULSE_US pays as a long one
 * does (traced at 2 dB 48 kHz, a bit pulse stretched 100 µs into the
 * next space put that symbol out of tolerance). */
#ifndef RCMM_MAX_SPACE_US
#define RCMM_MAX_SPACE_US 900.0
#endif
#ifndef RCMM_MAX_PULSE_US
#define RCMM_MAX_PULSE_US 700.0
#endif
#ifndef RCMM_BIT_PULSE_US
#define RCMM_BIT_PULSE_US 330.0
#endif
#ifndef RCMM_LONG_NATS
#define RCMM_LONG_NATS 10.0
#endif
/* Every edge costs this much log-likelihood (nats): a lone false pulse in
 * the dark must beat the noise by twice that (at 0 dB and 48 kHz a 400 µs
 * pulse of noise gets there with probability ~1e-7), a real 444 µs unit
 * pays it out of ~40 nats. */
#define EDGE_NATS 4.0
/* What a frame's first COMMIT_US must gain over darkness all along (nats). */
#define START_NATS 20.0
/* The general family's edges cost less on a grid of few samples a unit
 * (GRID_UNIT_FULL_SAMPLES), but only within the frame: darkness past the
 * grid's longest space and a unit is the gap after it, where the detector
 * runs on until WEAK_GIVE_BACK_US, and a rise there would start another
 * frame, which START_NATS holds to that much evidence.  At the cheaper
 * edges alone a lone 6-9 sample run of noise 10-17 ms after a frame was
 * decided lit, and iMON's decoder took it, with the darkness after it,
 * for a frame of all ones (bench_audio limit --rates 16000, 0/2/4 dB,
 * six protocols, IRJACK_TRIAL_DEBUG: 20 iMON frames at main, 68 with the
 * cheaper edges, 34 with a rise in the gap at EDGE_NATS, 6 at
 * 3 × EDGE_NATS, 5 at START_NATS; accuracy the same within 0.3 point). */
#ifndef GRID_GAP_NATS
#define GRID_GAP_NATS START_NATS
#endif

#define MAX_RUN_BLOCKS 16
/* Runs (blocks) the grid's run prior prices (see GRID_RUN_PRIOR in
 * ir_seqdet.c): NEC's 4.5 ms leader space and a unit at 44.1 kHz's
 * 45 µs blocks are 112. */
#define GRID_RUN_TABLE 160
/* The τ hypotheses of the AC coupling (ir_seqdet_tau_us, ir_seqdet_trellis.c). */
#define N_TAU_H ((unsigned)IR_SEQDET_N_TAU)
/* The first pulse's step is known only as well as its start is: the level
 * it has drooped to is what its samples show, the step (and with it how
 * far the coupling's low-pass has come) one of these multiples of what the
 * caller's start time makes of it. */
static const double step_scale[] = { 0.8, 1.0, 1.25 };
#define N_SCALE (sizeof(step_scale) / sizeof(step_scale[0]))
#define N_TAU (N_FAMILY * N_TAU_H * N_SCALE) /* trellises */

/* The first pulse's samples kept to fit its step under each hypothesis. */
#define ACQ_MAX 4096
/* (a ring of per-block decisions, longer than LAG_US + EMIT_EVERY_US at
 * the shortest block, one sample at 1 MHz... 55 samples) */
#define RING 512

#define COST_INF 1e300
/* (first pulses up to MAX_PULSE_US at the shortest block, 55 µs) */
#define LEAD_TABLE 256
/* (more than MAX_RUN_BLOCKS; divides RING) */
#define LEAD_RING 32
/* What a leader's space past the protocol tables' longest costs, once
 * (nats: one edge's worth; see lead_space_init in ir_seqdet.c). */
#ifndef LEAD_SPACE_NATS
#define LEAD_SPACE_NATS 4.0
#endif

struct trellis {
	bool alive;
	unsigned D[2];              /* blocks of the family's shortest space, pulse */
	double a;                   /* step under this hypothesis */
	double a0;                  /* ...at the start */
	double acq_gain;            /* the first pulse's samples' cost under darkness less under this */
	double c_start;             /* the low-pass at the start */
	double wl, q, sw;           /* w^L, Σ w^(2(i+1)), Σ w^(i+1) over a block */
	double wp[MAX_BLOCK];       /* w^(i+1) */
	double cost[2][MAX_RUN_BLOCKS + 1]; /* [level][blocks into the run, 1..D] */
	double c[2][MAX_RUN_BLOCKS + 1];    /* the survivor's coupling low-pass */
	int run[2];                 /* blocks into the run of the saturated states' survivors */
	double edge_cost;           /* the family's EDGE_NATS as a squared error */
	int gap_run;                /* blocks of darkness after which a rise costs
				     * GRID_GAP_NATS (0: none) */
	int long_run[2];            /* blocks of the family's longest space, pulse (0: none) */
	int first_allow;            /* blocks more the first pulse may last before long_run[1] */
	/* (see LEAD_SPACE_NATS) the space states' limits: the blocks after
	 * which a space is longer than the leader before it allows (0: no
	 * such limit), for the space that began at block j in
	 * lead_ring[j % LEAD_RING], the saturated state's survivor's in
	 * lead_sat; only where lead_on */
	bool lead_on;
	int lead_run0;              /* run[1] at the start (block 0) */
	int lead_ring[LEAD_RING];
	int lead_sat;
	uint8_t bits[RING];         /* per block: bit s set when level s's
				     * saturated state came from itself */
};

/* Decision feedback's least-squares sums (see FB_MEMORY_US): per τ
 * hypothesis h, the low-pass l of the levels (unit step), and the sums of
 * u = pol·(x - fb_b) against r = level - l and 1. */
struct fb_sums {
	double l[N_TAU_H];
	double rr[N_TAU_H], r[N_TAU_H], ur[N_TAU_H];
	double u, uu, n;
	double lit;             /* samples of n lit */
};

struct ir_seqdet {
	ir_seqdet_edge_fn edge_fn;
	ir_seqdet_horizon_fn horizon_fn;
	void *userdata;
	double us;              /* per sample */
	unsigned L;             /* samples per block */
	double block_us;
	unsigned max_pulse;     /* blocks of MAX_PULSE_US */
	double penalty;         /* EDGE_NATS as a squared error */
	double offset;          /* what renormalise() took off the costs */
	double t0_us;
	double step0;           /* the caller's step at the start */
	double noise0;          /* ...and its noise (see NOISE_FIT_SAMPLES) */
	bool noise_fit;         /* the costs follow the fit's noise */
	unsigned lag, every, commit, commit_max; /* in blocks */
	unsigned commit_now;    /* this start's window (ir_seqdet_start.commit_us) */
	double mu;              /* tracking gain per block */

	bool running;
	int best;               /* the trellis kept, -1 before COMMIT_US */
	struct trellis tr[N_TAU];
	uint64_t n0;            /* sample of block 0's start */
	uint64_t nb;            /* blocks done */
	unsigned fill;          /* samples in the block being filled */
	float ub[MAX_BLOCK];    /* its restored-baseline samples u */
	double b;               /* baseline */
	int pol;

	float acq[ACQ_MAX];
	unsigned acq_n;
	uint64_t acq_n0;

	/* the decided path: blocks decided, last decided level, its c */
	uint64_t dec;
	int dec_level;
	double dec_c;
	double sx[RING];        /* Σx per block (raw samples) */
	float *xr;              /* the raw samples of the last RING blocks
				 * (RING × L), to place edges to the sample */
	double xsum;            /* of the block being filled */
	int lev[RING];          /* traceback scratch */

	/* decision feedback (see FB_MEMORY_US): the sums over the decided
	 * blocks, and per τ hypothesis w^(i+1) over a block and its sums */
	struct fb_sums fb;
	double fb_w[N_TAU_H][MAX_BLOCK];
	double fb_q[N_TAU_H], fb_sw[N_TAU_H], fb_wl[N_TAU_H];
	double fb_forget;
	double fb_b;            /* the baseline u is taken against */
	unsigned dec_run;       /* blocks of the decided path's last run */
	unsigned fb_min;        /* blocks: see FB_MIN_US */

	/* RC-MM's grid (see ir_seqdet_rcmm.h): the first lit sample of the
	 * last rise told (-1: none yet), and a bit pulse to insert (its
	 * first lit and first dark sample; ins_rise -1: none) */
	double g_rise;
	double ins_rise, ins_fall;
	/* the rises planned over the traced path (rcmm_plan): block and
	 * first lit sample, g_n of them */
	uint64_t g_blk[IR_RCMM_PLAN_MAX];
	double g_at[IR_RCMM_PLAN_MAX];
	unsigned g_n;
	struct ir_rcmm rcmm;    /* rcmm_plan's scratch */
	double *g_x;            /* ...and its restored samples (RING × L) */
	struct ir_rcmm_scratch g_sc; /* ir_rcmm_symbols' (RING × L + 1 each) */
	unsigned g_told;        /* RC-MM rises told (the header's counted) */
	bool g_sym;             /* RC-MM: edges told from ir_rcmm_symbols */
	double last_edge;       /* first sample of the last level told */
	unsigned long_pulses;   /* this frame's pulses of RUNAWAY_PULSE_US and more */
	double g_c[RING];       /* the traced path's low-pass per block */
	/* The general family's unit grid (grid_plan): the grid (-1: not
	 * yet known, -2: none), the frame's first rise, the leader's fall
	 * and the rise after it as told (-1: not yet), edges told, and the
	 * edges planned over the traced path (block, sample) */
	int gr_grid;
	double gr_t0, gr_fall, gr_rise;
	unsigned gr_told, gr_n;
	uint64_t gr_blk[IR_GRID_EDGES_MAX];
	double gr_at[IR_GRID_EDGES_MAX];
	/* the receiver's stretch the frame's last plan showed (samples; NAN:
	 * none yet), and its leader (µs) */
	double gr_stretch, gr_lead_stretch;
	bool gr_tent;           /* the edges cost a grid picked at the commit */
	/* the run-length prior on the frame's grid (GRID_RUN_PRIOR in
	 * ir_seqdet.c): per level, what the edge that ends a run of r
	 * blocks costs, and going on past r blocks, as multiples of the
	 * trellises' edge_cost (past the table: 1 and 0); the flat edge
	 * cost (nats; 0: no prior), the grid and the stretch (µs) it is for;
	 * [1] where a run the grid has only at its header's trailer may end
	 * (blocks gr_run_win[0]..[1], edges at a block's start; see
	 * GRID_RUN_TRAILER), [2] for a run that started on a Manchester
	 * bit's boundary (GRID_RUN_PHASE), [0] elsewhere */
	float gr_run_cost[3][2][GRID_RUN_TABLE];
	float gr_run_on[3][2][GRID_RUN_TABLE];
	uint64_t gr_run_win[2];
	/* the grid's mid-bit parity (-1: none, see ir_grid_mid_parity),
	 * where the frame's data begin (µs from block 0's start) and its
	 * unit (µs); the phase's reference: a rise told (sample) and its
	 * whole units after the frame's first rise (see GRID_RUN_PHASE) */
	int gr_mid_par;
	double gr_data_us, gr_unit;
	double ph_ref, ph_n;
	double gr_run_nats, gr_run_stretch;
	int gr_run_grid;
	/* the leader's space limit (blocks, 0: none) after a first pulse of
	 * j blocks, lead_space[j] (see LEAD_SPACE_NATS; only where
	 * lead_prior) */
	bool lead_prior;
	int lead_space[LEAD_TABLE];
	struct ir_grid grid;    /* grid_plan's scratch */
};

#endif
