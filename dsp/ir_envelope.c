/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_envelope.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The lowest rate whose Nyquist frequency is above a 30 kHz carrier with
 * room for a codec's transition band (as ir_carrier.h). */
#define ENV_MIN_RATE 66000u
/* The mixers: the carriers remotes use (RC-5/RC-6/RC-MM 36 kHz, NEC and
 * most others 38, Sony 40, some 30/33 and 56 kHz), where the rate's
 * passband holds them (a codec passes up to 0.4535 × rate). */
static const double env_carriers_hz[] = { 30000, 33000, 36000, 38000, 40000, 56000 };
#define ENV_CHANNELS (sizeof(env_carriers_hz) / sizeof(env_carriers_hz[0]))
/* The mixers run in ENV_LANES lanes, unused ones idle (a fixed count the
 * compiler turns into whole vector operations: the bank costs at 192 kHz
 * about a third of what a loop over the channels in use did). */
#define ENV_LANES 8
_Static_assert(ENV_CHANNELS <= ENV_LANES, "a lane per mixer");
#define ENV_PASSBAND 0.45
/* Each mixer's low-pass: two one-pole sections of ENV_BAND_US.  The noise
 * it lets into the magnitude is what a non-coherent detector pays for (the
 * narrower, the less), while a 444 µs unit (RC-6, the shortest of the
 * photodiode protocols but RC-MM) must keep its height and a carrier 1 kHz
 * off its mixer (the bank is 2-3 kHz apart) must pass: 50 µs keeps 91 %
 * of it and settles within 250 µs. */
#define ENV_BAND_US 50.0
/* The fundamental's weight beside the input's mean.  Maximal-ratio
 * combining of the mean (A·D, noise σ²) and the fundamental's half
 * amplitude (A sin(πD)/π, noise σ²/2 per quadrature component) gives
 * 2 sin(πD)/(πD): 1.65 at the usual D = 1/3.  But the detector sees the
 * magnitude, whose noise in the dark is a Rayleigh's (ENV_RAYLEIGH of a
 * component's variance) and whose rise at the SNRs that matter is less
 * than the amplitude: weights from 2.2 to 3.5 did better than 1.65
 * (bench_audio photodiode at 96/192 kHz, 0/3/6 dB, 60 frames a point: the
 * six means summed 383-393 against 359), 2.2 the best of them. */
#define ENV_WEIGHT 2.2
#define ENV_RAYLEIGH 0.429 /* 2 - π/2 */
/* What is added is low-passed: its noise adds to the input's below the
 * band (W² · ENV_RAYLEIGH / 2 of it) but not to the fast sample-to-sample
 * noise the demodulator measures its floor on (and that its sequence
 * detector takes as white).  So the input's fastest part, above
 * ENV_SPLIT_US (x - a one-pole low-pass of x), is scaled by
 * sqrt(1 + W² · ENV_RAYLEIGH / 2): the noise the demodulator measures is
 * again about the level that holds within a unit.  The split is well
 * above the band a unit's energy lies in (a 560 µs unit: under 4 kHz):
 * scaling the input from the mixers' 50 µs band up, as was done, also
 * scaled the input's noise inside the units' band, where it adds to the
 * decision, for nothing (bench_audio photodiode, 200 frames a point, 96 /
 * 192 kHz: 0 dB 18.2 / 87.3 -> 24.5 / 90.3 %, 3 dB 85.8 / 99.5 ->
 * 87.5 / 98.8 %; a unit's lit-dark separation at 96 kHz 0 dB, in σ of
 * the unit's mean: 4.45 -> about 4.75, the mean and fundamental combined
 * with the phase known would give 5.25). */
#define ENV_SPLIT_US 10.0
/* The added magnitude comes out of two one-pole sections of ENV_BAND_US:
 * it reaches half of a burst's step 1.68 band-widths (84 µs) after the
 * input's own step does (1 - e^-t (1 + t) = 1/2 at t = 1.68), so the
 * demodulator saw each edge as two half-steps that far apart, and a unit
 * next to an edge lost part of the magnitude's half to its neighbour.  The
 * input is delayed as much before the two are added (bench_audio
 * photodiode, 100 frames a point, mean of nec/rc5/sony12: 96 kHz 0 dB
 * 54.7 -> 58.0 %, 192 kHz -3 dB 56.0 -> 65.3 %, 0 dB 94.0 -> 95.3 %; a
 * unit's lit-dark separation at 96 kHz 0 dB 4.74 -> 4.84 σ, the mean and
 * fundamental with the phase known 5.0). */
