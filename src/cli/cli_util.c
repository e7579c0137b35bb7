/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cli.h"

#include "ir_frame_format.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "ir_source.h"
#include "ir_time.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define NO_FD_TICK_MS 5       /* sources without an fd are dispatched on a timer */
#define MAX_WHOLE_RING_S 60   /* see cli_source_duration() */

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("irjack: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_uint(const char *arg, const char *what, unsigned long long min,
		   unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!arg || !*arg || *arg == '-') {
		cli_error("%s: '%s' is not a non-negative number", what, arg ? arg : "");
		return -1;
	}
	v = strtoull(arg, &end, 0);
	if (*end || errno) {
		cli_error("%s: '%s' is not a number", what, arg);
		return -1;
	}
	if (v < min || v > max) {
		cli_error("%s: %llu is out of range (%llu..%llu)", what, v, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_proto_scancode(const char *arg, enum ir_protocol *proto, uint64_t *scancode)
{
	const char *colon = strchr(arg, ':');
	char name[64];
	unsigned long long v;
	char *end;
	const struct ir_protocol_info *info;

	if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof(name)) {
		cli_error("'%s': expected PROTOCOL:SCANCODE, e.g. nec:0x04fb", arg);
		return -1;
	}
	memcpy(name, arg, (size_t)(colon - arg));
	name[colon - arg] = '\0';
	if (ir_protocol_from_name(name, proto) < 0) {
		cli_error("unknown protocol '%s' (see 'irjack protocols')", name);
		return -1;
	}
	errno = 0;
	v = strtoull(colon + 1, &end, 0);
	if (!colon[1] || *end || errno || colon[1] == '-') {
		cli_error("'%s' is not a scancode (use hex like 0x1e01 or decimal)", colon + 1);
		return -1;
	}
	info = ir_protocol_get(*proto);
	if (v & ~info->scancode_mask) {
		cli_error("scancode 0x%llx has bits outside %s's mask 0x%llx", v, info->name,
			  (unsigned long long)info->scancode_mask);
		return -1;
	}
	*scancode = v;
	return 0;
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}

int cli_parse_channel(const char *arg, int *channel)
{
	unsigned long long v;

	if (strcasecmp(arg, "auto") == 0) {
		*channel = -1;
		return 0;
	}
	if (strcasecmp(arg, "left") == 0) {
		*channel = 0;
		return 0;
	}
	if (strcasecmp(arg, "right") == 0) {
		*channel = 1;
		return 0;
	}
	if (cli_parse_uint(arg, "--channel (left, right, auto or a number from 1)", 1, 8, &v) < 0)
		return -1;
	*channel = (int)v - 1;
	return 0;
}

int cli_parse_polarity(const char *arg, enum ir_polarity *polarity)
{
	if (strcasecmp(arg, "auto") == 0)
		*polarity = IR_POLARITY_AUTO;
	else if (strcasecmp(arg, "high") == 0)
		*polarity = IR_POLARITY_PULSE_HIGH;
	else if (strcasecmp(arg, "low") == 0)
		*polarity = IR_POLARITY_PULSE_LOW;
	else {
		cli_error("--polarity: '%s' is not auto, high or low", arg);
		return -1;
	}
	return 0;
}

int cli_load_keymap(const char *path, struct ir_keymap **keymap)
{
	struct ir_keymap_error err = { 0 };
	int ret;

	if (!*keymap && ir_keymap_new(keymap) < 0) {
		cli_error("%s", strerror(ENOMEM));
		return -1;
	}
	ret = ir_keymap_load(*keymap, path, &err);
	if (ret < 0) {
		if (err.parse.line)
			cli_error("%s:%u: %s", err.file, err.parse.line, err.parse.message);
		else
			cli_error("%s: %s", err.file[0] ? err.file : path,
				  err.parse.message[0] ? err.parse.message : strerror(-ret));
		return -1;
	}
	return 0;
}

void cli_print_frame(void *printer, const struct ir_frame *frame)
{
	struct cli_frame_printer *p = printer;
	struct ir_frame_labels labels = { .source = p->source };
	struct ir_key_binding key;
	char line[1024];

	if (p->keymap && ir_keymap_lookup(p->keymap, frame, &key)) {
		labels.key = key.key;
		labels.remote = key.remote;
	}
	if (p->json)
		ir_frame_format_json(frame, &labels, line, sizeof(line));
	else
		ir_frame_format_text(frame, &labels, line, sizeof(line));
	fputs(line, stdout);
	p->frames++;
}

void cli_enable_keymap_protocols(const struct ir_keymap *keymap, struct ir_protocol_set *enabled)
{
	struct ir_protocol_set named;

	if (!keymap)
		return;
	ir_keymap_protocols(keymap, &named);
	for (unsigned p = 0; p < IR_PROTO_COUNT; p++)
		if (ir_protocol_set_has(&named, (enum ir_protocol)p))
			ir_protocol_set_add(enabled, (enum ir_protocol)p);
}

int cli_source_spec(const char *device, const char *backend, char *out, size_t out_size)
{
	int ret = ir_source_spec_resolve(device, backend, out, out_size);

	if (ret == -EPROTONOSUPPORT)
		cli_error("--backend: '%s' is not built in (see 'irjack devices')", backend);
	else if (ret < 0)
		cli_error("--device: '%s' is too long", device);
	return ret < 0 ? -1 : 0;
}

static int run_loop(struct ir_source *src, int sig_fd, double duration_s,
		    const struct cli_extra_fd *extra)
{
	struct ir_source_stats st;
	uint64_t start = ir_monotonic_ms(), stop_samples = 0;
	char err[256];

	ir_source_stats(src, &st);
	if (duration_s > 0 && st.rate)
		stop_samples = (uint64_t)llround(duration_s * st.rate);
	for (;;) {
		struct pollfd fds[3] = {
			{ .fd = sig_fd, .events = POLLIN },
			{ .fd = ir_source_fd(src), .events = POLLIN },
			{ .fd = extra ? extra->fd : -1, .events = POLLIN },
		};
		int timeout = fds[1].fd < 0 ? NO_FD_TICK_MS : 1000;
		int ret;

		if (poll(fds, 3, timeout) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			return -1;
		}
		if (fds[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			/* Consumed, or it would kill us once unblocked again. */
			if (read(sig_fd, &si, sizeof(si)) < 0)
				return -1;
			return 0;
		}
		if (extra && fds[2].revents && extra->process(extra->userdata) < 0)
			return -1;
		if (fds[1].fd < 0 || (fds[1].revents & POLLIN)) {
			ret = ir_source_dispatch(src, err, sizeof(err));
			if (ret == -ENODATA)
				return 0;
			if (ret < 0) {
				cli_error("%s", err);
				return -1;
			}
		}
		if (duration_s > 0) {
			ir_source_stats(src, &st);
			if (stop_samples ? st.samples >= stop_samples
					 : ir_monotonic_ms() - start >= (uint64_t)(duration_s * 1000))
				return 0;
		}
	}
}

void cli_source_duration(struct ir_source_options *opt, double duration_s)
{
	unsigned rate = opt->rate ? opt->rate : 48000;

	if (duration_s <= 0)
		return;
	/* Stop the capture itself at exactly that much audio: a device without
	 * a clock (alsa-lib's file plugin) would otherwise repeat stale samples,
	 * and it delivers faster than real time, so the ring then holds all of
	 * it when that costs little memory. */
	opt->max_frames = (uint64_t)llround(duration_s * rate);
	if (duration_s <= MAX_WHOLE_RING_S)
		opt->ring_ms = (size_t)(duration_s * 1000) + 500;
}

int cli_run_source(struct ir_source *src, double duration_s)
{
	return cli_run_source_with(src, duration_s, NULL);
}

int cli_run_source_with(struct ir_source *src, double duration_s, const struct cli_extra_fd *extra)
{
	sigset_t sigs, old_sigs;
	int sig_fd, ret;

	/* Signals arrive through a file descriptor, in the poll loop. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &sigs, &old_sigs) < 0)
		return -1;
	sig_fd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sig_fd < 0) {
		cli_error("signalfd: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, &old_sigs, NULL);
		return -1;
	}
	ret = run_loop(src, sig_fd, duration_s, extra);
	close(sig_fd);
	sigprocmask(SIG_SETMASK, &old_sigs, NULL);
	return ret;
}

int cli_live_option(int opt, const char *arg, struct cli_live_args *a)
{
	unsigned long long v;
	char *end;

	switch (opt) {
	case 'd':
		a->device = arg;
		return 1;
	case 'b':
		a->backend = arg;
		return 1;
	case 'r':
		if (cli_parse_uint(arg, "--rate", 8000, 768000, &v) < 0)
			return -1;
		a->sopt->rate = (unsigned)v;
		return 1;
	case 'U':
		if (cli_parse_uint(arg, "--period-us", 250, 1000000, &v) < 0)
			return -1;
		a->sopt->period_us = (unsigned)v;
		return 1;
	case 'F':
		a->sopt->sample_format = arg;
		return 1;
	case 't':
		errno = 0;
		a->duration_s = strtod(arg, &end);
		if (end == arg || *end || errno || !(a->duration_s > 0) || a->duration_s > 1e7) {
			cli_error("--duration: '%s' is not a positive number of seconds", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

/* Copies `in` (a pipe, FIFO or device) into a memory file, at most
 * CLI_INPUT_ONCE_MAX bytes; the memory file's descriptor or a negative
 * errno (-EFBIG past the limit). */
static int spool(int in)
{
	static char buf[65536];
	int fd = memfd_create("irjack-input", MFD_CLOEXEC);
	size_t total = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t got = read(in, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				return fd;
			break;
		}
		total += (size_t)got;
		if (total > CLI_INPUT_ONCE_MAX) {
			errno = EFBIG;
			break;
		}
		for (ssize_t done = 0, n; done < got; done += n)
			if ((n = write(fd, buf + done, (size_t)(got - done))) < 0)
				goto fail;
	}
fail:;
	int err = errno;

	close(fd);
	return -err;
}

int cli_input_once(const char *path, int *fd, char *use, size_t use_size)
{
	struct stat st;
	int in, ret;

	*fd = -1;
	snprintf(use, use_size, "%s", path);
	if (!strcmp(path, "-"))
		return 0;
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0) {
		ret = -errno;
	} else if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
	} else if (S_ISREG(st.st_mode)) {
		ret = 0;
	} else {
		ret = spool(in);
		if (ret >= 0) {
			*fd = ret;
			snprintf(use, use_size, "/proc/self/fd/%d", ret);
			ret = 0;
		}
	}
	close(in);
	return ret;
}

