/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_uinput_remotes.c - a uinput device per keymap remote.
 */
#include "out_uinput_remotes.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/input-event-codes.h>

#define KEY_BITS_SIZE ((KEY_MAX + 8) / 8)

/* One remote's device and the keys it was made with. */
struct remote_dev {
	char *remote;
	void *dev;
	uint8_t keys[KEY_BITS_SIZE];
};

struct ir_uinput_remotes {
	char prefix[64];
	uint16_t vendor;
	struct ir_uinput_device_ops ops;
	struct remote_dev *devs;
	size_t count;
};

/* ---- the real devices ---- */

static int real_create(void *userdata, const struct ir_uinput_config *cfg, void **dev)
{
	(void)userdata;
	return ir_uinput_new(cfg, (struct ir_uinput **)dev);
}

static int real_event(void *dev, const struct ir_key_event *ev)
{
	return ir_uinput_event(dev, ev);
}

static const char *real_devnode(void *dev)
{
	return ir_uinput_devnode(dev);
}

static void real_destroy(void *dev)
{
	ir_uinput_free(dev);
}

static const struct ir_uinput_device_ops real_ops = {
	.create = real_create,
	.event = real_event,
	.devnode = real_devnode,
	.destroy = real_destroy,
};

/* ---- naming ---- */

uint16_t ir_uinput_remote_product(const char *remote)
{
	/* FNV-1a, 32 bits: offset basis 2166136261, prime 16777619 */
	uint32_t h = 2166136261u;
	uint16_t p;

	for (const unsigned char *c = (const unsigned char *)remote; c && *c; c++)
		h = (h ^ *c) * 16777619u;
	p = (uint16_t)((h >> 16) ^ (h & 0xffff));
	return p ? p : 1;
}

void ir_uinput_remote_device_name(const char *prefix, const char *remote, char *buf,
				  size_t size)
{
	/* UINPUT_MAX_NAME_SIZE is 80 with the terminating NUL */
	if (size > 80)
		size = 80;
	snprintf(buf, size, "%s %s", prefix, remote);
}

/* ---- the set ---- */

int ir_uinput_remotes_new(const struct ir_uinput_remotes_config *cfg,
			  struct ir_uinput_remotes **out)
{
	struct ir_uinput_remotes *set;

	if (!cfg || !out)
		return -EINVAL;
	set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	snprintf(set->prefix, sizeof(set->prefix), "%s", cfg->name ? cfg->name : "irjack");
	set->vendor = cfg->vendor;
	set->ops = cfg->ops ? *cfg->ops : real_ops;
	*out = set;
	return 0;
}

static void dev_drop(struct ir_uinput_remotes *set, struct remote_dev *d)
{
	if (d->dev)
		set->ops.destroy(d->dev);
	free(d->remote);
	d->dev = NULL;
	d->remote = NULL;
}

void ir_uinput_remotes_free(struct ir_uinput_remotes *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->count; i++)
		dev_drop(set, &set->devs[i]);
	free(set->devs);
	free(set);
}

/* The Linux keys of every remote of `km` called `remote`. */
static void remote_keys(const struct ir_keymap *km, const char *remote, uint8_t *bits)
{
	memset(bits, 0, KEY_BITS_SIZE);
	for (size_t i = 0; i < ir_keymap_key_count(km); i++) {
		const struct ir_keymap_key *k = ir_keymap_key_at(km, i);

		if (k->keycode > 0 && k->keycode <= KEY_MAX &&
		    !strcmp(ir_keymap_remote_name(km, k->remote), remote))
			bits[k->keycode / 8] |= (uint8_t)(1u << (k->keycode % 8));
	}
}

/* The index of the device serving `remote` in `devs`, or n. */
static size_t find_dev(const struct remote_dev *devs, size_t n, const char *remote)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (devs[i].remote && !strcmp(devs[i].remote, remote))
			break;
	return i;
}

/* Makes remote `remote`'s device into *d (keys already in d->keys). */
static int dev_make(struct ir_uinput_remotes *set, const struct ir_keymap *km,
		    const char *remote, struct remote_dev *d, char *err, size_t err_size)
{
	char name[80];
	struct ir_uinput_config uc = {
		.name = name,
		.vendor = set->vendor,
		.product = ir_uinput_remote_product(remote),
		.keymap = km,
		.remote = remote,
	};
	int ret;

	ir_uinput_remote_device_name(set->prefix, remote, name, sizeof(name));
	ret = set->ops.create(set->ops.userdata, &uc, &d->dev);
	if (ret < 0) {
		d->dev = NULL;
		if (err && err_size && !err[0])
			snprintf(err, err_size, "uinput device '%s': %s", name, strerror(-ret));
	}
	return ret;
}

int ir_uinput_remotes_update(struct ir_uinput_remotes *set, const struct ir_keymap *km,
			     struct ir_uinput_remotes_change *change, char *err, size_t err_size)
{
	size_t remotes = km ? ir_keymap_remote_count(km) : 0, n = 0;
	struct ir_uinput_remotes_change c = { 0 };
	struct remote_dev *next = calloc(remotes ? remotes : 1, sizeof(*next));
	int first_err = 0;

	if (err && err_size)
		err[0] = '\0';
	if (!next)
		return -ENOMEM;
	for (unsigned r = 0; r < remotes; r++) {
		const char *name = ir_keymap_remote_name(km, r);
		struct remote_dev *d = &next[n];
		size_t old;

		if (find_dev(next, n, name) < n)
			continue; /* a second remote of that name: same device */
		d->remote = strdup(name);
		if (!d->remote) {
			first_err = first_err ? first_err : -ENOMEM;
			continue;
		}
		n++;
		remote_keys(km, name, d->keys);
		old = find_dev(set->devs, set->count, name);
		if (old < set->count && set->devs[old].dev &&
		    !memcmp(set->devs[old].keys, d->keys, KEY_BITS_SIZE)) {
			d->dev = set->devs[old].dev; /* kept: its readers stay */
			set->devs[old].dev = NULL;
			c.kept++;
		}
	}
	/* the devices not kept go before new ones take their names */
	for (size_t i = 0; i < set->count; i++) {
		if (set->devs[i].dev)
			c.removed++;
		dev_drop(set, &set->devs[i]);
	}
	free(set->devs);
	set->devs = next;
	set->count = n;
	for (size_t i = 0; i < n; i++) {
		int ret;

		if (next[i].dev)
			continue;
		ret = dev_make(set, km, next[i].remote, &next[i], err, err_size);
		if (ret < 0) {
			c.failed++;
			first_err = first_err ? first_err : ret;
		} else {
			c.created++;
		}
	}
	if (change)
		*change = c;
	return first_err;
}

int ir_uinput_remotes_event(struct ir_uinput_remotes *set, const struct ir_key_event *ev)
{
	size_t i;

	if (!ev->remote)
		return -ENOENT;
	i = find_dev(set->devs, set->count, ev->remote);
	if (i == set->count || !set->devs[i].dev)
		return -ENOENT;
	return set->ops.event(set->devs[i].dev, ev);
}

size_t ir_uinput_remotes_count(const struct ir_uinput_remotes *set)
{
	return set->count;
}

const char *ir_uinput_remotes_remote(const struct ir_uinput_remotes *set, size_t i)
{
	return i < set->count ? set->devs[i].remote : NULL;
}

const char *ir_uinput_remotes_devnode(const struct ir_uinput_remotes *set, size_t i)
{
	if (i >= set->count || !set->devs[i].dev || !set->ops.devnode)
		return NULL;
	return set->ops.devnode(set->devs[i].dev);
}