#define ENV_ALIGN_BANDS 1.68
#define ENV_ALIGN_MAX 128 /* samples; 84 µs is 84 of them at the 1 MHz the rate may reach */
/* Once a mixer is in use, its I/Q is projected onto a slow average of
 * itself rather than taken as a magnitude: within a burst the carrier's
 * phase is fixed, so the average (a one-pole of ENV_COHERENT_US) knows it
 * once part of a burst has been seen, and the projection keeps only the
 * noise in phase with the carrier (a coherent detector: linear in the
 * carrier, no small-signal suppression, the lit output's noise no longer
 * the magnitude's Rician excess), while the edges keep the mixer's speed
 * (the average sets the phase, not the band; no added delay).  With
 * ENV_OFFSET_MS and ENV_FORGET_US: bench_audio photodiode, mean of
 * nec/rc5/sony12, 100 frames a point, 96 kHz -3/0/3 dB 3.0/71.3/94.7 ->
 * 5.7/76.0/96.0 %, 192 kHz -6/-3 dB 4.3/71.3 -> 8.0/75.7 %.  The
 * reference's length, nec/rc5/sony12 at 96/192 kHz, -3/0 dB (frames of
 * 1200; the magnitude 736): 100 µs 768, 200 µs 783, 500 µs 741 (the
 * carrier's phase restarts with each burst: see ENV_FORGET_US). */
#define ENV_COHERENT_US 200.0
/* A carrier off its mixer (up to ~1 kHz: the bank is 2-3 kHz apart;
 * Panasonic's 36.7 kHz on the 36 kHz mixer) turns the phasor, and the
 * slow average lags it (atan(2π Δf τ): 51° at 1 kHz, 200 µs).  So the
 * reference is turned each sample by the phasor's own mean turn (the
 * average of ref_n · conj(ref_{n-1}) over ENV_OFFSET_MS, weighted by the
 * reference's power, so lit samples rule it): a 560 µs unit's lit-dark
 * separation inside runs at 96 kHz 0 dB, carrier 37 kHz, 6.95 σ
 * (magnitude) -> 5.44 (projection, unturned) -> 7.43; at 38 kHz 7.20 ->
 * 7.59 either way (a trace); test_photodiode_envelope's 250 µs units
 * at 37 kHz: 2.91 dB over the light's mean -> 1.74 unturned -> 2.82. */
#define ENV_OFFSET_MS 5.0
/* A remote's carrier starts afresh with each burst (a gated oscillator:
 * the model's too), so the reference a burst leaves behind holds the wrong
 * phase for the next one, and 200 µs of it outlast the short spaces of
 * RC-MM (277 µs on) and RC-6 (444 µs): the next burst's projection first
 * fights it.  Once the reference's power is under the magnitude's mean
 * (the burst is over; a lit reference sits well above it), it forgets at
 * ENV_FORGET_US instead.  bench_audio photodiode, 100 frames a point,
 * 192 kHz: rc6_0 3/6 dB 96/99 (magnitude) -> 91/97 (projection) ->
 * 95/99 %, rcmm32 6/10 dB 99/99 -> 95/98 -> 97/99 %; nec/rc5/sony12 at
 * 96/192 kHz -3/0 dB 736 -> 779 -> 773 frames of 1200.  50 µs: the short
 * units as well, but 760 of 1200 (a 50 µs reference is noisy at the
 * start of every burst); the same forgetting keyed on the mixer's own
 * magnitude per sample (not the reference's): rcmm32 96 kHz 3 dB 29 -> 19. */
