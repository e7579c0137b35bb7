/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_json.c - the JSON lines output (out_json.h), as an output kind.
 */
#include "out_json.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "ir_frame_format.h"
#include "ir_output.h"
#include "ir_output_kinds.h"

/* What is still buffered when the output closes gets this long to go. */
#define CLOSE_WAIT_MS 1000

struct json_out {
	int fd;
	char path[256];
	char *buf;      /* lines not yet taken by a slow reader */
	size_t len;
	uint64_t dropped;
	bool dropping;  /* in a run of dropped lines (warned once per run) */
	struct ir_output_env env;
};

static void json_log(struct json_out *j, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void json_log(struct json_out *j, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!j->env.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	j->env.log(j->env.userdata, level, line);
}

/* Writes what the reader takes now; never waits. */
static void json_flush(struct json_out *j)
{
	while (j->len > 0) {
		ssize_t n = write(j->fd, j->buf, j->len);

		if (n > 0) {
			memmove(j->buf, j->buf + n, j->len - (size_t)n);
			j->len -= (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			return;
		} else {
			json_log(j, LOG_ERR, "json output %s: %s; %zu bytes lost", j->path,
				 n < 0 ? strerror(errno) : "nothing written", j->len);
			j->dropped++;
			j->len = 0;
		}
	}
}

static int json_open(const void *settings, const struct ir_output_env *env, void **impl,
		     char *err, size_t err_size)
{
	const struct ir_json_settings *s = settings;
	struct json_out *j = calloc(1, sizeof(*j));

	if (!j || !(j->buf = malloc(IR_JSON_BUFFER))) {
		free(j);
		snprintf(err, err_size, "json output: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	j->env = *env;
	snprintf(j->path, sizeof(j->path), "%s", s->path);
	if (strcmp(s->path, "-") == 0) {
		int flags = fcntl(STDOUT_FILENO, F_GETFL);

		j->fd = STDOUT_FILENO;
		if (flags >= 0)
			fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK);
	} else {
		j->fd = open(s->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
		if (j->fd < 0) {
			int ret = -errno;

			snprintf(err, err_size, "%s: %s", s->path, strerror(errno));
			free(j->buf);
			free(j);
			return ret;
		}
	}
	*impl = j;
	return 0;
}

static int json_rebind(void *impl, const void *old, const void *settings,
		       const struct ir_output_env *env)
{
	struct json_out *j = impl;

	if (strcmp(((const struct ir_json_settings *)old)->path,
		   ((const struct ir_json_settings *)settings)->path))
		return -EAGAIN;
	j->env = *env;
	return 0;
}

static void json_frame(void *impl, const struct ir_output_frame *f)
{
	struct json_out *j = impl;
	struct ir_frame_labels labels = { .source = f->source };
	char line[1024];
	size_t n;

	if (f->key) {
		labels.key = f->key->key;
		labels.remote = f->key->remote;
	}
	ir_frame_format_json(f->frame, &labels, line, sizeof(line));
	n = strlen(line);
	/* A reader that does not keep up (a stopped pipe) costs at most the
	 * buffer: newer lines are dropped and counted, the service never
	 * waits for it. */
	if (j->len + n > IR_JSON_BUFFER) {
		j->dropped++;
		if (!j->dropping)
			json_log(j, LOG_WARNING,
				 "json output %s: the reader is not keeping up; dropping lines", j->path);
		j->dropping = true;
	} else {
		memcpy(j->buf + j->len, line, n);
		j->len += n;
		j->dropping = false;
	}
	json_flush(j);
}

static size_t json_fds(void *impl, struct pollfd *fds, size_t max)
{
	struct json_out *j = impl;

	if (j->len == 0 || max == 0)
		return 0;
	fds[0] = (struct pollfd){ .fd = j->fd, .events = POLLOUT };
	return 1;
}

static void json_process(void *impl, const struct pollfd *fds, size_t n)
{
	if (n > 0 && fds[0].revents)
		json_flush(impl);
}

static void json_status(void *impl, const void *settings, char *line, size_t size)
{
	const struct json_out *j = impl;

	(void)settings;
	snprintf(line, size, "output json %s, %zu bytes waiting, %" PRIu64 " lines dropped",
		 j->path, j->len, j->dropped);
}

static void json_close(void *impl)
{
	struct json_out *j = impl;

	for (int waited = 0; j->len > 0 && waited < CLOSE_WAIT_MS; waited += 10) {
		struct pollfd p = { .fd = j->fd, .events = POLLOUT };

		if (poll(&p, 1, 10) > 0)
			json_flush(j);
	}
	if (j->len > 0)
		json_log(j, LOG_WARNING, "json output %s: %zu bytes not taken by the reader",
			 j->path, j->len);
	if (j->fd > STDOUT_FILENO)
		close(j->fd);
	free(j->buf);
	free(j);
}

const struct ir_output_kind ir_output_json = {
	.name = "json",
	.settings_size = sizeof(struct ir_json_settings),
	.keeps_running = false,
	.open = json_open,
	.rebind = json_rebind,
	.frame = json_frame,
	.fds = json_fds,
	.process = json_process,
	.status = json_status,
	.close = json_close,
};