int cli_check_signal_length(const char *what, const struct ir_edge_buf *edges)
{
	uint64_t us = ir_edge_buf_duration(edges);

	if (us <= IR_SIGNAL_MAX_US)
		return 0;
	cli_error("%s: the signal lasts %.1f s, longer than the %u s limit", what, (double)us / 1e6,
		  IR_SIGNAL_MAX_US / 1000000u);
	return -1;
}

int cli_socket_connect(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		cli_error("%s: socket path too long", path);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		cli_error("socket: %s", strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		cli_error("%s: %s (is irjackd running with an [output lircd] there?)", path,
			  strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

long cli_read_reply(int fd, const char *command, char *buf, size_t size, long long deadline)
{
	size_t len = 0, clen = strlen(command);

	for (;;) {
		char *begin = NULL;

		buf[len] = '\0';
		/* a reply starts on a line of its own */
		for (char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			if (!strncmp(p, "BEGIN\n", 6) && !strncmp(p + 6, command, clen) &&
			    p[6 + clen] == '\n') {
				begin = p;
				break;
			}
		}
		if (begin && strstr(begin, "\nEND\n"))
			return begin - buf;

		long long left = deadline - (long long)ir_monotonic_ms();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left <= 0) {
			cli_error("no answer from irjackd in time");
			return -1;
		}
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) {
			cli_error("poll: %s", strerror(errno));
			return -1;
		}
		if (!(pfd.revents & (POLLIN | POLLHUP)))
			continue;
		if (len + 1 >= size) {
			cli_error("the answer is larger than %zu bytes: not irjackd's", size - 1);
			return -1;
		}
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno != EINTR) {
			cli_error("read: %s", strerror(errno));
			return -1;
		}
		if (n == 0) {
			cli_error("irjackd closed the connection before answering");
			return -1;
		}
		if (n > 0)
			len += (size_t)n;
	}
}

/* Columns a UTF-8 run of `len` bytes takes: its characters. */
static int utf8_columns(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

void cli_print_wrapped(FILE *out, const char *text, int col, int indent, int width)
{
	bool line_empty = true;

	if (col < indent) {
		fprintf(out, "%*s", indent - col, "");
		col = indent;
	}
	while (*text) {
		size_t len = strcspn(text, " ");
		int w = utf8_columns(text, len);

		if (len > 0) {
			if (!line_empty && col + 1 + w > width) {
				fprintf(out, "\n%*s", indent, "");
				col = indent;
				line_empty = true;
			}
			if (!line_empty) {
				fputc(' ', out);
				col++;
			}
			fwrite(text, 1, len, out);
			col += w;
			line_empty = false;
		}
		text += len;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}
