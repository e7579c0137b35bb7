/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_monitor.c - `irjack monitor`: a live view of a source's signal for
 * setting up the wiring and the mixer: levels, SNR, polarity, carrier,
 * clipping, lost audio and the frames decoded, with advice when the gain
 * is clearly wrong.
 *
 * On a terminal the view is redrawn in place (ANSI, alternate screen) and
 * 'q' quits; otherwise one plain line per update (and per frame), for
 * scripts and tests.
 */
#include <alsa/asoundlib.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ir_frame_format.h"
#include "ir_keymap.h"
#include "ir_receiver.h"
#include "ir_source.h"
#include "ir_time.h"

#define UPDATE_NS 100000000ull  /* 10 Hz: the minimum refresh rate */
#define LAST_FRAMES 8
#define BAR_WIDTH 40
#define BAR_FLOOR_DB (-80.0)    /* a 16-bit input's noise sits near -90 dBFS */
/* A sample this close to full scale is clipped (an S16 card's largest
 * value is 32767/32768 = -0.0003 dBFS). */
#define CLIP_FRACTION 0.0005    /* 0.05 % of samples at full scale: audibly flat tops */
/* Measured on samples/rc5-photodiode-192k.wav with added white noise: the
 * demodulator (edges at 6 sigma) decoded both frames at 20.4 dB, lost one
 * at 17.9 dB and saw no edge at all below that, so "near the noise floor"
 * starts here, well above the 10 dB a slower detector would allow. */
#define SNR_LOW_DB 20.0
/* Raising the gain only helps while there is headroom; a recording peaking
 * near full scale (the NEC mic-jack sample: 17 dB at -0.1 dBFS) has its
 * noise in the signal itself. */
#define HEADROOM_DBFS (-6.0)

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct monitor {
	struct ir_keymap *keymap;
	bool tty;                    /* redraw in place */
	char frames[LAST_FRAMES][160];
	unsigned n_frames;           /* total seen */
	unsigned xrun_events;
	char last_event[160];
	char mixer_hint[400];        /* "ALSA mixer control 'Capture'..." */
	int last_advice;             /* plain mode prints advice when its kind changes */
	double max_peak;             /* the loudest sample so far (headroom) */
};

static void on_frame(void *userdata, const struct ir_frame *frame)
{
	struct monitor *m = userdata;
	struct ir_frame_labels labels = { 0 };
	struct ir_key_binding key;
	char *line = m->frames[m->n_frames % LAST_FRAMES];
	size_t len;

	if (m->keymap && ir_keymap_lookup(m->keymap, frame, &key)) {
		labels.key = key.key;
		labels.remote = key.remote;
	}
	ir_frame_format_text(frame, &labels, line, sizeof(m->frames[0]));
	len = strlen(line);
	if (len && line[len - 1] == '\n')
		line[len - 1] = '\0';
	m->n_frames++;
	if (!m->tty) {
		printf("frame %s\n", line);
		fflush(stdout);
	}
}

static void on_event(void *userdata, enum ir_source_event event, const char *message)
{
	struct monitor *m = userdata;

	if (event == IR_SOURCE_XRUN)
		m->xrun_events++;
	snprintf(m->last_event, sizeof(m->last_event), "%s", message);
	if (!m->tty && event != IR_SOURCE_END) {
		printf("event %s\n", message);
		fflush(stdout);
	}
}

static double dbfs(double level)
{
	return level > 0 ? 20.0 * log10(level) : -INFINITY;
}

/* The ALSA card behind a device name: "hw:1,0", "plughw:CARD=PCH", or
 * PortAudio's "HDA Intel PCH: ALC3246 Analog (hw:0,0)".  Writes "hw:N" or
 * "hw:NAME" into `ctl`; false if the name says nothing about a card. */
