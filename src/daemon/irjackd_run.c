/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_run.c - the service loop: one poll() over the signals
 * (signalfd), every source's descriptor and the outputs' descriptors
 * (the lircd socket and its clients, MQTT requests, a JSON reader);
 * timers for key-ups and SEND_START's repeats come from the poll timeout.
 *
 * Sources (irjackd_sources.c) run their capture threads, if any, without
 * ever waiting for this loop.  SIGHUP reloads (irjackd_reload.c);
 * SIGTERM/SIGINT stop.
 */
#include "irjackd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <syslog.h>
#include <unistd.h>

#include "ir_time.h"
#include "irjackd_service.h"

/* Sources without a pollable descriptor are dispatched this often. */
#define POLL_TICK_MS 5

#define MAX_FDS (1 + IRJACKD_MAX_SOURCES + IR_LIRCD_MAX_CLIENTS + 8)

/* What one poll() waits for. */
struct poll_set {
	struct pollfd fds[MAX_FDS];
	size_t n;
	int src_slot[IRJACKD_MAX_SOURCES]; /* index into fds, or -1 */
	size_t out_first[OUTPUT_SLOTS], out_count[OUTPUT_SLOTS];
	bool tick;   /* a source without a descriptor runs */
	int timeout; /* ms; -1: none */
};

/* Advances key-ups; the service time of the next timer, or UINT64_MAX. */
static uint64_t next_timer(struct service *sv, uint64_t now)
{
	struct generation *g = sv->gen;
	uint64_t next = UINT64_MAX;

	for (unsigned i = 0; i < g->source_count; i++) {
		uint64_t up;

		ir_keypress_advance(g->sources[i].keys, now);
		up = ir_keypress_keyup_due(g->sources[i].keys);
		if (up && up < next)
			next = up;
	}
	if (sv->repeat.active && sv->repeat.due_us < next)
		next = sv->repeat.due_us;
	uint64_t up = peers_keyup(g, now);

	if (up < next)
		next = up;
	uint64_t retry = sources_retry(sv, g, now);

	if (retry < next)
		next = retry;
	/* (an output's own time, monotonic, not the service's) */
	uint64_t due = outputs_due_us(sv);

	if (due != UINT64_MAX) {
		uint64_t at = due > sv->start_us ? due - sv->start_us : 0;

		if (at < next)
			next = at;
	}
	return next;
}

/* With no output that keeps it running, the service ends when every file
 * source has been replayed and its keys released. */
static bool finished(const struct service *sv)
{
	const struct generation *g = sv->gen;

	if (outputs_keep_running(sv))
		return false;
	for (unsigned i = 0; i < g->source_count; i++)
		if (!g->sources[i].ended || g->sources[i].waiting ||
		    ir_keypress_keyup_due(g->sources[i].keys))
			return false;
	return true;
}

static void build_poll_set(struct service *sv, int sigfd, uint64_t now, uint64_t next,
			   struct poll_set *ps)
{
	struct generation *g = sv->gen;

	ps->n = 0;
	ps->tick = false;
	ps->fds[ps->n++] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
	for (unsigned i = 0; i < g->source_count; i++) {
		struct source *s = &g->sources[i];
		short events;
		int fd = source_poll_fd(s, &events);

		ps->src_slot[i] = -1;
		if (s->ended)
			continue;
		if (fd < 0) {
			ps->tick = true;
			continue;
		}
		ps->src_slot[i] = (int)ps->n;
		ps->fds[ps->n++] = (struct pollfd){ .fd = fd, .events = events };
	}
	size_t base = ps->n;

	ps->n += outputs_fds(sv, ps->fds + base, MAX_FDS - base, ps->out_first, ps->out_count);
	for (unsigned slot = 0; slot < OUTPUT_SLOTS; slot++)
		ps->out_first[slot] += base;
	ps->timeout = -1;
	if (next != UINT64_MAX)
		ps->timeout = next <= now ? 0 : (int)((next - now + 999) / 1000);
	if (ps->tick && (ps->timeout < 0 || ps->timeout > POLL_TICK_MS))
		ps->timeout = POLL_TICK_MS;
}

