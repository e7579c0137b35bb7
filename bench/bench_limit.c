/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_limit.c - `bench_audio limit` and `bench_audio photodiode`: irjack's
 * frame success against the genie-aided bound (audio_result.genie_matched)
 * on the same samples, over a grid of protocol × AC coupling × SNR × rate.
 * See bench_limit.h.
 */
#include "bench_limit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_args.h"
#include "audio_harness.h"

#define MAX_AXIS 64

struct limit_grid {
	enum ir_protocol protocols[MAX_AXIS];
	double rates[MAX_AXIS], taus[MAX_AXIS], snrs[MAX_AXIS];
	size_t n_protocols, n_rates, n_taus, n_snrs;
	unsigned frames;
	double stretch_us; /* the receiver's mark lengthening (spaces shrink), µs */
	bool photodiode, codec_filter, markdown;
};

/* Success of irjack and of the genie at one point, %; -1 when the trial
 * could not run. */
struct limit_cell {
	double ours, genie;
};

static size_t parse_protocols(const char *list, enum ir_protocol *v)
{
	char buf[512], *save = NULL;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_AXIS || ir_protocol_from_name(tok, &v[n]) < 0) {
			fprintf(stderr, "bench_audio: unknown protocol %s\n", tok);
			return 0;
		}
		n++;
	}
	return n;
}

/* The full grid's SNRs: every dB from -8 up to 10, then every 2 dB up to
 * 30 (a photodiode's from -12). */
static size_t full_snrs(double *v, bool photodiode)
{
	size_t n = 0;

	for (int s = photodiode ? -12 : -8; s <= 30; s += s < 10 ? 1 : 2)
		v[n++] = s;
	return n;
}

static const char usage[] =
	"usage: bench_audio limit|photodiode [--frames N] [--protocols a,b] [--rates r,s]\n"
	"         [--taus ms,...] (0 = DC) [--snr x,y] [--full] [--markdown] [--aa codec|short]\n"
	"         [--stretch US]  (the receiver lengthens every mark by US µs and shortens\n"
	"                          the space after by as much, as real modules do; default 0)\n";

/* Fills g from the defaults of `what` and the options; returns 0 or -1. */
static int grid_parse(struct limit_grid *g, bool photodiode, int argc, char **argv)
{
	const char *protocols = photodiode ? "nec,rc5,sony12" : "nec,rc5,rc6_0,sony12,jvc,sanyo,rcmm32";
	const char *rates = photodiode ? "44100,48000,96000,192000" : "16000,44100,48000,96000";
	const char *taus = photodiode ? "5" : "1,5,0";
	/* the issue's -2..30 dB, and below: where the genie reaches 95 % */
	const char *snrs = photodiode ? "-9,-6,-3,0,3,6,10,15,20,30" : "-6,-4,-2,0,2,4,6,10,20,30";
	bool full = false;

	memset(g, 0, sizeof(*g));
	g->photodiode = photodiode;
	g->codec_filter = true;
	g->frames = 100;
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(arg, "--full")) {
			full = true;
			continue;
		}
		if (!strcmp(arg, "--markdown")) {
			g->markdown = true;
			continue;
		}
		if (!val)
			goto bad;
		i++;
		if (!strcmp(arg, "--frames"))
			g->frames = (unsigned)atoi(val);
		else if (!strcmp(arg, "--protocols"))
			protocols = val;
		else if (!strcmp(arg, "--rates"))
			rates = val;
		else if (!strcmp(arg, "--taus"))
			taus = val;
		else if (!strcmp(arg, "--snr"))
			snrs = val;
		else if (!strcmp(arg, "--stretch"))
			g->stretch_us = atof(val);
		else if (!strcmp(arg, "--aa") && (!strcmp(val, "codec") || !strcmp(val, "short")))
			g->codec_filter = val[0] == 'c';
		else
			goto bad;
	}
	g->n_protocols = parse_protocols(protocols, g->protocols);
	g->n_rates = bench_parse_numbers(rates, g->rates, MAX_AXIS);
	g->n_taus = bench_parse_numbers(taus, g->taus, MAX_AXIS);
	g->n_snrs = bench_parse_numbers(snrs, g->snrs, MAX_AXIS);
	if (full) {
		g->n_snrs = full_snrs(g->snrs, photodiode);
		g->frames = g->frames == 100 ? 200 : g->frames;
	}
	if (g->n_protocols && g->n_rates && g->n_taus && g->n_snrs && g->frames)
		return 0;