static bool card_of_device(const char *device, char *ctl, size_t size)
{
	const char *p = strstr(device, "hw:");
	size_t n = 0;
	char card[32];

	if (!p)
		return false;
	p += 3;
	if (strncmp(p, "CARD=", 5) == 0)
		p += 5;
	while (p[n] && p[n] != ',' && p[n] != ')' && n < sizeof(card) - 1) {
		card[n] = p[n];
		n++;
	}
	card[n] = '\0';
	if (!n)
		return false;
	snprintf(ctl, size, "hw:%s", card);
	return true;
}

/* Names the card's capture volume controls (what alsamixer shows on its
 * Capture page), so that the advice says which one to turn. */
static void find_mixer_controls(const struct ir_source_stats *st, char *hint, size_t size)
{
	snd_mixer_t *mixer = NULL;
	char ctl[80], names[160] = "";
	size_t len = 0;
	unsigned found = 0;

	hint[0] = '\0';
	if (!card_of_device(st->device, ctl, sizeof(ctl)))
		return;
	if (snd_mixer_open(&mixer, 0) < 0)
		return;
	if (snd_mixer_attach(mixer, ctl) < 0 || snd_mixer_selem_register(mixer, NULL, NULL) < 0 ||
	    snd_mixer_load(mixer) < 0) {
		snd_mixer_close(mixer);
		return;
	}
	for (snd_mixer_elem_t *e = snd_mixer_first_elem(mixer); e; e = snd_mixer_elem_next(e)) {
		if (!snd_mixer_selem_is_active(e) || !snd_mixer_selem_has_capture_volume(e))
			continue;
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s'%s'",
						found ? " / " : "", snd_mixer_selem_get_name(e));
		found++;
	}
	snd_mixer_close(mixer);
	if (found)
		snprintf(hint, size, "ALSA mixer control %s on %s — run alsamixer -c %s, F4",
			 names, ctl, ctl + 3);
}

enum advice { ADVICE_NONE, ADVICE_LOWER, ADVICE_RAISE };

/* What to tell the user about the gain, or "" when it looks right. */
static enum advice advise(const struct monitor *m, const struct ir_signal_report *r,
			  bool have_report, char *out, size_t size)
{
	const char *control = m->mixer_hint[0] ? m->mixer_hint
				: "ALSA mixer control 'Capture' / 'Mic Boost' — run alsamixer";

	out[0] = '\0';
	if (!have_report)
		return ADVICE_NONE;
	if (r->clipped > CLIP_FRACTION) {
		snprintf(out, size, "clipping (%.2f %% of samples at full scale): lower the capture "
			 "gain (%s)", r->clipped * 100.0, control);
		return ADVICE_LOWER;
	}
	if (r->edges > 0 && r->snr_db > 0 && r->snr_db < SNR_LOW_DB &&
	    dbfs(m->max_peak) < HEADROOM_DBFS) {
		snprintf(out, size, "the signal is near the noise floor (SNR %.1f dB): raise the "
			 "capture gain (%s), or move the receiver closer", r->snr_db, control);
		return ADVICE_RAISE;
	}
	return ADVICE_NONE;
}

static void bar(char *out, size_t size, double db)
{
	int fill = isfinite(db) ? (int)((db - BAR_FLOOR_DB) / -BAR_FLOOR_DB * BAR_WIDTH + 0.5) : 0;
	size_t i;

	if (fill < 0)
		fill = 0;
	if (fill > BAR_WIDTH)
		fill = BAR_WIDTH;
	for (i = 0; i < BAR_WIDTH && i + 3 < size; i++)
		out[i] = (int)i < fill ? '#' : '.';
	out[i] = '\0';
}

static const char *polarity_name(enum ir_polarity p)
{
	switch (p) {
	case IR_POLARITY_PULSE_HIGH:
		return "high";
	case IR_POLARITY_PULSE_LOW:
		return "low";
	default:
		return "unknown";
	}
}

