/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_lirc_tx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/lirc.h>

/* Whole frames resent in scancode mode are at least this far apart, so a
 * receiver sees separate frames even for protocols with a short trailer. */
#define SCANCODE_MIN_GAP_US 20000u

struct ir_lirc_tx {
	int fd;
	uint32_t features;
};

int ir_lirc_tx_open(const char *path, struct ir_lirc_tx **out)
{
	struct ir_lirc_tx *tx;
	int fd = open(path, O_RDWR | O_CLOEXEC);
	uint32_t features = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, LIRC_GET_FEATURES, &features) < 0) {
		int err = errno == EINVAL ? ENOTTY : errno;

		close(fd);
		return -err;
	}
	if (!(features & LIRC_CAN_SEND_PULSE)) {
		close(fd);
		return -EOPNOTSUPP;
	}
	tx = calloc(1, sizeof(*tx));
	if (!tx) {
		close(fd);
		return -ENOMEM;
	}
	tx->fd = fd;
	tx->features = features;
	*out = tx;
	return 0;
}

void ir_lirc_tx_free(struct ir_lirc_tx *tx)
{
	if (!tx)
		return;
	close(tx->fd);
	free(tx);
}

uint32_t ir_lirc_tx_features(const struct ir_lirc_tx *tx)
{
	return tx->features;
}

static int set_u32(struct ir_lirc_tx *tx, uint32_t feature, unsigned long request, uint32_t value)
{
	if (!(tx->features & feature))
		return -EOPNOTSUPP;
	if (ioctl(tx->fd, request, &value) < 0)
		return -errno;
	return 0;
}

int ir_lirc_tx_set_carrier(struct ir_lirc_tx *tx, uint32_t hz)
{
	return set_u32(tx, LIRC_CAN_SET_SEND_CARRIER, LIRC_SET_SEND_CARRIER, hz);
}

int ir_lirc_tx_set_duty_cycle(struct ir_lirc_tx *tx, uint32_t percent)
{
	if (percent < 1 || percent > 99)
		return -EINVAL;
	return set_u32(tx, LIRC_CAN_SET_SEND_DUTY_CYCLE, LIRC_SET_SEND_DUTY_CYCLE, percent);
}

int ir_lirc_tx_set_transmitters(struct ir_lirc_tx *tx, uint32_t mask, unsigned *count)
{
	int ret;

	if (count)
		*count = 0;
	if (!(tx->features & LIRC_CAN_SET_TRANSMITTER_MASK))
		return -EOPNOTSUPP;
	ret = ioctl(tx->fd, LIRC_SET_TRANSMITTER_MASK, &mask);
	if (ret < 0)
		return -errno;
	if (ret > 0) {
		/* LIRC's way of saying "no such transmitter; I have ret" */
		if (count)
			*count = (unsigned)ret;
		return -EINVAL;
	}
	return 0;
}

/* Appends one level to the merged pulse/space list (even index = pulse). */
static int push_level(uint32_t **v, size_t *len, size_t *cap, bool pulse, uint32_t us)
{
	if (us == 0)
		return 0;
	if (*len == 0 && !pulse)
		return 0; /* a write starts with a pulse */
	if (*len > 0 && ((*len - 1) % 2 == 0) == pulse) {
		uint64_t sum = (uint64_t)(*v)[*len - 1] + us;

		(*v)[*len - 1] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
		return 0;
	}
	if (*len == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		uint32_t *nv = realloc(*v, ncap * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*len)++] = us;
	return 0;
}

int ir_lirc_tx_plan(const struct ir_edge *edges, size_t n, uint32_t **values,
		    struct ir_lirc_tx_chunk **chunks)
{
	uint32_t *v = NULL;
	struct ir_lirc_tx_chunk *c = NULL;
	size_t len = 0, cap = 0, nchunks = 0, start = 0;
	int ret = 0;