#define ENV_FORGET_US 100.0
/* Where the rate passes the carrier's second harmonic (2 f under
 * ENV_PASSBAND × rate: 192 kHz for every mixer but 56 kHz), it is mixed
 * and projected too: a gated carrier's pulses (light on for D of each
 * period, from the burst's start) put harmonic k at k times the
 * fundamental's phase, amplitude sin(πkD)/(πk), so the reference squared
 * (its phase doubled) is the harmonic's own, known once the fundamental's
 * is, and its projection's noise (another band's) is independent of the
 * fundamental's.  Maximal-ratio weight beside the fundamental: the ratio
 * of their amplitudes, sin(2πD) / (2 sin(πD)) = cos(πD): 0.5 at D = 1/3,
 * 0.71 at RC-5's 25 %; the energy it adds: +0.6 dB at 1/3, +1.2 dB at
 * 25 % (what the genie has at 192 kHz and the projection left out).
 * A unit's lit-dark separation at 192 kHz -3 dB (test_envelope_harmonic):
 * 33 % 3.92 -> 4.39 dB over the light's mean, 25 % 3.93 -> 4.75; bench_audio
 * photodiode (nec/rc5/sony12, 100 frames a point), 192 kHz -6 / -3 / 0 dB
 * 8.0 / 77.0 / 97.3 -> 12.0 / 82.3 / 98.0 %, rc6_0 -3 / 0 dB 24 / 89 ->
 * 35 / 93 %, rcmm32 0 / 3 dB 6 / 89 -> 10 / 92 %; 96 kHz and below as
 * before (no harmonic passes).
 * bench_audio photodiode --rates 192000 --snr -6,-3 (nec/rc5/sony12,
 * -6/-3 dB): weight 0 (main) 6/84, 0/71, 21/80 %; 0.35: 15/86, 0/85,
 * 26/81; 0.5: 13/86, 0/85, 20/83; 0.6: 11/83, 0/83, 20/80; 0.7: 9/80,
 * 0/82, 19/83 (within the points' scatter from 0.35 to 0.5; the
 * harmonic's projection pays twice the reference's phase error, which
 * favours the lower end).  With the fast part's gain left as it was (the
 * harmonic's noise not in it), rc6_0 (36 kHz, 25 %) lost at 192 kHz 3 /
 * 10 dB 96 / 100 -> 91 / 95 %: the detector took the noise for less than
 * it was; the gain raised by the harmonic's share (switch_when_quiet()),
 * 95 / 100, and nec/rc5/sony12 -6/-3 dB 10/88, 0/85, 20/82. */
#define ENV_HARMONIC 0.5
/* The low-passes settle within this many time constants (1e-4 left). */
#define ENV_SETTLE_BANDS 12.0
/* Carrier detection: the correlation of each mixer's magnitude with the
 * low-passed input over ENV_STAT_MS, updated every ENV_STAT_US
 * (the low-passes keep nothing faster).  Noise alone reads |ρ| ≈ 0.04
 * (about 600 independent samples in 100 ms of a 3 kHz band); a photodiode's
 * frames read 0.2 at -6 dB SNR and more above. */
#define ENV_STAT_US 80.0
#define ENV_STAT_MS 100.0
#define ENV_RHO_ON 0.25
/* ...and the magnitude must move with the input's level by at least
 * ENV_BETA_ON of it (the regression slope cov / var): a receiver module's
 * edges put a short broadband blip into every mixer's magnitude, which
 * correlates with the level (ρ up to 0.35 at 30 dB) but moves it by 0.035
 * at most (every module trial of the limit bench); a photodiode's carrier
 * moves it by 0.83 of the mean's step (at D = 1/3), 0.08-0.2 once the
 * level's own noise dilutes the slope at 0 to -6 dB. */
#define ENV_BETA_ON 0.07
/* A second, short window for the first lock: the long one is diluted by
 * the idle time between key presses (a 25 ms frame in a 100 ms window is
 * outweighed by the noise of the rest), so a carrier at a low duty took
 * long to lock (RC-5, 36 kHz at 25 %, bench_audio photodiode at 96 kHz
 * 0 dB: 3.65 s, 12 of 100 frames lost before it).  ENV_FRAME_MS holds one
 * frame (RC-5 25 ms, Sony 17-27 ms).  Its correlation on noise alone
 * scatters more (σ about 0.06 at 96 kHz: the largest of 1000 readings
 * over 10 s of a receiver module's line at 0 dB was 0.18), so its bar is
 * higher, 0.40.  A receiver module's edge blips read up to 0.44 in it
 * (30 dB: the level's variance is all steps there) but move the magnitude
 * by 0.02-0.09 of the level, a photodiode's carrier at 0 dB by 0.20-0.27:
 * the slope's bar is 0.12.  (bench_audio photodiode, 96 kHz 0 dB: rc5
 * 48 -> 56 %; bars of 0.30 and 0.35 gave the same.) */
#define ENV_FRAME_MS 25.0
#define ENV_RHO_FRAME_ON 0.40
#define ENV_BETA_FRAME_ON 0.12
/* Another mixer takes over only when its magnitude moves this much more
 * with the level (a remote with another carrier): no flapping between
 * neighbours that both see a carrier between them. */