static void format_carrier(const struct ir_signal_report *r, unsigned rate, char *out, size_t size)
{
	if (r->carrier_hz > 0 && r->duty_cycle > 0)
		snprintf(out, size, "%.1f kHz, duty %.0f %%", r->carrier_hz / 1000.0, r->duty_cycle);
	else if (r->carrier_hz > 0)
		snprintf(out, size, "%.1f kHz", r->carrier_hz / 1000.0);
	else if (rate && rate < 66000)
		snprintf(out, size, "not measurable at %u Hz (needs >= 66 kHz)", rate);
	else
		snprintf(out, size, "none seen");
}

static void show_plain(struct monitor *m, const struct ir_source_stats *st,
		       const struct ir_signal_report *r, bool have_report, double t)
{
	char advice[512], carrier[64];
	enum advice kind;

	if (!have_report) {
		printf("level t=%.2f waiting for audio\n", t);
		fflush(stdout);
		return;
	}
	if (r->carrier_hz > 0)
		snprintf(carrier, sizeof(carrier), "%.0fHz duty=%.0f%%", r->carrier_hz, r->duty_cycle);
	else
		snprintf(carrier, sizeof(carrier), "-");
	printf("level t=%.2f peak=%.1fdBFS noise=%.1fdBFS snr=%.1fdB polarity=%s clipped=%.3f%% "
	       "carrier=%s xruns=%llu dropped=%llu frames=%llu\n",
	       t, dbfs(r->peak), dbfs(r->noise), r->snr_db, polarity_name(r->polarity),
	       r->clipped * 100.0, carrier, (unsigned long long)st->xruns,
	       (unsigned long long)st->dropped, (unsigned long long)st->frames);
	kind = advise(m, r, have_report, advice, sizeof(advice));
	if (kind != ADVICE_NONE && (int)kind != m->last_advice)
		printf("advice %s\n", advice);
	m->last_advice = (int)kind;
	fflush(stdout);
}

static void show_screen(struct monitor *m, const struct ir_source_stats *st,
			const struct ir_signal_report *r, bool have_report, double t)
{
	char peak_bar[BAR_WIDTH + 4], noise_bar[BAR_WIDTH + 4], advice[512], carrier[64];
	unsigned shown;

	/* Home, then each line cleared to its end: no flicker. */
	printf("\033[H");
	printf("irjack monitor  %s:%s  %s %u Hz, %u ch, period %u   (q or Ctrl-C quits)\033[K\n",
	       st->backend, st->device, st->format, st->rate, st->channels, st->period_frames);
	printf("\033[K\n");
	if (have_report) {
		bar(peak_bar, sizeof(peak_bar), dbfs(r->peak));
		bar(noise_bar, sizeof(noise_bar), dbfs(r->noise));
		format_carrier(r, st->rate, carrier, sizeof(carrier));
		printf("peak   %7.1f dBFS  [%s]%s\033[K\n", dbfs(r->peak), peak_bar,
		       r->clipped > CLIP_FRACTION ? "  \033[1;31mCLIPPING\033[0m" : "");
		printf("noise  %7.1f dBFS  [%s]\033[K\n", dbfs(r->noise), noise_bar);
		if (r->snr_db > 0)
			printf("SNR    %7.1f dB\033[K\n", r->snr_db);
		else
			printf("SNR        -    (no IR seen yet: press a button on the remote)\033[K\n");
		printf("polarity  %s%s\033[K\n", polarity_name(r->polarity),
		       r->polarity == IR_POLARITY_PULSE_LOW ? " (light pulls the line low: a receiver module)"
		       : r->polarity == IR_POLARITY_PULSE_HIGH ? " (light raises the line: a photodiode)" : "");
		printf("carrier   %s\033[K\n", carrier);
	} else {
		printf("waiting for audio...\033[K\n\033[K\n\033[K\n\033[K\n\033[K\n");
	}
	printf("time %.1f s   xruns %llu   dropped %llu frames   decoded %llu frames\033[K\n", t,
	       (unsigned long long)st->xruns, (unsigned long long)st->dropped,
	       (unsigned long long)st->frames);
	advise(m, r, have_report, advice, sizeof(advice));
	printf("%s%s%s\033[K\n", advice[0] ? "\033[1;33m" : "", advice, advice[0] ? "\033[0m" : "");
	printf("\033[K\nlast frames:\033[K\n");
	shown = m->n_frames < LAST_FRAMES ? m->n_frames : LAST_FRAMES;
	for (unsigned i = 0; i < shown; i++)
		printf("%s\033[K\n", m->frames[(m->n_frames - shown + i) % LAST_FRAMES]);
	printf("\033[J");
	fflush(stdout);
}

