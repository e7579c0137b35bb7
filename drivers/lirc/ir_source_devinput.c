/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_devinput.c - the kernel's rc-core input devices
 * (/dev/input/eventN of a receiver that decodes in the kernel or in its
 * hardware) as a source, read with libevdev, as lircd's devinput driver
 * reads them.
 *
 * Spec: "devinput" or "devinput:auto" (every rc-core receiver's input
 * device: /sys/class/rc/rc*\/input*\/event*), "devinput:rcN" (that
 * receiver's), "devinput:name=GLOB" (the first input device whose name
 * matches, lircd's syntax), or "devinput:/dev/input/..." (a path; by-id
 * links too).  Option after '?': "grab=0" leaves the device shared (by
 * default it is grabbed, as lircd does, so that its keys do not also reach
 * the desktop through the kernel's own input device).
 *
 * What becomes a frame, once per input report (SYN_REPORT):
 * - EV_MSC/MSC_SCAN: the scancode, with the protocol selected in the
 *   receiver's sysfs protocols file (ir_devinput.h picks the variant);
 * - a key press (EV_KEY 1) for which the keymap holds lircd's devinput code
 *   (Debian's devinput.lircd.conf): that remote's frame, and then one
 *   repeat frame per MSC_SCAN while the kernel holds the key down (rc-core
 *   reports a scancode for every frame and repeat code it receives; the
 *   input layer's auto-repeat, 500 ms late, is used only by devices without
 *   MSC_SCAN).
 * A report gives one frame: the scancode's when the keymap names it, else
 * the lircd key's when there is one, else the (unnamed) scancode's, so a
 * held button never flips between two "keys".
 *
 * As in ir_source_lirc.c, the fd the caller polls is an epoll set; while
 * the devices are gone the reopen timer (ir_reopen.h) drives the attempts (100 ms,
 * doubling up to 2 s).
 */
#include "ir_source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>

#include "ir_devinput.h"
#include "ir_reopen.h"
#include "ir_time.h"

#define MAX_INPUTS 8
#define RETRY_FIRST_MS 100
#define RETRY_MAX_MS 2000
#define SYSFS "/sys"

struct devinput_in {
	struct libevdev *dev;
	int fd;
	char path[PATH_MAX];  /* a /dev/input/by-id name may be long */
	char rc_name[32];     /* "" for an input device of no rc-core receiver */
	struct ir_devinput_reader rd; /* its events to frames */
};

struct devinput_source {
	struct ir_source_sink *sink;
	const struct ir_keymap *keymap;
	char want[128];
	bool grab;
	struct devinput_in in[MAX_INPUTS];
	unsigned n_in;
	int epoll_fd;
	struct ir_reopen reopen; /* its timer is in the epoll set */
	uint64_t open_us;
	uint64_t reopens, frames, drops;
};

/* ---- finding the devices ---- */

static void add_path(struct devinput_source *ds, const char *path, const char *rc_name)
{
	struct devinput_in *in;

	if (ds->n_in == MAX_INPUTS)
		return;
	in = &ds->in[ds->n_in++];
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	snprintf(in->path, sizeof(in->path), "%.*s", (int)sizeof(in->path) - 1, path);
	snprintf(in->rc_name, sizeof(in->rc_name), "%.*s", (int)sizeof(in->rc_name) - 1, rc_name);
}

/* The rc device an event node belongs to ("" if none). */
static void rc_of_event(const char *path, char *rc_name, size_t size)
{
	struct ir_devinput_dev devs[MAX_INPUTS * 4];
	char real[PATH_MAX];
	const char *base;
	int n = ir_devinput_discover(SYSFS, devs, sizeof(devs) / sizeof(devs[0]));

	rc_name[0] = '\0';
	if (!realpath(path, real))
		return;
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	for (int i = 0; i < n && i < (int)(sizeof(devs) / sizeof(devs[0])); i++)
		if (!strcmp(devs[i].event, base))
			snprintf(rc_name, size, "%s", devs[i].rc_name);
}

/* lircd's name=GLOB: the first /dev/input/event* whose name matches. */
static int find_by_name(struct devinput_source *ds, const char *glob)
{
	struct dirent **names;
	int n = scandir("/dev/input", &names, NULL, versionsort), ret = -ENOENT;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		char path[64], rc[32];
		struct libevdev *dev = NULL;
		int fd;

		snprintf(path, sizeof(path), "/dev/input/%.40s", names[i]->d_name);
		if (ret == -ENOENT && !strncmp(names[i]->d_name, "event", 5) &&
		    (fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) >= 0) {
			if (libevdev_new_from_fd(fd, &dev) == 0 &&
			    fnmatch(glob, libevdev_get_name(dev), 0) == 0) {
				rc_of_event(path, rc, sizeof(rc));
				add_path(ds, path, rc);
				ret = 0;
			}
			libevdev_free(dev);
			close(fd);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

/* Fills ds->in[] with the devices `want` names (not opened yet). */
static int resolve(struct devinput_source *ds)
{
	struct ir_devinput_dev devs[MAX_INPUTS];
	bool all = !ds->want[0] || !strcmp(ds->want, "auto");
	int n;

	ds->n_in = 0;
	if (ds->want[0] == '/') {
		char rc[32];

		rc_of_event(ds->want, rc, sizeof(rc));
		add_path(ds, ds->want, rc);
		return 0;
	}
	if (!strncmp(ds->want, "name=", 5))
		return find_by_name(ds, ds->want + 5);
	n = ir_devinput_discover(SYSFS, devs, MAX_INPUTS);
	if (n < 0)
		return n;
	for (int i = 0; i < n && i < MAX_INPUTS; i++) {
		char path[64];

		if (!all && strcmp(ds->want, devs[i].rc_name))
			continue;
		snprintf(path, sizeof(path), "/dev/input/%.40s", devs[i].event);
		add_path(ds, path, devs[i].rc_name);
	}
	return ds->n_in ? 0 : -ENOENT;
}

/* ---- opening and closing ---- */

static void close_inputs(struct devinput_source *ds)
{
	for (unsigned i = 0; i < ds->n_in; i++) {
		struct devinput_in *in = &ds->in[i];

		if (in->fd >= 0) {
			epoll_ctl(ds->epoll_fd, EPOLL_CTL_DEL, in->fd, NULL);
			libevdev_free(in->dev);
			close(in->fd);
		}
		in->dev = NULL;
		in->fd = -1;
	}
	ds->n_in = 0;
}

static int open_input(struct devinput_source *ds, unsigned i, char *err, size_t err_size)
{
	struct devinput_in *in = &ds->in[i];
	int ret, fd = open(in->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_size, "%s: %s", in->path, strerror(errno));
		return ret;
	}
	ret = libevdev_new_from_fd(fd, &in->dev);
	if (ret < 0) {
		snprintf(err, err_size, "%s: not an input device (%s)", in->path, strerror(-ret));
		close(fd);
		in->dev = NULL;
		return ret == -ENOTTY || ret == -EINVAL ? -ENOTTY : ret;
	}
	in->fd = fd;
	/* frames count from the source's open, on the monotonic clock */
	libevdev_set_clock_id(in->dev, CLOCK_MONOTONIC);
	if (ds->grab)
		libevdev_grab(in->dev, LIBEVDEV_GRAB); /* shared if refused, as lircd */
	ret = in->rc_name[0] ? ir_devinput_read_protocols(SYSFS, in->rc_name) : 0;
	ir_devinput_reader_init(&in->rd, ret > 0 ? (unsigned)ret : 0,
				libevdev_has_event_code(in->dev, EV_MSC, MSC_SCAN), ds->keymap);
	if (epoll_ctl(ds->epoll_fd, EPOLL_CTL_ADD, fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = i }) < 0) {
		ret = -errno;
		snprintf(err, err_size, "epoll: %s", strerror(errno));
		return ret;
	}
	return 0;
}

static int open_devices(struct devinput_source *ds, char *err, size_t err_size)
{
	int ret = resolve(ds);

	if (ret < 0) {
		snprintf(err, err_size, "devinput:%s: %s", ds->want[0] ? ds->want : "auto",
			 !strncmp(ds->want, "name=", 5) ? "no input device of that name"
							: "no rc-core input device in /sys/class/rc");
		ds->n_in = 0;
		return ret;
	}
	for (unsigned i = 0; i < ds->n_in; i++) {
		ret = open_input(ds, i, err, err_size);
		if (ret < 0) {
			close_inputs(ds);
			return ret;
		}
	}
	return 0;
}

/* One device went away: all are closed and looked for again (a receiver
 * unplugged takes its input devices with it). */
static void devices_gone(struct devinput_source *ds, const char *path, int why)
{
	char msg[200];

	snprintf(msg, sizeof(msg), "%s: %s; trying to reopen it", path, strerror(why));
	close_inputs(ds);
	ir_reopen_gone(&ds->reopen, ir_monotonic_ms());
	ir_source_sink_event(ds->sink, IR_SOURCE_GONE, msg);
}

static void devinput_close(void *impl)
{
	struct devinput_source *ds = impl;

	if (!ds)
		return;
	close_inputs(ds);
	ir_reopen_free(&ds->reopen);
	if (ds->epoll_fd >= 0)
		close(ds->epoll_fd);
	free(ds);
}

static int parse_device(struct devinput_source *ds, const char *device, char *err, size_t err_size)
{
	const char *q = strchr(device, '?');
	size_t len = q ? (size_t)(q - device) : strlen(device);

	if (len >= sizeof(ds->want)) {
		snprintf(err, err_size, "devinput: device name too long");
		return -EINVAL;
	}
	memcpy(ds->want, device, len);
	ds->want[len] = '\0';
	ds->grab = true;
	while (q && *q) {
		const char *opt = q + 1, *end = strchr(opt, '&');
		size_t olen = end ? (size_t)(end - opt) : strlen(opt);

		if (olen == 6 && !strncmp(opt, "grab=0", 6))
			ds->grab = false;
		else if (olen == 6 && !strncmp(opt, "grab=1", 6))
			ds->grab = true;
		else {
			snprintf(err, err_size, "devinput: unknown option '%.*s' (grab=0|1)", (int)olen,
				 opt);
			return -EINVAL;
		}
		q = end;
	}
	return 0;
}

static int devinput_open(const char *device, const struct ir_source_options *opt,
			 struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct devinput_source *ds = calloc(1, sizeof(*ds));
	int ret;

	if (!ds) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ds->sink = sink;
	ds->keymap = opt->keymap;
	ir_reopen_init(&ds->reopen, RETRY_FIRST_MS, RETRY_MAX_MS);
	ds->epoll_fd = -1;
	ret = parse_device(ds, device, err, err_size);
	if (ret < 0)
		goto fail;
	ds->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (ds->epoll_fd < 0 || ir_reopen_timer_new(&ds->reopen) < 0 ||
	    epoll_ctl(ds->epoll_fd, EPOLL_CTL_ADD, ds->reopen.timer_fd,
		      &(struct epoll_event){ .events = EPOLLIN, .data.u32 = MAX_INPUTS }) < 0) {
		ret = -errno;
		snprintf(err, err_size, "%s", strerror(errno));
		goto fail;
	}
	ret = open_devices(ds, err, err_size);
	if (ret < 0)
		goto fail;
	ds->open_us = ir_monotonic_us();
	*impl = ds;
	return 0;
fail:
	devinput_close(ds);
	return ret;
}

static int devinput_fd(void *impl)
{
	return ((struct devinput_source *)impl)->epoll_fd;
}

/* ---- events to frames ---- */

static void on_event(struct devinput_source *ds, struct devinput_in *in,
		     const struct input_event *ev)
{
	uint64_t t = (uint64_t)ev->input_event_sec * 1000000u + (uint64_t)ev->input_event_usec;
	struct ir_frame f;

	if (ir_devinput_reader_event(&in->rd, ev->type, ev->code, ev->value,
				     t > ds->open_us ? t - ds->open_us : 0, &f)) {
		ds->frames++;
		ir_source_sink_frame(ds->sink, &f);
	}
}

static int read_input(struct devinput_source *ds, struct devinput_in *in)
{
	unsigned flag = LIBEVDEV_READ_FLAG_NORMAL;
	struct input_event ev;
	int rc;

	while ((rc = libevdev_next_event(in->dev, flag, &ev)) >= 0) {
		if (rc == LIBEVDEV_READ_STATUS_SYNC) {
			/* the kernel's buffer overflowed: what was cut is lost */
			if (flag == LIBEVDEV_READ_FLAG_NORMAL)
				ds->drops++;
			flag = LIBEVDEV_READ_FLAG_SYNC;
			ir_devinput_reader_drop(&in->rd);
			continue;
		}
		if (flag == LIBEVDEV_READ_FLAG_NORMAL)
			on_event(ds, in, &ev);
	}
	if (rc == -EAGAIN && flag == LIBEVDEV_READ_FLAG_SYNC)
		return 0;
	return rc;
}

static int reopen_devices(void *ctx)
{
	char err[200];

	return open_devices(ctx, err, sizeof(err));
}

static void try_reopen(struct devinput_source *ds)
{
	char msg[240];

	if (!ir_reopen_attempt(&ds->reopen, ir_monotonic_ms(), false, reopen_devices, ds))
		return;
	ds->reopens++;
	snprintf(msg, sizeof(msg), "%.200s: open again", ds->in[0].path);
	ir_source_sink_event(ds->sink, IR_SOURCE_BACK, msg);
}

static int devinput_dispatch(void *impl)
{
	struct devinput_source *ds = impl;

	if (!ds->n_in) {
		try_reopen(ds);
		return 0;
	}
	for (unsigned i = 0; i < ds->n_in; i++) {
		int ret = read_input(ds, &ds->in[i]);

		if (ret == -EAGAIN || ret == -EINTR)
			continue;
		if (ret == -ENODEV || ret == -EIO) {
			char path[64];

			memcpy(path, ds->in[i].path, sizeof(path));
			devices_gone(ds, path, -ret);
			return 0;
		}
		return ret;
	}
	return 0;
}

static void devinput_stats(void *impl, struct ir_source_stats *st)
{
	struct devinput_source *ds = impl;
	size_t at = 0;

	st->device[0] = '\0';
	for (unsigned i = 0; i < ds->n_in && at < sizeof(st->device); i++)
		at += (size_t)snprintf(st->device + at, sizeof(st->device) - at, "%s%s",
				       i ? "," : "", ds->in[i].path);
	if (!ds->n_in)
		snprintf(st->device, sizeof(st->device), "%s", ds->want[0] ? ds->want : "auto");
	snprintf(st->format, sizeof(st->format), "scancode");
	st->xruns = ds->drops;
	st->reopens = ds->reopens;
	st->connected = ds->n_in > 0;
}

static int devinput_list(FILE *out, bool capture, bool playback)
{
	struct ir_devinput_dev devs[MAX_INPUTS];
	int n, shown = 0;

	(void)playback;
	if (!capture)
		return 0;
	n = ir_devinput_discover(SYSFS, devs, MAX_INPUTS);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	for (int i = 0; i < n && i < MAX_INPUTS; i++) {
		int g = ir_devinput_read_protocols(SYSFS, devs[i].rc_name);

		fprintf(out, "devinput:/dev/input/%s\t%s's input device (kernel-decoded%s)\n",
			devs[i].event, devs[i].rc_name, g > 0 ? "" : ", no protocol selected");
		shown++;
	}
	return shown;
}

static const struct ir_source_backend ir_source_backend_devinput = {
	.name = "devinput",
	.kind = IR_SOURCE_KIND_TIMING,
	.summary = "the kernel's rc-core input device (/dev/input/eventN): scancodes and keys, "
		   "as lircd's devinput driver",
	.open = devinput_open,
	.fd = devinput_fd,
	.dispatch = devinput_dispatch,
	.stats = devinput_stats,
	.close = devinput_close,
	.list = devinput_list,
};

IR_SOURCE_BACKEND_REGISTER(ir_source_backend_devinput)
