/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_status.c - the STATUS command's text (irjack's own command on
 * the lircd socket; `irjack status` prints it): the service, each source's
 * figures and last frame, each output, the repeating button.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "irjackd_service.h"

/* Appends lines to a fixed buffer; a line that does not fit ends it. */
struct lines {
	char *buf;
	size_t size, len;
	unsigned count;
};

static void add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct lines *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= l->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, l->size - l->len, fmt, ap);
	va_end(ap);
	if (n > 0 && l->len + (size_t)n < l->size) {
		l->len += (size_t)n;
		l->count++;
	} else {
		l->buf[l->len] = '\0';
		l->len = l->size;
	}
}

/* ", peak P, snr S dB" for an audio source; "" for others. */
static void signal_text(struct ir_source *src, char *level, size_t size)
{
	struct ir_signal_report r;

	level[0] = '\0';
	if (ir_source_signal_report(src, &r) < 0)
		return;
	/* a noise floor under −120 dBFS is digital silence: no SNR to speak of */
	if (r.noise < 1e-6)
		snprintf(level, size, ", peak %.3f, noise none (digital silence)", r.peak);
	else if (r.snr_db > 0)
		snprintf(level, size, ", peak %.3f, snr %.1f dB", r.peak, r.snr_db);
	else
		snprintf(level, size, ", peak %.3f, snr unknown", r.peak);
}

static void source_line(struct lines *l, struct source *s, uint64_t now)
{
	struct ir_source_stats st = { .backend = irjackd_source_type_name(s->cfg->type) };
	char level[96] = "", last[256] = "last none";

	if (s->src) { /* NULL while waiting */
		ir_source_stats(s->src, &st);
		signal_text(s->src, level, sizeof(level));
	} else {
		snprintf(st.device, sizeof(st.device), "%.100s", s->cfg->device);
		snprintf(st.format, sizeof(st.format), "-");
	}
	if (s->last_us)
		snprintf(last, sizeof(last), "last %.190s %.1f s ago", s->last,
			 (double)(now - s->last_us) / 1e6);
	add(l,
	    "source %s %s:%s %s, %s %u Hz %u ch, frames %" PRIu64 ", xruns %" PRIu64
	    ", dropped %" PRIu64 ", reopens %" PRIu64 "%s, %s\n",
	    s->cfg->name, st.backend, st.device, s->state, st.format, st.rate, st.channels, st.frames,
	    st.xruns, st.dropped, st.reopens, level, last);
}

unsigned status_lines(void *userdata, char *buf, size_t size)
{
	struct service *sv = userdata;
	struct lines l = { .buf = buf, .size = size };
	uint64_t now = service_now_us(sv);

	add(&l,
	    "irjackd " IRJACK_VERSION " up %" PRIu64 " s, config %s, reloads %" PRIu64
	    " (%" PRIu64 " rejected)\n",
	    now / 1000000u, sv->config_path, sv->reloads, sv->reload_failures);
	for (unsigned i = 0; i < sv->gen->source_count; i++)
		source_line(&l, &sv->gen->sources[i], now);
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++) {
		char line[512];

		if (!sv->outputs[slot])
			continue;
		ir_output_status(sv->outputs[slot], line, sizeof(line));
		if (line[0])
			add(&l, "%s\n", line);
	}
	if (sv->repeat.active)
		add(&l, "repeating %.100s %.100s, %u repeat%s sent\n", sv->repeat.remote,
		    sv->repeat.key, sv->repeat.sent, sv->repeat.sent == 1 ? "" : "s");
	return l.count;
}
