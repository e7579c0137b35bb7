/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_uinput.h - key presses as a Linux input device (libevdev's uinput),
 * as rc-core's devices report them: EV_MSC/MSC_SCAN with the scancode on
 * every frame, then EV_KEY down (1) and up (0); the kernel's own autorepeat
 * (EV_REP) makes the repeats applications see while a key is held.
 */
#ifndef IRJACK_OUT_UINPUT_H
#define IRJACK_OUT_UINPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ir_keymap.h"
#include "ir_keypress.h"

/* What a configuration says about the device (irjackd.conf's [output
 * uinput]); the output kind "uinput" (ir_output.h) takes it. */
struct ir_uinput_settings {
	char name[64];
	uint16_t vendor, product;
	/* One device per keymap remote (out_uinput_remotes.h) instead of
	 * one for everything; `product` is then each remote's own. */
	bool per_remote;
};

struct ir_uinput_config {
	const char *name;       /* device name; default "irjack" */
	uint16_t vendor, product;
	/* The keys the device can send: every Linux key of the keymap (may be
	 * NULL: then every KEY_ code up to KEY_MAX is declared). */
	const struct ir_keymap *keymap;
	/* Only the keys of the keymap's remotes called this (NULL: all). */
	const char *remote;
	/* Autorepeat delay and period (ms); 0: the kernel's defaults. */
	unsigned repeat_delay_ms, repeat_period_ms;
};

struct ir_uinput;

/* Creates the device through /dev/uinput.  Returns 0 and sets *out, or a
 * negative errno (-ENOENT/-EACCES when /dev/uinput is missing or not
 * writable). */
int ir_uinput_new(const struct ir_uinput_config *cfg, struct ir_uinput **out);
void ir_uinput_free(struct ir_uinput *u);

/* The device node (/dev/input/eventN), or NULL if unknown. */
const char *ir_uinput_devnode(const struct ir_uinput *u);

/* True if the device can emit every key code `keymap` binds (after a
 * reload, a device that cannot must be recreated: uinput devices cannot
 * gain keys). */
bool ir_uinput_has_keys(const struct ir_uinput *u, const struct ir_keymap *keymap);

/* Sends one event: MSC_SCAN for a press or repeat, the key for a press or
 * release of a named Linux key.  Returns 0 or a negative errno. */
int ir_uinput_event(struct ir_uinput *u, const struct ir_key_event *event);

#endif
