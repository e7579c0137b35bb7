/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_uinput_remotes.h - one input device per keymap remote, as the
 * in-kernel IR design promised (an input device per configured remote), so
 * applications tell remotes apart and a keymap change touches one device.
 *
 * Each remote's device is called "<name> <remote>" (name: the configured
 * device name, "irjack" by default), declares only that remote's Linux
 * keys, and has the configured vendor id with a product id derived from the
 * remote's name (ir_uinput_remote_product()), stable across restarts so
 * udev rules can match it.  Remotes that share a name (two keymap files
 * both saying "tv") share one device with the union of their keys.
 *
 * ir_uinput_remotes_update() brings the set in line with a keymap: a
 * remote whose key set did not change keeps its device (open readers stay),
 * new remotes get one, remotes gone lose theirs, a remote whose keys
 * changed gets a new one (uinput devices cannot change their keys).
 * Key events go to the device of their remote; events without a remote
 * (frames no keymap names) go nowhere.
 *
 * Devices are made through a table of operations (real uinput devices by
 * default), so the mapping is tested without /dev/uinput.
 */
#ifndef IRJACK_OUT_UINPUT_REMOTES_H
#define IRJACK_OUT_UINPUT_REMOTES_H

#include <stddef.h>
#include <stdint.h>

#include "ir_keymap.h"
#include "ir_keypress.h"
#include "out_uinput.h"

/* How a device is made, fed and removed; `dev` is the operations' own. */
struct ir_uinput_device_ops {
	/* Returns 0 and *dev, or a negative errno. */
	int (*create)(void *userdata, const struct ir_uinput_config *cfg, void **dev);
	int (*event)(void *dev, const struct ir_key_event *ev);
	const char *(*devnode)(void *dev); /* may return NULL */
	void (*destroy)(void *dev);
	void *userdata;
};

/* The product id of remote `remote`'s device: the 32-bit FNV-1a hash of
 * its name folded to 16 bits (high half XOR low half); 0 becomes 1. */
uint16_t ir_uinput_remote_product(const char *remote);

/* "<prefix> <remote>" into buf, cut to fit (uinput takes 79 characters). */
void ir_uinput_remote_device_name(const char *prefix, const char *remote, char *buf,
				  size_t size);

struct ir_uinput_remotes_config {
	const char *name;  /* device name prefix; NULL: "irjack" */
	uint16_t vendor;
	const struct ir_uinput_device_ops *ops; /* NULL: real uinput devices */
};

/* What an update did. */
struct ir_uinput_remotes_change {
	unsigned kept, created, removed, failed;
};

struct ir_uinput_remotes;

/* An empty set (no device yet).  Returns 0 and *out, -EINVAL, -ENOMEM. */
int ir_uinput_remotes_new(const struct ir_uinput_remotes_config *cfg,
			  struct ir_uinput_remotes **out);
void ir_uinput_remotes_free(struct ir_uinput_remotes *set);

/*
 * Makes the set one device per remote of `km` (NULL: none), as described
 * above; *change (may be NULL) says what happened.  A device that cannot
 * be made is counted as failed, its reason in `err` (the first one), and
 * tried again at the next update; the others are made all the same.
 * Returns 0, the first failure's negative errno, or -ENOMEM.
 */
int ir_uinput_remotes_update(struct ir_uinput_remotes *set, const struct ir_keymap *km,
			     struct ir_uinput_remotes_change *change, char *err, size_t err_size);

/* Sends `ev` to its remote's device: 0, -ENOENT when no device serves
 * ev->remote (NULL or unknown), or the device's negative errno. */
int ir_uinput_remotes_event(struct ir_uinput_remotes *set, const struct ir_key_event *ev);

/* The devices, in the keymap's remote order: count, remote name, node. */
size_t ir_uinput_remotes_count(const struct ir_uinput_remotes *set);
const char *ir_uinput_remotes_remote(const struct ir_uinput_remotes *set, size_t i);
const char *ir_uinput_remotes_devnode(const struct ir_uinput_remotes *set, size_t i);

#endif