	*values = NULL;
	*chunks = NULL;
	for (size_t i = 0; i < n && ret == 0; i++) {
		if (edges[i].kind == IR_PULSE)
			ret = push_level(&v, &len, &cap, true, edges[i].duration);
		else if (edges[i].kind == IR_SPACE || edges[i].kind == IR_TIMEOUT)
			ret = push_level(&v, &len, &cap, false, edges[i].duration);
	}
	if (ret < 0)
		goto fail;
	if (len % 2 == 0 && len > 0)
		len--; /* the trailing space is silence the kernel need not play */
	if (len == 0) {
		free(v);
		return 0;
	}
	/* at most one chunk per pulse */
	c = calloc(len / 2 + 1, sizeof(*c));
	if (!c) {
		ret = -ENOMEM;
		goto fail;
	}
	while (start < len) {
		uint64_t total = v[start];
		size_t end = start; /* last pulse of the chunk */
		size_t longest = 0; /* index of the chunk's longest space, 0 = none */

		if (v[start] > IR_LIRC_TX_MAX_US) {
			ret = -ERANGE;
			goto fail;
		}
		while (end + 2 < len) {
			uint64_t more = (uint64_t)v[end + 1] + v[end + 2];

			if (end + 3 - start > IR_LIRC_TX_MAX_VALUES || total + more > IR_LIRC_TX_MAX_US)
				break;
			if (!longest || v[end + 1] >= v[longest]) /* the latest of equals: longer writes */
				longest = end + 1;
			total += more;
			end += 2;
		}
		if (end + 2 < len) {
			/* Cut where the line is quiet longest: the next write's
			 * start then lands in a gap, not inside a frame.  With no
			 * space in the chunk, the cut comes after its one pulse. */
			size_t cut = longest && v[longest] > v[end + 1] ? longest : end + 1;

			c[nchunks++] = (struct ir_lirc_tx_chunk){ start, cut - start, v[cut] };
			start = cut + 1;
		} else {
			c[nchunks++] = (struct ir_lirc_tx_chunk){ start, end + 1 - start, 0 };
			start = end + 1;
		}
	}
	*values = v;
	*chunks = c;
	return (int)nchunks;
fail:
	free(v);
	free(c);
	return ret;
}

static void sleep_us(uint32_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000u, .tv_nsec = (long)(us % 1000000u) * 1000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static int write_all(int fd, const void *buf, size_t size)
{
	ssize_t got;

	do
		got = write(fd, buf, size);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	return (size_t)got == size ? 0 : -EIO;
}

int ir_lirc_tx_send_edges(struct ir_lirc_tx *tx, const struct ir_edge *edges, size_t n)
{
	uint32_t mode = LIRC_MODE_PULSE;
	uint32_t *v;
	struct ir_lirc_tx_chunk *c;
	int nchunks = ir_lirc_tx_plan(edges, n, &v, &c);
	int ret = 0;

	if (nchunks <= 0)
		return nchunks;
	if (ioctl(tx->fd, LIRC_SET_SEND_MODE, &mode) < 0)
		ret = -errno;
	for (int i = 0; i < nchunks && ret == 0; i++) {
		ret = write_all(tx->fd, v + c[i].first, c[i].count * sizeof(*v));
		if (ret == 0 && c[i].gap_us)
			sleep_us(c[i].gap_us);
	}
	free(v);
	free(c);
	return ret;
}

int ir_lirc_tx_send_scancode(struct ir_lirc_tx *tx, enum ir_protocol protocol, uint64_t scancode,
			     unsigned repeats)
{
	const struct ir_protocol_info *info = ir_protocol_get(protocol);
	struct lirc_scancode sc = { .rc_proto = (uint16_t)protocol, .scancode = scancode };
	uint32_t mode = LIRC_MODE_SCANCODE;
	uint32_t gap;
	int ret;

	/* irjack's numbers below 28 are rc_proto's; the kernel knows no others */
	if (!info || protocol <= IR_PROTO_OTHER || protocol > IR_PROTO_XBOX_DVD)
		return -EPROTONOSUPPORT;
	gap = info->min_trailing_space_us > SCANCODE_MIN_GAP_US ? info->min_trailing_space_us
								 : SCANCODE_MIN_GAP_US;
	if (ioctl(tx->fd, LIRC_SET_SEND_MODE, &mode) < 0)
		return -errno;
	for (unsigned i = 0; i <= repeats; i++) {
		if (i)
			sleep_us(gap);
		ret = write_all(tx->fd, &sc, sizeof(sc));
		if (ret < 0)
			return ret;
	}
	return 0;
}
