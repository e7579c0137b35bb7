/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_coldstart.c - `bench_audio coldstart`: recordings cut tight (see
 * bench_coldstart.h).
 */
#include "bench_coldstart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audio_harness.h"
#include "bench_args.h"
#include "ir_channel_sim.h"
#include "ir_edge.h"

#define LEAD_MS 20.0
#define MAX_AXIS 16


/* ms before the first pulse; then fractions of the deepest cut into it */
static const double before_ms[] = { 5, 4, 3, 2, 1.5, 1, 0.75, 0.5, 0.3, 0.1, 0 };
static const double into_frac[] = { 0.3, 0.6, 1.0 };
#define N_BEFORE (sizeof(before_ms) / sizeof(before_ms[0]))
#define N_CUTS (N_BEFORE + sizeof(into_frac) / sizeof(into_frac[0]))

struct coldstart_grid {
	double rates[MAX_AXIS], snrs[MAX_AXIS], taus[MAX_AXIS];
	size_t n_rates, n_snrs, n_taus;
	unsigned seeds;
	bool markdown, list, edges;
};

/* Counts of one cell: cuts tried and decoded, and the same frames uncut
 * (20 ms of noise before them: what the stream would give anyway). */
struct coldstart_cell {
	unsigned tried, cut_ok, uncut_tried, uncut_ok;
	unsigned per_frame_miss[AUDIO_CUT_FRAMES];
};

/* --edges: the demodulated edges of a miss, in the compact mode2 form. */
static void print_edge(void *userdata, unsigned channel, const struct ir_edge *e)
{
	(void)userdata;
	(void)channel;
	if (e->kind == IR_PULSE || e->kind == IR_SPACE)
		printf(" %c%u", e->kind == IR_PULSE ? '+' : '-', e->duration);
	else
		printf(" [%s %u]", ir_edge_kind_name(e->kind), e->duration);
}

/* Every cut of one rendering: counts into `c`. */
static void run_cuts(const struct coldstart_grid *g, const struct ir_channel_config *cc,
		     const float *s, size_t n, size_t f, struct audio_wanted *w,
		     struct coldstart_cell *c)
{
	unsigned rate = cc->sample_rate;

	for (size_t k = 0; k < N_CUTS; k++) {
		double at_ms = k < N_BEFORE ? LEAD_MS - before_ms[k]
					    : LEAD_MS + audio_cut_frames[f].deepest_us *
								into_frac[k - N_BEFORE] / 1000;
		size_t from = (size_t)llround(at_ms * 1e-3 * rate);
		bool ok = audio_decodes_from(s, n, from, rate, n, w, NULL);

		c->tried++;
		c->cut_ok += ok;
		c->per_frame_miss[f] += !ok;
		if (!ok && g->list)
			printf("miss: %s %u Hz %g dB tau %g ms %s seed %llu: cut %+.3f ms\n",
			       audio_cut_frames[f].name, rate, cc->snr_db, cc->ac_tau_ms,
			       cc->invert ? "inverted" : "active low", (unsigned long long)cc->seed,
			       at_ms - LEAD_MS);
		if (!ok && g->edges) {
			printf("  edges:");
			audio_decodes_from(s, n, from, rate, n, w, print_edge);
			printf("\n");
		}
	}
	c->uncut_tried++;
	if (audio_decodes_from(s, n, 0, rate, n, w, NULL))
		c->uncut_ok++;
	else if (g->list)
		printf("miss: %s %u Hz %g dB tau %g ms %s seed %llu: uncut\n", audio_cut_frames[f].name, rate,
		       cc->snr_db, cc->ac_tau_ms, cc->invert ? "inverted" : "active low",
		       (unsigned long long)cc->seed);
}

/* One rate × SNR: every frame × tau × polarity × seed. */
static void run_cell(const struct coldstart_grid *g, unsigned rate, double snr,
		     struct coldstart_cell *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t f = 0; f < AUDIO_CUT_FRAMES; f++) {
		struct ir_edge_buf b = { 0 };
		struct audio_wanted w;

		if (audio_cut_frame_edges(f, &b, &w) < 0) {
			fprintf(stderr, "bench_audio: cannot make a %s frame\n",
				audio_cut_frames[f].name);
			exit(1);
		}
		for (size_t t = 0; t < g->n_taus; t++)
			for (unsigned v = 0; v < 2 * g->seeds; v++) {
				struct ir_channel_config cc;
				float *s;
				size_t n;

				ir_channel_config_default(&cc);
				cc.sample_rate = rate;
				cc.ac_tau_ms = g->taus[t];
				cc.snr_db = snr;
				cc.invert = v & 1;
				cc.hum_hz = 50;
				cc.hum_level = 0.02;
				cc.lead_ms = LEAD_MS;
				cc.seed = 1000003u * (v / 2 + 1) + 7919u * f + 131u * t + (v & 1);
				if (ir_channel_render(&cc, b.edges, b.len, &s, &n) < 0)
					continue;
				run_cuts(g, &cc, s, n, f, &w, c);
				free(s);
			}
		ir_edge_buf_free(&b);
	}
}