bad:
	fputs(usage, stderr);
	return -1;
}

/* One point: receiver module or photodiode, random polarity, hum at 2 % of
 * the step, SNR as the README defines it (σ per sample, against the step,
 * for a photodiode the light's peak). */
static struct limit_cell limit_point(const struct limit_grid *g, enum ir_protocol p, double rate,
				     double tau_ms, double snr, uint64_t seed)
{
	const struct ir_protocol_info *info = ir_protocol_get(p);
	struct audio_trial t = { .protocol = p, .frames = g->frames, .seed = seed, .genie = true };
	struct audio_result r;
	struct limit_cell c = { -1, -1 };

	ir_channel_config_default(&t.channel);
	t.channel.sample_rate = (unsigned)rate;
	t.channel.ac_tau_ms = tau_ms;
	t.channel.snr_db = snr;
	t.channel.hum_hz = 50;
	t.channel.hum_level = 0.02;
	t.channel.invert = (seed >> 3) & 1;
	t.channel.seed = seed;
	t.channel.stretch_us = g->stretch_us;
	if (g->photodiode) {
		t.channel.frontend = IR_FRONTEND_PHOTODIODE;
		t.channel.codec_filter = g->codec_filter;
		if (info->carrier_hz)
			t.channel.carrier_hz = info->carrier_hz;
		if (info->duty_cycle)
			t.channel.duty_cycle = info->duty_cycle;
	}
	if (audio_trial_run(&t, &r) < 0 || r.sent == 0)
		return c;
	c.ours = 100.0 * r.matched / r.sent;
	c.genie = 100.0 * r.genie_matched / r.sent;
	return c;
}

/* Index of a point in the grid's results. */
static size_t at(const struct limit_grid *g, size_t p, size_t k, size_t s, size_t r)
{
	return ((p * g->n_taus + k) * g->n_snrs + s) * g->n_rates + r;
}

/* Can p run at this rate at all?  Its unit must span 4 sample periods (the
 * README's limit); points that cannot are shown but left out of means. */
static bool supported(enum ir_protocol p, double rate)
{
	return ir_protocol_get(p)->unit_us * rate >= 4e6;
}

static const char *tau_name(double tau, char *buf, size_t len)
{
	if (tau <= 0)
		return "DC";
	snprintf(buf, len, "%gms", tau);
	return buf;
}

/* Runs every point, printing one row per protocol × tau × SNR. */
static void run_grid(const struct limit_grid *g, struct limit_cell *v)
{
	char tb[16];

	printf("  %-8s %-5s %6s", "protocol", "tau", "SNR dB");
	for (size_t r = 0; r < g->n_rates; r++)
		printf("  %13g", g->rates[r]);
	printf("\n");
	for (size_t p = 0; p < g->n_protocols; p++)
		for (size_t k = 0; k < g->n_taus; k++)
			for (size_t s = 0; s < g->n_snrs; s++) {
				printf("  %-8s %-5s %6.1f", ir_protocol_get(g->protocols[p])->name,
				       tau_name(g->taus[k], tb, sizeof(tb)), g->snrs[s]);
				for (size_t r = 0; r < g->n_rates; r++) {
					uint64_t seed = (uint64_t)g->protocols[p] * 7919 + k * 131 +
							r * 17 + (uint64_t)(g->snrs[s] * 10 + 100) * 1009 +
							(g->photodiode ? 500009 : 0);
					struct limit_cell *c = &v[at(g, p, k, s, r)];

					*c = limit_point(g, g->protocols[p], g->rates[r], g->taus[k],
							 g->snrs[s], seed);
					printf("  %5.1f / %5.1f", c->ours, c->genie);
					fflush(stdout);
				}
				printf("\n");
			}
}