#define ENV_SWITCH 1.5
/* The magnitude's dark level, taken off so the output idles where the
 * input does, moves this slowly (from samples under the magnitude's mean):
 * much slower than any frame, so the demodulator's baseline follows it as
 * it follows AC-coupling drift. */
#define ENV_MEAN_MS 1000.0
/* See switch_when_quiet(): longer than any space inside a frame (NEC's
 * 4.5 ms header space, RC-MM's and Sony's gaps are shorter). */
#define ENV_QUIET_MS 20.0
#define ENV_QUIET_SMOOTH_MS 1.0
#define ENV_RENORM_EVERY 1024u

/* Moving averages of the input's level, each mixer's magnitude, their
 * variances and covariances over one window (see update_stats()): the
 * long window's in double, the frame window's in float lanes (vector
 * operations over the bank: on a receiver module's line at 96 kHz, where
 * it runs for good, it adds 5 instructions a sample; in doubles, 27). */
struct env_window {
	double a;                   /* the moving averages' coefficient */
	unsigned long long warm;    /* updates before they move (plain averages until then) */
	double l_mean, l_var;
	double m_mean[ENV_CHANNELS], m_var[ENV_CHANNELS], cov[ENV_CHANNELS];
};

struct env_frame_window {
	float a;
	unsigned long long warm;
	float l_mean, l_var;
	float m_mean[ENV_LANES], m_var[ENV_LANES], cov[ENV_LANES];
};

struct ir_envelope {
	unsigned rate, channels;
	float g;                          /* the low-pass sections' coefficient */
	/* per mixer: oscillator (c, s), its step (cw, sw), I and Q low-passes */
	float c[ENV_LANES], s[ENV_LANES], cw[ENV_LANES], sw[ENV_LANES];
	float i1[ENV_LANES], i2[ENV_LANES], q1[ENV_LANES], q2[ENV_LANES];
	float l1, l2;                     /* the input's own low-pass */
	float s1, gs;                     /* the split's low-pass (ENV_SPLIT_US), its coefficient */
	/* statistics (every stat_every samples: ENV_STAT_US), over
	 * ENV_STAT_MS and over ENV_FRAME_MS */
	unsigned stat_every;
	struct env_window slow;
	struct env_frame_window frame;
	double a_ref;                     /* m_ref's, per sample */
	unsigned long long n, stats;      /* samples, statistics updates */
	unsigned long long settle;        /* samples before the first update */
	int chan;                         /* the mixer in use; -1 while none */
	float sign;
	int pending;                      /* the mixer chosen, until quiet; -1: none */
	float pending_sign;
	unsigned long long quiet, quiet_n; /* quiet updates, and how many it takes */
	double m_smooth, a_smooth;        /* its magnitude smoothed, and the coefficient */
	double m_ref;                     /* the used magnitude's dark level */
	float hf; /* the input's fast part's gain (see ENV_WEIGHT) */
	/* the used mixer's phase reference (ENV_COHERENT_US) and its mean
	 * turn per sample (ENV_OFFSET_MS), with their coefficients */
	double ref_i, ref_q, a_coh;
	double turn_re, turn_im, a_turn;
	double turn_c, turn_s;            /* the turn as a unit phasor (update_coherent()) */
	double ref_pow, forget_below, a_forget; /* |ref|², the power it forgets under, and how fast */
	/* the second harmonic's mixer once a mixer is in use (ENV_HARMONIC);
	 * harmonic: whether the rate passes it */
	float h_i1, h_i2, h_q1, h_q2;
	bool harmonic;
	/* the input's last `delay` samples once a mixer is in use, oldest at
	 * `at` (ENV_ALIGN_BANDS) */
	float past[ENV_ALIGN_MAX];
	unsigned delay, at;
};

static void window_init(struct env_window *w, double ms, unsigned every, unsigned rate)
{
	w->a = 1 - exp(-(double)every / (ms * 1e-3 * rate));
	w->warm = (unsigned long long)(ms * 1e-3 * rate / every);
}

static void window_clear(struct env_window *w)
{
	w->l_mean = w->l_var = 0;
	for (unsigned k = 0; k < ENV_CHANNELS; k++)
		w->m_mean[k] = w->m_var[k] = w->cov[k] = 0;
}

