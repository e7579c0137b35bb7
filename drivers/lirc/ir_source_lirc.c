/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_lirc.c - the kernel's LIRC char device (/dev/lircN) as a
 * source: mode2 words into the source's decoders, or (mode=scancode) the
 * kernel's own decoded frames as they are.
 *
 * Spec: "lirc:/dev/lirc0", "lirc:lirc0", "lirc:rc0", "lirc:DRIVER" (e.g.
 * "lirc:rc-loopback"), or "lirc" alone for the first receiver in sysfs;
 * options after '?': "mode=mode2|scancode|auto" (auto: mode2 where the
 * device has it), "carrier=1" (ask for carrier reports where the device
 * measures them).
 *
 * The fd the caller polls is an epoll set, not the device itself: the
 * device fd changes when the device vanishes and comes back, and while it
 * is gone a timerfd drives the reopen attempts.  The epoll fd stays the
 * same for the life of the source, so a caller may register it once.
 */
#include "ir_source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/lirc.h>

#include "ir_lirc_dev.h"
#include "ir_reopen.h"
#include "ir_time.h"

#define READ_WORDS 512
#define READ_SCANCODES 32
#define RETRY_FIRST_MS 100
#define RETRY_MAX_MS 2000
#define MAX_RC_DEVICES 32

enum lirc_rx_mode { MODE_AUTO, MODE_MODE2, MODE_SCANCODE };

struct lirc_source {
	struct ir_source_sink *sink;
	char want[128];          /* the device as asked for ("" = first receiver) */
	char path[128];          /* the node open now (or last open) */
	enum lirc_rx_mode want_mode;
	bool carrier_reports;
	uint32_t timeout_us;
	uint32_t mode;           /* LIRC_MODE_MODE2 or LIRC_MODE_SCANCODE in use */
	int dev_fd;              /* -1 while the device is gone */
	struct ir_reopen reopen; /* reopen attempts; its timer is in the epoll set */
	int epoll_fd;            /* what the caller polls */
	uint64_t open_us;        /* CLOCK_MONOTONIC at open: frames' time zero */
	uint64_t reopens;
	uint64_t overflows;
	uint64_t bad_words;
};

static bool receives(uint32_t features)
{
	return (features & (LIRC_CAN_REC_MODE2 | LIRC_CAN_REC_SCANCODE)) != 0;
}

/* Resolves a device name to its /dev node: a path as is; "lircN"; "rcN",
 * a driver name or "" through sysfs (the first that receives). */
static int resolve(const char *want, char *path, size_t size)
{
	struct ir_lirc_dev_info info[MAX_RC_DEVICES];
	int n;

	if (want[0] == '/') {
		snprintf(path, size, "%s", want);
		return 0;
	}
	if (strncmp(want, "lirc", 4) == 0 && want[4] >= '0' && want[4] <= '9') {
		snprintf(path, size, "/dev/%s", want);
		return 0;
	}
	n = ir_lirc_dev_discover("/sys", info, MAX_RC_DEVICES);
	if (n < 0)
		return n;
	for (int i = 0; i < n && i < MAX_RC_DEVICES; i++) {
		uint32_t features = 0;
		int fd;

		if (!info[i].lirc_name[0])
			continue;
		if (want[0] && strcmp(want, info[i].rc_name) != 0 && strcmp(want, info[i].driver) != 0)
			continue;
		snprintf(path, size, "/dev/%s", info[i].lirc_name);
		if (want[0])
			return 0;
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (ioctl(fd, LIRC_GET_FEATURES, &features) == 0 && receives(features)) {
			close(fd);
			return 0;
		}
		close(fd);
	}
	return -ENOENT;
}

/* Opens and configures the device.  `strict`: at first open, a timeout
 * the device refuses is an error; on reopen it is left at the default. */