static const char usage[] =
	"usage: bench_audio coldstart [--rates r,s] [--snr x,y] [--taus ms,...] (0 = DC)\n"
	"         [--seeds N] [--markdown] [--list] (every cut missed, and every uncut rendering) [--edges] (and its edges)\n";

static int grid_parse(struct coldstart_grid *g, int argc, char **argv)
{
	const char *rates = "16000,44100,48000,96000", *snrs = "30,20,15,10,6";
	const char *taus = "1,5,0";

	memset(g, 0, sizeof(*g));
	g->seeds = 2;
	for (int i = 2; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--markdown") || !strcmp(argv[i], "--list") ||
		    !strcmp(argv[i], "--edges")) {
			g->markdown |= argv[i][2] == 'm';
			g->edges |= argv[i][2] == 'e';
			g->list |= argv[i][2] != 'm';
			continue;
		}
		if (!val)
			goto bad;
		if (!strcmp(argv[i], "--rates"))
			rates = val;
		else if (!strcmp(argv[i], "--snr"))
			snrs = val;
		else if (!strcmp(argv[i], "--taus"))
			taus = val;
		else if (!strcmp(argv[i], "--seeds"))
			g->seeds = (unsigned)atoi(val);
		else
			goto bad;
		i++;
	}
	g->n_rates = bench_parse_numbers(rates, g->rates, MAX_AXIS);
	g->n_snrs = bench_parse_numbers(snrs, g->snrs, MAX_AXIS);
	g->n_taus = bench_parse_numbers(taus, g->taus, MAX_AXIS);
	if (g->n_rates && g->n_snrs && g->n_taus && g->seeds >= 1 && g->seeds <= 100)
		return 0;
bad:
	fputs(usage, stderr);
	return -1;
}

static void print_cell(const struct coldstart_grid *g, const struct coldstart_cell *c)
{
	double cut = 100.0 * c->cut_ok / c->tried, uncut = 100.0 * c->uncut_ok / c->uncut_tried;
	size_t worst = 0;

	for (size_t f = 1; f < AUDIO_CUT_FRAMES; f++)
		if (c->per_frame_miss[f] > c->per_frame_miss[worst])
			worst = f;
	if (g->markdown)
		printf(" %.1f %% (%.1f %%) |", cut, uncut);
	else
		printf("  %5.1f (%5.1f) %-7s", cut, uncut,
		       c->per_frame_miss[worst] ? audio_cut_frames[worst].name : "-");
}

int bench_coldstart_main(int argc, char **argv)
{
	struct coldstart_grid g;

	if (grid_parse(&g, argc, argv) < 0)
		return 2;
	printf("cold start: the first frame of a recording cut 5 ms .. 0 before its first pulse\n"
	       "or 30-100 us into it (%zu cuts), nec rc5 rc6_0 sony12 jvc sanyo, tau", N_CUTS);
	for (size_t t = 0; t < g.n_taus; t++)
		printf(" %g%s", g.taus[t], g.taus[t] > 0 ? " ms" : " (DC)");
	printf(", both polarities, %u seeds, hum 2 %%.\nCells: %% of cuts decoded "
	       "(%% of the same renderings uncut, 20 ms of noise before),\nand the frame "
	       "missed most.\n\n", g.seeds);
	printf(g.markdown ? "| README SNR |" : "%-8s", g.markdown ? "" : "SNR");
	for (size_t r = 0; r < g.n_rates; r++)
		printf(g.markdown ? " %g kHz |" : "  %-22g", g.rates[r] / 1000);
	printf(g.markdown ? "\n|---|" : "\n");
	for (size_t r = 0; g.markdown && r < g.n_rates; r++)
		printf("---|");
	if (g.markdown)
		printf("\n");
	for (size_t k = 0; k < g.n_snrs; k++) {
		printf(g.markdown ? "| %g dB |" : "%-8g", g.snrs[k]);
		for (size_t r = 0; r < g.n_rates; r++) {
			struct coldstart_cell c;

			run_cell(&g, (unsigned)g.rates[r], g.snrs[k], &c);
			print_cell(&g, &c);
			fflush(stdout);
		}
		printf("\n");
	}
	return 0;
}