/* SIGHUP reloads (true: the descriptors changed); others stop. */
static bool on_signal(struct service *sv, int sigfd)
{
	struct signalfd_siginfo si;

	if (read(sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return false;
	if (si.ssi_signo == SIGHUP) {
		reload(sv);
		return true;
	}
	irjackd_log(LOG_INFO, "%s: stopping", strsignal((int)si.ssi_signo));
	sv->stop = true;
	return false;
}

static int loop(struct service *sv, int sigfd)
{
	struct poll_set ps;

	while (!sv->stop) {
		struct generation *g = sv->gen;
		uint64_t now = service_now_us(sv), next = next_timer(sv, now);

		if (finished(sv))
			break;
		build_poll_set(sv, sigfd, now, next, &ps);
		if (poll(ps.fds, ps.n, ps.timeout) < 0 && errno != EINTR)
			return -errno;
		if ((ps.fds[0].revents & POLLIN) && on_signal(sv, sigfd))
			continue;
		for (unsigned i = 0; i < g->source_count; i++) {
			struct source *s = &g->sources[i];

			if (ps.src_slot[i] >= 0 ? ps.fds[ps.src_slot[i]].revents != 0
						: !s->ended && ps.tick)
				source_dispatch(s);
		}
		outputs_process(sv, ps.fds, ps.out_first, ps.out_count);
		repeat_due(sv);
	}
	return 0;
}

/* SIGINT, SIGTERM and SIGHUP arrive through a descriptor; SIGPIPE not at
 * all (a client that went away is an EPIPE). */
static int signal_fd(void)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	sigset_t mask;

	sigaction(SIGPIPE, &ignore, NULL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	return signalfd(-1, &mask, SFD_CLOEXEC);
}

/* JSON first (a bad path stops the start before any device opens), then
 * the sources, then the outputs that take key presses and requests. */
static int start(struct service *sv)
{
	int ret;

	if ((ret = outputs_open(sv, sv->gen, OUTPUT_JSON)) < 0 ||
	    (ret = sources_open(sv, sv->gen, true)) < 0 ||
	    (ret = outputs_open(sv, sv->gen, OUTPUT_LIRCD)) < 0 ||
	    (ret = outputs_open(sv, sv->gen, OUTPUT_UINPUT)) < 0 ||
	    (ret = outputs_open(sv, sv->gen, OUTPUT_MQTT)) < 0 ||
	    (ret = outputs_open(sv, sv->gen, OUTPUT_LIRCDEV)) < 0 ||
	    (ret = outputs_open(sv, sv->gen, OUTPUT_LCDDEV)) < 0)
		return ret;
	return 0;
}

static void stop(struct service *sv)
{
	outputs_close(sv, OUTPUT_LCDDEV); /* its writes go to the sources' displays */
	outputs_close(sv, OUTPUT_MQTT); /* "offline" while the sources still exist */
	generation_free(sv, sv->gen);  /* releases held keys first */
	outputs_close(sv, OUTPUT_LIRCDEV);
	outputs_close(sv, OUTPUT_LIRCD);
	outputs_close(sv, OUTPUT_UINPUT);
	outputs_close(sv, OUTPUT_JSON);
}

/* 16 random hex digits: new at every start (irjackd_service.h). */
static void new_instance_id(char *id, size_t size)
{
	uint64_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = ir_monotonic_us() ^ ((uint64_t)getpid() << 40); /* unique enough on one host */
	snprintf(id, size, "%016" PRIx64, r);
}

int irjackd_run(const char *config_path, struct irjackd_config *cfg, struct ir_keymap *km)
{
	static struct service sv;
	int sigfd, ret = 0, stdout_flags;

	memset(&sv, 0, sizeof(sv));
	stdout_flags = fcntl(STDOUT_FILENO, F_GETFL); /* JSON to stdout makes it non-blocking */
	sv.config_path = config_path;
	sv.gen = calloc(1, sizeof(*sv.gen));
	if (!sv.gen) {
		free(cfg);
		ir_keymap_free(km);
		return -ENOMEM;
	}
	sv.gen->cfg = cfg;
	sv.gen->km = km;
	irjackd_set_log_level(cfg->log_level);
	sigfd = signal_fd();
	if (sigfd < 0) {
		ret = -errno;
		goto out;
	}
	sv.start_us = ir_monotonic_us();
	new_instance_id(sv.instance_id, sizeof(sv.instance_id));
	activation_take(&sv);
	if ((ret = start(&sv)) < 0)
		goto out;
	irjackd_notify("READY=1");
	ret = loop(&sv, sigfd);
	irjackd_notify("STOPPING=1");
	repeat_stop(&sv, "the service stops");
out:
	tx_workers_free(&sv);
	stop(&sv);
	if (stdout_flags >= 0)
		fcntl(STDOUT_FILENO, F_SETFL, stdout_flags);
	if (sigfd >= 0)
		close(sigfd);
	activation_close(&sv);
	return ret;
}