static int open_device(struct lirc_source *ls, bool strict, char *err, size_t err_size)
{
	uint32_t features = 0, mode;
	int fd, ret;

	ret = resolve(ls->want, ls->path, sizeof(ls->path));
	if (ret < 0) {
		snprintf(err, err_size, "%s: no LIRC receiver found in /sys/class/rc",
			 ls->want[0] ? ls->want : "lirc");
		return ret;
	}
	fd = open(ls->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_size, "%s: %s", ls->path, strerror(errno));
		return ret;
	}
	if (ioctl(fd, LIRC_GET_FEATURES, &features) < 0) {
		ret = errno == ENOTTY || errno == EINVAL ? -ENOTTY : -errno;
		snprintf(err, err_size, "%s: not a LIRC device (%s)", ls->path, strerror(-ret));
		goto fail;
	}
	if (!receives(features)) {
		ret = -EOPNOTSUPP;
		snprintf(err, err_size, "%s: this device cannot receive (a transmitter only?)", ls->path);
		goto fail;
	}
	switch (ls->want_mode) {
	case MODE_MODE2:
		mode = LIRC_MODE_MODE2;
		break;
	case MODE_SCANCODE:
		mode = LIRC_MODE_SCANCODE;
		break;
	default:
		mode = features & LIRC_CAN_REC_MODE2 ? LIRC_MODE_MODE2 : LIRC_MODE_SCANCODE;
		break;
	}
	/* No feature check for scancode mode: raw-IR devices give their
	 * decoders' scancodes too but advertise only LIRC_CAN_REC_MODE2
	 * (seen on Linux 6.1's rc-loopback); the kernel says no if it can't. */
	if (ioctl(fd, LIRC_SET_REC_MODE, &mode) < 0) {
		ret = errno == ENOTTY || errno == EINVAL ? -EOPNOTSUPP : -errno;
		snprintf(err, err_size, "%s: cannot receive in %s mode (%s)", ls->path,
			 mode == LIRC_MODE_MODE2 ? "mode2" : "scancode", strerror(errno));
		goto fail;
	}
	ls->mode = mode;
	if (ls->timeout_us && (features & LIRC_CAN_SET_REC_TIMEOUT) &&
	    ioctl(fd, LIRC_SET_REC_TIMEOUT, &ls->timeout_us) < 0 && strict) {
		uint32_t lo = 0, hi = 0;

		ret = -errno;
		ioctl(fd, LIRC_GET_MIN_TIMEOUT, &lo);
		ioctl(fd, LIRC_GET_MAX_TIMEOUT, &hi);
		snprintf(err, err_size, "%s: timeout %u us refused (the device takes %u..%u us)",
			 ls->path, ls->timeout_us, lo, hi);
		goto fail;
	}
	if (ls->carrier_reports && (features & LIRC_CAN_MEASURE_CARRIER)) {
		uint32_t on = 1;

		if (ioctl(fd, LIRC_SET_MEASURE_CARRIER_MODE, &on) < 0 && strict) {
			ret = -errno;
			snprintf(err, err_size, "%s: carrier reports: %s", ls->path, strerror(errno));
			goto fail;
		}
	}
	if (epoll_ctl(ls->epoll_fd, EPOLL_CTL_ADD, fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.fd = fd }) < 0) {
		ret = -errno;
		snprintf(err, err_size, "epoll: %s", strerror(errno));
		goto fail;
	}
	ls->dev_fd = fd;
	return 0;
fail:
	close(fd);
	return ret;
}

static void device_gone(struct lirc_source *ls, int why)
{
	char msg[200];

	epoll_ctl(ls->epoll_fd, EPOLL_CTL_DEL, ls->dev_fd, NULL);
	close(ls->dev_fd);
	ls->dev_fd = -1;
	ir_reopen_gone(&ls->reopen, ir_monotonic_ms());
	snprintf(msg, sizeof(msg), "%s: %s; trying to reopen it", ls->path, strerror(why));
	ir_source_sink_event(ls->sink, IR_SOURCE_GONE, msg);
}

static void lirc_close(void *impl)
{
	struct lirc_source *ls = impl;

	if (!ls)
		return;
	if (ls->dev_fd >= 0)
		close(ls->dev_fd);
	ir_reopen_free(&ls->reopen);
	if (ls->epoll_fd >= 0)
		close(ls->epoll_fd);
	free(ls);
}