int ir_envelope_new(unsigned sample_rate, struct ir_envelope **out)
{
	struct ir_envelope *e;

	if (!out || sample_rate < ENV_MIN_RATE || sample_rate > 1000000)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->rate = sample_rate;
	for (size_t k = 0; k < ENV_CHANNELS; k++) {
		double w = 2 * M_PI * env_carriers_hz[k] / sample_rate;

		if (env_carriers_hz[k] > ENV_PASSBAND * sample_rate)
			break;
		e->cw[k] = (float)cos(w);
		e->sw[k] = (float)sin(w);
		e->channels++;
	}
	e->g = (float)(1 - exp(-1e6 / sample_rate / ENV_BAND_US));
	e->hf = (float)sqrt(1 + ENV_WEIGHT * ENV_WEIGHT * ENV_RAYLEIGH / 2);
	e->gs = (float)(1 - exp(-1e6 / sample_rate / ENV_SPLIT_US));
	e->stat_every = (unsigned)(ENV_STAT_US * 1e-6 * sample_rate);
	window_init(&e->slow, ENV_STAT_MS, e->stat_every, sample_rate);
	e->frame.a = (float)(1 - exp(-(double)e->stat_every / (ENV_FRAME_MS * 1e-3 * sample_rate)));
	e->frame.warm = (unsigned long long)(ENV_FRAME_MS * 1e-3 * sample_rate / e->stat_every);
	e->a_ref = 1 - exp(-1.0 / (ENV_MEAN_MS * 1e-3 * sample_rate));
	e->a_coh = 1 - exp(-1e6 / sample_rate / ENV_COHERENT_US);
	e->a_turn = 1 - exp(-1.0 / (ENV_OFFSET_MS * 1e-3 * sample_rate));
	e->a_forget = 1 - exp(-1e6 / sample_rate / ENV_FORGET_US);
	e->quiet_n = (unsigned long long)(ENV_QUIET_MS * 1e-3 * sample_rate / e->stat_every);
	e->a_smooth = 1 - exp(-(double)e->stat_every / (ENV_QUIET_SMOOTH_MS * 1e-3 * sample_rate));
	e->settle = (unsigned long long)(ENV_SETTLE_BANDS * ENV_BAND_US * 1e-6 * sample_rate);
	e->delay = (unsigned)lround(ENV_ALIGN_BANDS * ENV_BAND_US * 1e-6 * sample_rate);
	if (e->delay < 1)
		e->delay = 1;
	if (e->delay > ENV_ALIGN_MAX)
		e->delay = ENV_ALIGN_MAX;
	ir_envelope_reset(e);
	*out = e;
	return 0;
}

void ir_envelope_free(struct ir_envelope *e)
{
	free(e);
}

void ir_envelope_reset(struct ir_envelope *e)
{
	for (unsigned k = 0; k < e->channels; k++) {
		e->c[k] = 1;
		e->s[k] = 0;
		e->i1[k] = e->i2[k] = e->q1[k] = e->q2[k] = 0;
	}
	window_clear(&e->slow);
	memset(&e->frame.l_mean, 0, sizeof(e->frame) - offsetof(struct env_frame_window, l_mean));
	e->l1 = e->l2 = 0;
	e->n = e->stats = 0;
	e->chan = e->pending = -1;
	e->sign = 0;
	e->quiet = 0;
	e->ref_i = e->ref_q = e->turn_re = e->turn_im = e->turn_s = 0;
	e->ref_pow = e->forget_below = 0;
	e->turn_c = 1;
}

bool ir_envelope_active(const struct ir_envelope *e, double *hz)
{
	if (e->chan < 0)
		return false;
	if (hz)
		*hz = env_carriers_hz[e->chan];
	return true;
}

/* Keeps the oscillators on the unit circle (float rotation drifts). */
static void renormalize(struct ir_envelope *e)
{
	for (unsigned k = 0; k < e->channels; k++) {
		float r2 = e->c[k] * e->c[k] + e->s[k] * e->s[k];
		float f = (3 - r2) / 2;

		e->c[k] *= f;
		e->s[k] *= f;
	}
}

static void switch_when_quiet(struct ir_envelope *e, double m);

/* The correlation of mixer k's magnitude with the input's level. */
static double rho(const struct env_window *w, unsigned k)
{
	double v = w->l_var * w->m_var[k];

	return v > 0 ? fabs(w->cov[k]) / sqrt(v) : 0;
}

