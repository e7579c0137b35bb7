/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_log.c - the service's log (stderr, with the journal's priority
 * prefixes under systemd) and its readiness notifications.
 */
#include "irjackd.h"

#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#ifdef IRJACK_HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

static int log_level = LOG_INFO;

bool irjackd_log_enabled(int level)
{
	return level <= log_level;
}

void irjackd_set_log_level(int level)
{
	log_level = level;
}

void irjackd_log_line(void *userdata, int level, const char *line)
{
	static const char *const names[] = {
		[LOG_ERR] = "error", [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice",
		[LOG_INFO] = "info", [LOG_DEBUG] = "debug",
	};

	(void)userdata;
	if (level > log_level)
		return;
	/* one fprintf per line: outputs' threads log too */
	if (getenv("JOURNAL_STREAM"))
		fprintf(stderr, "<%d>%s\n", level, line);
	else
		fprintf(stderr, "irjackd: %s%s%s\n",
			level <= LOG_WARNING && level >= LOG_ERR ? names[level] : "",
			level <= LOG_WARNING ? ": " : "", line);
}

void irjackd_log(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	irjackd_log_line(NULL, level, line);
}

void irjackd_notify(const char *state)
{
#ifdef IRJACK_HAVE_LIBSYSTEMD
	sd_notify(0, state);
#else
	(void)state;
#endif
}