/* "PATH?key=value&key=value" */
static int parse_device(struct lirc_source *ls, const char *device, char *err, size_t err_size)
{
	const char *q = strchr(device, '?');
	size_t len = q ? (size_t)(q - device) : strlen(device);

	if (len >= sizeof(ls->want)) {
		snprintf(err, err_size, "lirc: device name too long");
		return -EINVAL;
	}
	memcpy(ls->want, device, len);
	ls->want[len] = '\0';
	while (q && *q) {
		const char *opt = q + 1, *end = strchr(opt, '&');
		size_t olen = end ? (size_t)(end - opt) : strlen(opt);

		if (olen == 10 && strncmp(opt, "mode=mode2", 10) == 0)
			ls->want_mode = MODE_MODE2;
		else if (olen == 13 && strncmp(opt, "mode=scancode", 13) == 0)
			ls->want_mode = MODE_SCANCODE;
		else if (olen == 9 && strncmp(opt, "mode=auto", 9) == 0)
			ls->want_mode = MODE_AUTO;
		else if (olen == 9 && strncmp(opt, "carrier=1", 9) == 0)
			ls->carrier_reports = true;
		else if (olen == 9 && strncmp(opt, "carrier=0", 9) == 0)
			ls->carrier_reports = false;
		else {
			snprintf(err, err_size,
				 "lirc: unknown option '%.*s' (mode=mode2|scancode|auto, carrier=0|1)",
				 (int)olen, opt);
			return -EINVAL;
		}
		q = end;
	}
	return 0;
}

static int lirc_open(const char *device, const struct ir_source_options *opt,
		     struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct lirc_source *ls = calloc(1, sizeof(*ls));
	int ret;

	if (!ls) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ls->sink = sink;
	ls->dev_fd = -1;
	ls->epoll_fd = -1; /* a spec error must not close fd 0 */
	ir_reopen_init(&ls->reopen, RETRY_FIRST_MS, RETRY_MAX_MS);
	ls->timeout_us = opt->timeout_us;
	ret = parse_device(ls, device, err, err_size);
	if (ret < 0)
		goto fail;
	ls->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (ls->epoll_fd < 0 || ir_reopen_timer_new(&ls->reopen) < 0 ||
	    epoll_ctl(ls->epoll_fd, EPOLL_CTL_ADD, ls->reopen.timer_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.fd = ls->reopen.timer_fd }) < 0) {
		ret = -errno;
		snprintf(err, err_size, "%s", strerror(errno));
		goto fail;
	}
	ret = open_device(ls, true, err, err_size);
	if (ret < 0)
		goto fail;
	ls->open_us = ir_monotonic_us();
	*impl = ls;
	return 0;
fail:
	lirc_close(ls);
	return ret;
}

static int lirc_fd(void *impl)
{
	return ((struct lirc_source *)impl)->epoll_fd;
}

static int reopen_device(void *ctx)
{
	char err[200];

	return open_device(ctx, false, err, sizeof(err));
}

static int try_reopen(struct lirc_source *ls)
{
	char msg[240];

	if (!ir_reopen_attempt(&ls->reopen, ir_monotonic_ms(), false, reopen_device, ls))
		return 0;
	ls->reopens++;
	snprintf(msg, sizeof(msg), "%s: open again", ls->path);
	ir_source_sink_event(ls->sink, IR_SOURCE_BACK, msg);
	return 0;
}

static int read_mode2(struct lirc_source *ls)
{
	uint32_t words[READ_WORDS];
	struct ir_edge edges[READ_WORDS];
	ssize_t got = read(ls->dev_fd, words, sizeof(words));
	size_t n = 0;

	if (got < 0)
		return -errno;
	for (size_t i = 0; i < (size_t)got / sizeof(words[0]); i++) {
		if (ir_lirc_mode2_to_edge(words[i], &edges[n]) < 0) {
			ls->bad_words++;
			continue;
		}
		if (edges[n].kind == IR_OVERFLOW) {
			/* The kernel's buffer filled: what came before is cut. */
			ls->overflows++;
			ir_source_sink_edges(ls->sink, edges, n + 1);
			ir_source_sink_event(ls->sink, IR_SOURCE_XRUN, "the receiver's buffer overflowed");
			n = 0;
			continue;
		}
		n++;
	}
	if (n)
		ir_source_sink_edges(ls->sink, edges, n);
	return 0;
}

