/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * evdev_probe.c - reads back what an input device (in the VM: irjackd's
 * uinput device) reports, through the kernel's evdev node: waits for the
 * device called NAME to appear, then prints every key and MSC_SCAN event
 * as "CODE VALUE TIME" lines on stdout (keys: 1 down, 2 autorepeat, 0 up;
 * MSC_SCAN: the scancode in hex; TIME: the event's timestamp, seconds)
 * until SECONDS have passed.  "evdev_probe: ready DEVNODE" on stderr once
 * the device is open, so a script knows when to start sending.
 * Usage: evdev_probe NAME SECONDS
 * Exit: 0 when the device was found and read, 1 when it never appeared,
 * 2 on errors.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libevdev/libevdev.h>

/* How long the device may take to appear (irjackd creates it at start or
 * recreates it on reload). */
#define APPEAR_TIMEOUT_MS 20000

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Opens the evdev node whose device is called `name`; returns the
 * libevdev handle (its fd owned by the caller) or NULL. */
static struct libevdev *open_named(const char *name, char *node, size_t node_size)
{
	DIR *d = opendir("/dev/input");
	struct dirent *e;
	struct libevdev *found = NULL;

	if (!d)
		return NULL;
	while (!found && (e = readdir(d))) {
		struct libevdev *dev;
		int fd;

		if (strncmp(e->d_name, "event", 5))
			continue;
		snprintf(node, node_size, "/dev/input/%s", e->d_name);
		fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (libevdev_new_from_fd(fd, &dev) == 0) {
			if (libevdev_get_name(dev) && !strcmp(libevdev_get_name(dev), name)) {
				found = dev;
				continue;
			}
			libevdev_free(dev);
		}
		close(fd);
	}
	closedir(d);
	return found;
}

static void print_event(const struct input_event *ev)
{
	double t = (double)ev->input_event_sec + (double)ev->input_event_usec / 1e6;

	if (ev->type == EV_KEY)
		printf("%s %d %.6f\n", libevdev_event_code_get_name(EV_KEY, ev->code), ev->value, t);
	else if (ev->type == EV_MSC && ev->code == MSC_SCAN)
		printf("MSC_SCAN 0x%x %.6f\n", (unsigned)ev->value, t);
	else
		return;
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct libevdev *dev = NULL;
	char node[300];
	double end, give_up;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "Usage: evdev_probe NAME SECONDS\n");
		return 2;
	}
	give_up = monotonic_s() + APPEAR_TIMEOUT_MS / 1000.0;
	while (!(dev = open_named(argv[1], node, sizeof(node)))) {
		if (monotonic_s() > give_up) {
			fprintf(stderr, "evdev_probe: no input device called \"%s\"\n", argv[1]);
			return 1;
		}
		usleep(100000);
	}
	fd = libevdev_get_fd(dev);
	fprintf(stderr, "evdev_probe: ready %s\n", node);
	end = monotonic_s() + atof(argv[2]);
	for (;;) {
		double left = end - monotonic_s();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct input_event ev;
		int rc;

		if (left <= 0)
			break;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		do {
			rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, &ev);
			if (rc == LIBEVDEV_READ_STATUS_SYNC) {
				/* a dropped buffer: report what the resync gives */
				while (rc == LIBEVDEV_READ_STATUS_SYNC) {
					print_event(&ev);
					rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_SYNC, &ev);
				}
				fprintf(stderr, "evdev_probe: events dropped (SYN_DROPPED)\n");
			} else if (rc == LIBEVDEV_READ_STATUS_SUCCESS) {
				print_event(&ev);
			}
		} while (rc == LIBEVDEV_READ_STATUS_SUCCESS || rc == LIBEVDEV_READ_STATUS_SYNC);
		if (rc == -ENODEV) {
			fprintf(stderr, "evdev_probe: the device went away\n");
			break;
		}
	}
	libevdev_free(dev);
	close(fd);
	return 0;
}