static void monitor_usage(FILE *out)
{
	fprintf(out,
		"Usage: irjack monitor [OPTIONS]\n"
		"\n"
		"Watch a live source while wiring a receiver and setting the mixer: the\n"
		"peak and noise levels (dBFS, with bars), the signal-to-noise ratio of the\n"
		"IR edges, the polarity the demodulator detected (low: a receiver module\n"
		"pulling the line down; high: a photodiode), the carrier when the rate\n"
		"allows measuring it (>= 66 kHz), clipping, lost audio (xruns, frames\n"
		"dropped) and the last frames decoded.  When the gain is clearly wrong\n"
		"(clipping, or a signal within 10 dB of the noise) it says which way to\n"
		"turn it, naming the card's capture controls when it can find them.\n"
		"\n"
		"On a terminal the view updates in place ten times a second; 'q' or\n"
		"Ctrl-C quits.  Otherwise (a pipe, a file) it prints plain lines:\n"
		"  level t=SECONDS peak=DBdBFS noise=DBdBFS snr=DBdB polarity=P\n"
		"        clipped=PCT%% carrier=HZHz duty=PCT%%|- xruns=N dropped=N frames=N\n"
		"  frame TIME PROTOCOL SCANCODE [toggle] [repeat] [KEY (remote)]\n"
		"  advice TEXT            (when the advice changes)\n"
		"  event TEXT             (xruns, a device gone or back)\n"
		"\n"
		"Options:\n"
		"  -d, --device SPEC      the source, as 'irjack devices' lists it\n"
		"                         (default: alsa:default); file:REC.wav replays a\n"
		"                         recording in real time; --source SPEC: the same\n"
		"  -b, --backend NAME     alsa (default) or portaudio: what reads a bare PCM\n"
		"                         name given to --device\n"
		"  -t, --duration S       stop after S seconds of audio\n"
		"      --once             print one plain summary line at the end (of the\n"
		"                         duration, or of a recording; 1 s by default)\n"
		"  -r, --rate HZ          capture rate (default 48000)\n"
		"      --period-us N      capture period in microseconds (default 4000)\n"
		"      --format FMT       ALSA sample format to insist on (S16_LE, S24_LE,\n"
		"                         S24_3LE, S32_LE, FLOAT_LE; default: the best)\n"
		"  -c, --channel CH       left, right, a number from 1, or auto (default)\n"
		"      --polarity POL     auto (default), high, low\n"
		"  -k, --keymap FILE|DIR  name the buttons of decoded frames; repeatable\n"
		"  -h, --help             show this help\n"
		"\n"
		"Exit status: 0 when stopped (q, Ctrl-C, the duration, the end of a\n"
		"recording), 2 on a usage error or when the source cannot be opened or\n"
		"fails.\n"
		"\n"
		"Examples:\n"
		"  irjack monitor --device alsa:hw:1,0\n"
		"  irjack monitor --device file:samples/rc5-photodiode-192k.wav --duration 2\n");
}

/* stdin in raw mode while monitoring, so 'q' needs no Enter. */
static struct termios saved_termios;
static bool termios_saved;