/* The SNR at which `succ` (one value per g->snrs, ascending SNR) first
 * reaches `target` %, interpolated linearly in dB; NAN if never, -INFINITY
 * if already at the lowest SNR. */
static double snr_at(const struct limit_grid *g, const double *succ, double target)
{
	for (size_t s = 0; s < g->n_snrs; s++) {
		if (succ[s] < target)
			continue;
		if (s == 0)
			return -INFINITY;
		return g->snrs[s - 1] + (g->snrs[s] - g->snrs[s - 1]) * (target - succ[s - 1]) /
						 (succ[s] - succ[s - 1]);
	}
	return NAN;
}

static void print_snr(const struct limit_grid *g, double db)
{
	if (isnan(db))
		printf("   never");
	else if (isinf(db))
		printf("  <=%4.0f", g->snrs[0]);
	else
		printf("  %6.1f", db);
}

/* irjack's distance from the genie, dB; a lower bound (">") when the
 * genie was there already at the lowest SNR run. */
static void print_gap(const struct limit_grid *g, double ours, double genie)
{
	char buf[16];

	if (isfinite(ours) && isfinite(genie))
		snprintf(buf, sizeof(buf), "%.1f", ours - genie);
	else if (isfinite(ours) && isinf(genie))
		snprintf(buf, sizeof(buf), ">%.1f", ours - g->snrs[0]);
	else
		snprintf(buf, sizeof(buf), "-");
	printf("  %6s", buf);
}

/* Per protocol × tau × rate: the SNR at which irjack and the genie reach
 * 95 % and 99.5 %, and irjack's distance from the genie in dB. */
static void print_thresholds(const struct limit_grid *g, const struct limit_cell *v)
{
	static const double targets[] = { 95, 99.5 };
	char tb[16];

	printf("SNR (dB) where a point first reaches 95 %% / 99.5 %%: irjack, genie, gap "
	       "(\"never\": not within the SNRs run)\n");
	printf("  %-8s %-5s %8s %6s %8s %8s %8s %8s %8s %8s\n", "protocol", "tau", "rate", "", "95:irj",
	       "genie", "gap", "99.5:irj", "genie", "gap");
	for (size_t p = 0; p < g->n_protocols; p++)
		for (size_t k = 0; k < g->n_taus; k++)
			for (size_t r = 0; r < g->n_rates; r++) {
				double ours[MAX_AXIS], genie[MAX_AXIS];

				for (size_t s = 0; s < g->n_snrs; s++) {
					ours[s] = v[at(g, p, k, s, r)].ours;
					genie[s] = v[at(g, p, k, s, r)].genie;
				}
				printf("  %-8s %-5s %8g %6s", ir_protocol_get(g->protocols[p])->name,
				       tau_name(g->taus[k], tb, sizeof(tb)), g->rates[r],
				       supported(g->protocols[p], g->rates[r]) ? "" : "(n/a)");
				for (size_t i = 0; i < 2; i++) {
					double a = snr_at(g, ours, targets[i]), b = snr_at(g, genie, targets[i]);

					print_snr(g, a);
					print_snr(g, b);
					print_gap(g, a, b);
				}
				printf("\n");
			}
}