/* Whether mixer k's magnitude follows the level in window w: correlated
 * by at least rho_on, moved by at least beta_on of it. */
static bool window_passes(const struct env_window *w, unsigned k, double rho_on, double beta_on)
{
	return rho(w, k) >= rho_on && fabs(w->cov[k]) >= beta_on * w->l_var;
}

/* Adds update number `stats` (the level l, the magnitudes m) to window w;
 * returns the mixer whose magnitude moves most with the level (the
 * largest covariance: the mixer nearest the carrier passes most of it;
 * the correlations of neighbours come close, as a strong carrier
 * saturates them all). */
static unsigned window_update(struct env_window *w, unsigned long long stats, unsigned channels,
			      double l, const double *m)
{
	/* plain averages until there are as many updates as the averaging
	 * time holds, then moving ones: averages seeded from the first values
	 * and decaying together would read as a correlation */
	double a = stats < w->warm ? 1.0 / (double)(stats + 1) : w->a;
	double dl = l - w->l_mean;
	unsigned best = 0;

	w->l_mean += a * dl;
	w->l_var += a * (dl * dl - w->l_var);
	for (unsigned k = 0; k < channels; k++) {
		double dm = m[k] - w->m_mean[k];

		w->m_mean[k] += a * dm;
		w->m_var[k] += a * (dm * dm - w->m_var[k]);
		w->cov[k] += a * (dl * dm - w->cov[k]);
		if (fabs(w->cov[k]) > fabs(w->cov[best]))
			best = k;
	}
	return best;
}

/* Adds update number `stats` to the frame window (as window_update());
 * returns the mixer whose magnitude moves most with the level, and
 * whether it passes the frame's bars (ENV_RHO_FRAME_ON, ENV_BETA_FRAME_ON). */
static bool frame_update(struct env_frame_window *w, unsigned long long stats, unsigned channels,
			 float l, const float *m, unsigned *best)
{
	float a = stats < w->warm ? 1.0f / (float)(stats + 1) : w->a;
	float dl = l - w->l_mean;
	float v;
	unsigned b = 0;

	w->l_mean += a * dl;
	w->l_var += a * (dl * dl - w->l_var);
	for (unsigned k = 0; k < ENV_LANES; k++) {
		float dm = m[k] - w->m_mean[k];

		w->m_mean[k] += a * dm;
		w->m_var[k] += a * (dm * dm - w->m_var[k]);
		w->cov[k] += a * (dl * dm - w->cov[k]);
	}
	for (unsigned k = 1; k < channels; k++)
		if (fabsf(w->cov[k]) > fabsf(w->cov[b]))
			b = k;
	*best = b;
	v = w->l_var * w->m_var[b];
	return v > 0 && fabsf(w->cov[b]) >= (float)ENV_RHO_FRAME_ON * sqrtf(v) &&
	       fabsf(w->cov[b]) >= (float)ENV_BETA_FRAME_ON * w->l_var;
}

/* Mixer k (the light's sign on the input: cov's) to be used from the
 * next quiet moment on. */
static void choose(struct ir_envelope *e, unsigned k, double cov)
{
	if (e->pending == (int)k)
		return;
	e->pending = (int)k;
	e->pending_sign = cov > 0 ? 1.0f : -1.0f;
	e->quiet = 0;
	e->m_smooth = e->slow.m_mean[k];
}

/* The statistics, and the choice of mixer from them: the long window's
 * best (the first lock, and another carrier later), or for the first
 * lock the frame window's. */
static void update_windows(struct ir_envelope *e)
{
	double m[ENV_CHANNELS];
	float mf[ENV_LANES] = { 0 };
	unsigned best, fbest;
	bool frame_lock;

	for (unsigned k = 0; k < e->channels; k++) {
		m[k] = sqrt((double)e->i2[k] * e->i2[k] + (double)e->q2[k] * e->q2[k]);
		mf[k] = (float)m[k];
	}
	best = window_update(&e->slow, e->stats, e->channels, e->l2, m);
	frame_lock = frame_update(&e->frame, e->stats, e->channels, e->l2, mf, &fbest);
	e->stats++;
	if (e->pending >= 0)
		switch_when_quiet(e, m[e->pending]);
	if (e->stats < e->slow.warm)
		return;
	if (e->chan < 0 && e->pending < 0 && frame_lock) {
		choose(e, fbest, e->frame.cov[fbest]);
		return;
	}
	if ((int)best == e->chan || !window_passes(&e->slow, best, ENV_RHO_ON, ENV_BETA_ON))
		return;
	if (e->chan >= 0 && fabs(e->slow.cov[best]) < ENV_SWITCH * fabs(e->slow.cov[e->chan]))
		return;
	choose(e, best, e->slow.cov[best]);
}