static void tty_raw(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_termios) < 0)
		return;
	t = saved_termios;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO); /* ISIG stays: Ctrl-C still interrupts */
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0)
		termios_saved = true;
}

static void tty_restore(void)
{
	if (termios_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
	termios_saved = false;
}

static bool quit_key(void)
{
	char c;

	while (read(STDIN_FILENO, &c, 1) == 1)
		if (c == 'q' || c == 'Q' || c == 3 /* Ctrl-C without ISIG */)
			return true;
	return false;
}

struct monitor_args {
	struct cli_live_args live;   /* device, backend, duration (0: until stopped) */
	bool once;
	struct ir_source_options opt;
	struct ir_protocol_set protocols;
};

static int parse_args(int argc, char **argv, struct monitor_args *a, struct monitor *m)
{
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "source", required_argument, NULL, 'd' },
		{ "backend", required_argument, NULL, 'b' },
		{ "duration", required_argument, NULL, 't' },
		{ "once", no_argument, NULL, 'o' },
		{ "rate", required_argument, NULL, 'r' },
		{ "period-us", required_argument, NULL, 'U' },
		{ "format", required_argument, NULL, 'F' },
		{ "channel", required_argument, NULL, 'c' },
		{ "polarity", required_argument, NULL, 'P' },
		{ "keymap", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	a->live.sopt = &a->opt;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:b:t:r:c:k:h", options, NULL)) != -1) {
		int taken = cli_live_option(opt, optarg, &a->live);

		if (taken < 0)
			return -1;
		if (taken)
			continue;
		switch (opt) {
		case 'o':
			a->once = true;
			break;
		case 'c':
			if (cli_parse_channel(optarg, &a->opt.channel) < 0)
				return -1;
			break;
		case 'P':
			if (cli_parse_polarity(optarg, &a->opt.polarity) < 0)
				return -1;
			break;
		case 'k':
			if (cli_load_keymap(optarg, &m->keymap) < 0)
				return -1;
			break;
		case 'h':
			monitor_usage(stdout);
			return 1;
		default:
			monitor_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		cli_error("monitor: unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

/* Draws the view from the source's figures now. */
static void refresh(struct monitor *m, struct ir_source *src, const struct ir_source_stats *st,
		    double audio_s, struct ir_signal_report *r, bool *have_report)
{
	int ret = ir_source_signal_report(src, r);

	if (ret == 0) {
		*have_report = true;
		if (r->peak > m->max_peak)
			m->max_peak = r->peak;
	} else if (!*have_report) {
		memset(r, 0, sizeof(*r));
	}
	if (m->tty)
		show_screen(m, st, r, ret == 0, audio_s);
	else
		show_plain(m, st, r, ret == 0, audio_s);
}

/* Whether the run is over: --duration of audio, or of wall time past it
 * (a source that stopped delivering must not hold a --duration forever). */
static bool duration_over(const struct monitor_args *a, double audio_s, uint64_t start)
{
	if (!(a->live.duration_s > 0))
		return false;
	return audio_s >= a->live.duration_s ||
	       (double)(ir_monotonic_ns() - start) / 1e9 > a->live.duration_s + 2.0;
}

/* Dispatches the source and redraws every UPDATE_NS until the end, a quit
 * key or a signal.  Returns the exit status. */
static int monitor_loop(struct monitor *m, const struct monitor_args *a, struct ir_source *src,
			const char *spec, bool *screen)
{
	uint64_t start = ir_monotonic_ns(), next_update = start + UPDATE_NS;
	struct ir_signal_report r;
	struct ir_source_stats st;
	bool ended = false, have_report = false;
	char err[256];

	while (!stop_requested && !ended) {
		struct pollfd fds[2] = {
			{ .fd = ir_source_fd(src), .events = POLLIN },
			{ .fd = termios_saved ? STDIN_FILENO : -1, .events = POLLIN },
		};
		uint64_t now = ir_monotonic_ns();
		int timeout_ms = next_update > now ? (int)((next_update - now) / 1000000u) + 1 : 0;
		double audio_s;
		int ret;

		if (fds[0].fd < 0 && timeout_ms > 5)
			timeout_ms = 5; /* no fd: dispatch on a timer */
		if (poll(fds, 2, timeout_ms) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			return EXIT_USAGE;
		}
		if (fds[1].revents & POLLIN && quit_key())
			break;
		ret = ir_source_dispatch(src, err, sizeof(err));
		if (ret < 0 && ret != -ENODATA) {
			if (*screen)
				printf("\033[?25h\033[?1049l");
			*screen = false;
			cli_error("%s: %s", spec, err);
			return EXIT_USAGE;
		}
		ir_source_stats(src, &st);
		audio_s = st.rate ? (double)st.samples / st.rate : 0;
		ended = ret == -ENODATA || duration_over(a, audio_s, start);
		now = ir_monotonic_ns();
		if (now < next_update && !ended)
			continue;
		next_update = now + UPDATE_NS;
		if (!a->once || ended)
			refresh(m, src, &st, audio_s, &r, &have_report);
	}
	return 0;
}

/* Fills the source options from the arguments and opens the source. */
static int monitor_open(struct monitor_args *a, struct monitor *m, const char *spec,
			struct ir_source **src)
{
	struct ir_source_callbacks cb = { .frame = on_frame, .event = on_event, .userdata = m };
	struct ir_source_stats st;
	char err[256];

	ir_protocol_set_default(&a->protocols);
	cli_enable_keymap_protocols(m->keymap, &a->protocols);
	a->opt.protocols = &a->protocols;
	a->opt.keymap = m->keymap;
	a->opt.paced = true; /* a recording plays at the speed it was recorded: this is a live view */
	cli_source_duration(&a->opt, a->live.duration_s);
	if (!(a->live.duration_s > 0) && a->once)
		a->live.duration_s = 1.0;
	m->tty = !a->once && isatty(STDOUT_FILENO);
	if (ir_source_open(spec, &a->opt, &cb, src, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return -1;
	}
	ir_source_stats(*src, &st);
	if (strcmp(st.backend, "alsa") == 0 || strcmp(st.backend, "portaudio") == 0)
		find_mixer_controls(&st, m->mixer_hint, sizeof(m->mixer_hint));
	return 0;
}

/* The alternate screen is gone: leave the last frames in the scrollback. */
static void print_last_frames(const struct monitor *m)
{
	unsigned shown = m->n_frames < LAST_FRAMES ? m->n_frames : LAST_FRAMES;

	for (unsigned i = 0; i < shown; i++)
		printf("%s\n", m->frames[(m->n_frames - shown + i) % LAST_FRAMES]);
}

int cmd_monitor(int argc, char **argv)
{
	static struct monitor m;
	struct monitor_args a = { 0 };
	struct ir_source *src = NULL;
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	char spec[512];
	bool screen = false;
	int ret, status;

	memset(&m, 0, sizeof(m));
	ir_source_options_init(&a.opt);
	ret = parse_args(argc, argv, &a, &m);
	if (ret != 0 || cli_source_spec(a.live.device, a.live.backend, spec, sizeof(spec)) < 0 ||
	    monitor_open(&a, &m, spec, &src) < 0) {
		ir_keymap_free(m.keymap);
		return ret > 0 ? 0 : EXIT_USAGE;
	}
	stop_requested = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (m.tty) {
		tty_raw();
		printf("\033[?1049h\033[?25l"); /* alternate screen, no cursor */
		screen = true;
	}
	status = monitor_loop(&m, &a, src, spec, &screen);
	if (screen)
		printf("\033[?25h\033[?1049l");
	fflush(stdout);
	tty_restore();
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (m.tty && status == 0 && m.n_frames)
		print_last_frames(&m);
	ir_source_free(src);
	ir_keymap_free(m.keymap);
	return status;
}