/* Mean (and irjack's worst) over the protocols and taus a rate supports. */
static void summary_at(const struct limit_grid *g, const struct limit_cell *v, size_t s, size_t r,
		       double *ours, double *genie, double *worst)
{
	unsigned n = 0;

	*ours = *genie = 0;
	*worst = 100;
	for (size_t p = 0; p < g->n_protocols; p++)
		for (size_t k = 0; k < g->n_taus; k++) {
			const struct limit_cell *c = &v[at(g, p, k, s, r)];

			if (!supported(g->protocols[p], g->rates[r]) || c->ours < 0)
				continue;
			*ours += c->ours;
			*genie += c->genie;
			*worst = c->ours < *worst ? c->ours : *worst;
			n++;
		}
	if (n) {
		*ours /= n;
		*genie /= n;
	} else {
		*ours = *genie = *worst = -1;
	}
}

static void print_summary(const struct limit_grid *g, const struct limit_cell *v)
{
	printf("Summary per SNR x rate: mean irjack %% / mean genie %% [irjack's worst point] over "
	       "the protocols and taus above (a protocol whose unit is under 4 samples left out)\n");
	printf("  %6s", "SNR dB");
	for (size_t r = 0; r < g->n_rates; r++)
		printf("  %21g", g->rates[r]);
	printf("\n");
	for (size_t s = 0; s < g->n_snrs; s++) {
		printf("  %6.1f", g->snrs[s]);
		for (size_t r = 0; r < g->n_rates; r++) {
			double ours, genie, worst;

			summary_at(g, v, s, r, &ours, &genie, &worst);
			printf("  %5.1f / %5.1f [%5.1f]", ours, genie, worst);
		}
		printf("\n");
	}
}

static void print_rate_heading(double rate)
{
	if (fmod(rate, 1000) == 0)
		printf(" %.0f kHz |", rate / 1000);
	else
		printf(" %.1f kHz |", rate / 1000);
}

/* The summary as README rows: "irjack % (genie %)" per rate. */
static void print_markdown(const struct limit_grid *g, const struct limit_cell *v)
{
	printf("\nREADME rows (%s, %u frames per point; irjack's mean over the protocols and "
	       "taus (the genie bound's), then irjack's worst point):\n\n",
	       g->photodiode ? "bare photodiode" : "receiver module", g->frames);
	printf("| README SNR |");
	for (size_t r = 0; r < g->n_rates; r++)
		print_rate_heading(g->rates[r]);
	printf("\n|---|");
	for (size_t r = 0; r < g->n_rates; r++)
		printf("---|");
	printf("\n");
	for (size_t s = 0; s < g->n_snrs; s++) {
		printf("| %g dB |", g->snrs[s]);
		for (size_t r = 0; r < g->n_rates; r++) {
			double ours, genie, worst;

			summary_at(g, v, s, r, &ours, &genie, &worst);
			printf(" %.1f %% (%.1f %%), %.0f %% |", ours, genie, worst);
		}
		printf("\n");
	}
}

int bench_limit_main(int argc, char **argv, bool photodiode)
{
	struct limit_grid g;
	struct limit_cell *v;

	if (grid_parse(&g, photodiode, argc, argv) < 0)
		return 2;
	v = calloc(g.n_protocols * g.n_taus * g.n_snrs * g.n_rates, sizeof(*v));
	if (!v)
		return 1;
	if (photodiode)
		printf("Frame success, irjack %% / genie-aided bound %% (bare photodiode on the mic "
		       "input, the protocol's carrier and duty cycle, %s anti-alias filter, random "
		       "polarity, hum 2 %%, %u frames per point; SNR against the light's peak)\n",
		       g.codec_filter ? "codec's steep" : "short", g.frames);
	else
		printf("Frame success, irjack %% / genie-aided bound %% (receiver module, random "
		       "polarity, hum 2 %%, %u frames per point)\n",
		       g.frames);
	if (g.stretch_us != 0)
		printf("Receiver stretch: every mark %+g us (the space after %+g us)\n", g.stretch_us,
		       -g.stretch_us);
	run_grid(&g, v);
	print_thresholds(&g, v);
	print_summary(&g, v);
	if (g.markdown)
		print_markdown(&g, v);
	free(v);
	return 0;
}