static void update_coherent(struct ir_envelope *e);

static void update_stats(struct ir_envelope *e)
{
	update_windows(e);
	if (e->chan >= 0)
		update_coherent(e);
}

/* A mixer chosen is used from a quiet moment on (its magnitude, smoothed
 * over ENV_QUIET_SMOOTH_MS, under its mean + σ for ENV_QUIET_MS: between
 * frames, where a burst lifts it well over that), its magnitude then the
 * reference: the output goes on from the input without a step, and no
 * frame is cut in two by the change. */
static void switch_when_quiet(struct ir_envelope *e, double m)
{
	unsigned k = (unsigned)e->pending;

	e->m_smooth += e->a_smooth * (m - e->m_smooth);
	if (e->m_smooth > e->slow.m_mean[k] + sqrt(e->slow.m_var[k])) {
		e->quiet = 0;
		return;
	}
	if (++e->quiet < e->quiet_n)
		return;
	e->chan = e->pending;
	e->sign = e->pending_sign;
	e->m_ref = m;
	e->s1 = e->l2; /* the split's low-pass runs only from here on */
	e->harmonic = 2 * env_carriers_hz[e->chan] <= ENV_PASSBAND * e->rate;
	/* the harmonic's projection adds its own noise (one component of its
	 * mixer's, ENV_HARMONIC² of the fundamental's mixer's) below the band:
	 * the fast part's gain grows to match (see ENV_SPLIT_US) */
	e->hf = (float)sqrt(1 + ENV_WEIGHT * ENV_WEIGHT *
				    (ENV_RAYLEIGH + (e->harmonic ? ENV_HARMONIC * ENV_HARMONIC : 0)) / 2);
	e->h_i1 = e->h_i2 = e->h_q1 = e->h_q2 = 0;
	/* the delay line too (nothing to keep on a receiver module's line): it
	 * starts at the level of a quiet moment */
	for (unsigned i = 0; i < e->delay; i++)
		e->past[i] = e->l2;
	e->at = 0;
	e->pending = -1;
}

/* With the statistics (every ENV_STAT_US), what the projection needs of
 * them: the carrier's mean turn per sample as a unit phasor (turn_c,
 * turn_s; its average moves over ENV_OFFSET_MS, so it is normalised here,
 * not every sample: 12 instructions a sample less) and the power under
 * which the reference forgets (ENV_FORGET_US). */
static void update_coherent(struct ir_envelope *e)
{
	double t = sqrt(e->turn_re * e->turn_re + e->turn_im * e->turn_im);

	e->turn_c = t > 0 ? e->turn_re / t : 1;
	e->turn_s = t > 0 ? e->turn_im / t : 0;
	e->forget_below = e->slow.m_mean[e->chan] * e->slow.m_mean[e->chan];
}

/* The used mixer's I/Q (zi, zq) projected onto its phase reference
 * (ENV_COHERENT_US, or ENV_FORGET_US once a burst is over), the reference
 * first turned by the carrier's mean offset from the mixer
 * (ENV_OFFSET_MS). */
static double coherent_level(struct ir_envelope *e, double zi, double zq)
{
	double oi = e->ref_i, oq = e->ref_q;
	/* (the turn keeps the reference's power) */
	double a = e->ref_pow < e->forget_below ? e->a_forget : e->a_coh;
	double r;

	e->ref_i = oi * e->turn_c - oq * e->turn_s;
	e->ref_q = oi * e->turn_s + oq * e->turn_c;
	e->ref_i += a * (zi - e->ref_i);
	e->ref_q += a * (zq - e->ref_q);
	/* the turn from one sample to the next: ref_n · conj(ref_{n-1}) */
	e->turn_re += e->a_turn * ((e->ref_i * oi + e->ref_q * oq) - e->turn_re);
	e->turn_im += e->a_turn * ((e->ref_q * oi - e->ref_i * oq) - e->turn_im);
	e->ref_pow = e->ref_i * e->ref_i + e->ref_q * e->ref_q;
	r = sqrt(e->ref_pow);
	return r > 0 ? (zi * e->ref_i + zq * e->ref_q) / r : 0;
}

