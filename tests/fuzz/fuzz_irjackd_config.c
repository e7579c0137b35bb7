/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: irjackd's INI configuration parser. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fmemopen */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "irjackd_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct irjackd_config cfg;
	struct irjackd_config_error err;
	FILE *f;

	if (size == 0)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	irjackd_config_defaults(&cfg);
	irjackd_config_load_stream(f, "fuzz", &cfg, &err);
	fclose(f);
	return 0;
}
