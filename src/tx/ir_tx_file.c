/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx_file.c - the "file" transmitter: every send's timings appended to
 * a file as mode2 text (what tests and `irjack decode` read back).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_timing_io.h"
#include "ir_tx.h"

static int file_open(const char *device, const struct ir_tx_options *opt, void **impl,
		     char *err, size_t err_size)
{
	(void)opt;
	if (!device[0]) {
		snprintf(err, err_size, "file: no file name");
		return -EINVAL;
	}
	*impl = strdup(device);
	return *impl ? 0 : -ENOMEM;
}

static int file_send(void *impl, const struct ir_edge *edges, size_t n,
		     const struct ir_tx_carrier *carrier, char *err, size_t err_size)
{
	const char *path = impl;
	FILE *f = fopen(path, "a");
	int ret;

	(void)carrier;
	if (!f) {
		ret = -errno;
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return ret;
	}
	ret = ir_timing_write_mode2(f, edges, n);
	if (fclose(f) != 0 && ret == 0)
		ret = -EIO;
	if (ret < 0)
		snprintf(err, err_size, "%s: %s", path, strerror(-ret));
	return ret;
}

static void file_close(void *impl)
{
	free(impl);
}

static const struct ir_tx_backend ir_tx_backend_file = {
	.name = "file",
	.summary = "timings appended to a file as mode2 text",
	.open = file_open,
	.send = file_send,
	.close = file_close,
};

IR_TX_BACKEND_REGISTER(ir_tx_backend_file)