/* The used mixer's second harmonic (ENV_HARMONIC): the input mixed at
 * twice the carrier (the bank's oscillator for this sample, squared),
 * low-passed as the mixers are, projected onto the phase reference
 * squared, with the light's sign (the reference's phase doubled does not
 * flip with the input's polarity, the harmonic does). */
static double harmonic_level(struct ir_envelope *e, float x)
{
	unsigned k = (unsigned)e->chan;
	/* the bank's oscillator has moved on: this sample's is one step back */
	float c = e->c[k] * e->cw[k] + e->s[k] * e->sw[k];
	float s = e->s[k] * e->cw[k] - e->c[k] * e->sw[k];
	float fast = x - e->l2, g = e->g;

	e->h_i1 += g * (fast * (c * c - s * s) - e->h_i1);
	e->h_q1 += g * (fast * (2 * c * s) - e->h_q1);
	e->h_i2 += g * (e->h_i1 - e->h_i2);
	e->h_q2 += g * (e->h_q1 - e->h_q2);
	if (e->ref_pow <= 0)
		return 0;
	return e->sign *
	       (e->h_i2 * (e->ref_i * e->ref_i - e->ref_q * e->ref_q) + e->h_q2 * 2 * e->ref_i * e->ref_q) /
	       e->ref_pow;
}

/* The output once a mixer is in use (ENV_ALIGN_BANDS, ENV_WEIGHT).  Kept
 * out of line: inlined, it made ir_envelope_sample() too large to inline
 * into ir_envelope_process(), and a receiver module's line at 96 kHz, which
 * never gets here, paid 23 instructions a sample more (callgrind,
 * bench_audio silence 10 96000: 207.9 -> 230.7). */
static __attribute__((noinline)) float locked_sample(struct ir_envelope *e, float x)
{
	float late = e->past[e->at];
	double m;

	e->past[e->at] = x;
	e->at = e->at + 1 == e->delay ? 0 : e->at + 1;
	m = coherent_level(e, e->i2[e->chan], e->q2[e->chan]);
	if (e->harmonic)
		m += ENV_HARMONIC * harmonic_level(e, x);
	/* the dark level follows slowly, from dark samples only */
	if (m < e->slow.m_mean[e->chan])
		e->m_ref += e->a_ref * (m - e->m_ref);
	e->s1 += e->gs * (late - e->s1);
	return e->s1 + e->hf * (late - e->s1) + e->sign * (float)(ENV_WEIGHT * (m - e->m_ref));
}

float ir_envelope_sample(struct ir_envelope *e, float x)
{
	const float g = e->g;
	float fast;

	if (e->n == 0)
		e->l1 = e->l2 = x; /* the stream starts at whatever level it has */
	e->l1 += g * (x - e->l1);
	e->l2 += g * (e->l1 - e->l2);
	/* The mixers take the input less its low-pass: a level (a receiver
	 * module's, DC-coupled; the light's mean) mixed to the carrier would
	 * leak 0.7 % through the low-pass into every magnitude.  A plain loop
	 * over arrays, which the compiler vectorizes. */
	fast = x - e->l2;
	for (unsigned k = 0; k < ENV_LANES; k++) {
		float c = e->c[k], s = e->s[k];

		e->i1[k] += g * (fast * c - e->i1[k]);
		e->q1[k] += g * (fast * s - e->q1[k]);
		e->i2[k] += g * (e->i1[k] - e->i2[k]);
		e->q2[k] += g * (e->q1[k] - e->q2[k]);
		e->c[k] = c * e->cw[k] - s * e->sw[k];
		e->s[k] = s * e->cw[k] + c * e->sw[k];
	}
	e->n++;
	if (e->n % ENV_RENORM_EVERY == 0)
		renormalize(e);
	/* The statistics start once the low-passes have settled on the
	 * stream's first samples (or the means would be seeded off and both
	 * decay together at the same rate: a correlation of ±1). */
	if (e->n % e->stat_every == 0 && e->n >= e->settle)
		update_stats(e);
	if (e->chan < 0)
		return x;
	return locked_sample(e, x);
}

void ir_envelope_process(struct ir_envelope *e, const float *in, size_t n, size_t stride,
			 float *out)
{
	if (stride == 0)
		stride = 1;
	for (size_t i = 0; i < n; i++)
		out[i] = ir_envelope_sample(e, in[i * stride]);
}