static int read_scancodes(struct lirc_source *ls)
{
	struct lirc_scancode sc[READ_SCANCODES];
	ssize_t got = read(ls->dev_fd, sc, sizeof(sc));

	if (got < 0)
		return -errno;
	for (size_t i = 0; i < (size_t)got / sizeof(sc[0]); i++) {
		struct ir_frame frame;

		if (ir_lirc_scancode_to_frame(&sc[i], &frame) < 0) {
			ls->bad_words++;
			continue;
		}
		/* kernel timestamps are CLOCK_MONOTONIC; sources count from open */
		frame.start_us = frame.start_us > ls->open_us ? frame.start_us - ls->open_us : 0;
		frame.end_us = frame.start_us;
		ir_source_sink_frame(ls->sink, &frame);
	}
	return 0;
}

static int lirc_dispatch(void *impl)
{
	struct lirc_source *ls = impl;
	int ret;

	if (ls->dev_fd < 0)
		return try_reopen(ls);
	ret = ls->mode == LIRC_MODE_SCANCODE ? read_scancodes(ls) : read_mode2(ls);
	if (ret == -EAGAIN || ret == -EINTR)
		return 0;
	if (ret == -ENODEV || ret == -EIO) {
		/* unplugged (the kernel unregistered the rc device) */
		device_gone(ls, -ret);
		return 0;
	}
	return ret;
}

static void lirc_stats(void *impl, struct ir_source_stats *st)
{
	struct lirc_source *ls = impl;

	snprintf(st->device, sizeof(st->device), "%s", ls->path);
	snprintf(st->format, sizeof(st->format), "%s",
		 ls->mode == LIRC_MODE_SCANCODE ? "scancode" : "mode2");
	st->xruns = ls->overflows;
	st->reopens = ls->reopens;
	st->connected = ls->dev_fd >= 0;
}

static int lirc_list(FILE *out, bool capture, bool playback)
{
	struct ir_lirc_dev_info info[MAX_RC_DEVICES];
	int n = ir_lirc_dev_discover("/sys", info, MAX_RC_DEVICES), shown = 0;

	if (n == -ENOENT)
		return 0; /* no rc-core at all: nothing to list */
	if (n < 0)
		return n;
	for (int i = 0; i < n && i < MAX_RC_DEVICES; i++) {
		char path[64];
		uint32_t features = 0;
		int fd;
		bool rx, tx;

		if (!info[i].lirc_name[0])
			continue;
		snprintf(path, sizeof(path), "/dev/%s", info[i].lirc_name);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			fprintf(out, "lirc:%s\t%s (%s), cannot open: %s\n", path,
				info[i].dev_name[0] ? info[i].dev_name : info[i].rc_name,
				info[i].driver, strerror(errno));
			shown++;
			continue;
		}
		if (ioctl(fd, LIRC_GET_FEATURES, &features) < 0)
			features = 0;
		close(fd);
		rx = receives(features);
		tx = (features & LIRC_CAN_SEND_PULSE) != 0;
		if (!((capture && rx) || (playback && tx)))
			continue;
		fprintf(out, "lirc:%s\t%s (%s, %s)%s%s%s%s\n", path,
			info[i].dev_name[0] ? info[i].dev_name : info[i].rc_name, info[i].driver,
			info[i].rc_name, rx ? ", receives" : "",
			features & LIRC_CAN_REC_MODE2 ? " mode2" : "",
			/* raw receivers give their rc-core decoders' scancodes too */
			rx ? " scancode" : "",
			tx ? ", transmits" : "");
		shown++;
	}
	return shown;
}

static const struct ir_source_backend ir_source_backend_lirc = {
	.name = "lirc",
	.kind = IR_SOURCE_KIND_TIMING,
	.summary = "the kernel's LIRC device (/dev/lircN): raw timings (mode2) or its decoded scancodes",
	.open = lirc_open,
	.fd = lirc_fd,
	.dispatch = lirc_dispatch,
	.stats = lirc_stats,
	.close = lirc_close,
	.list = lirc_list,
};

IR_SOURCE_BACKEND_REGISTER(ir_source_backend_lirc)
