/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap.c - remotes, buttons and the decoders remotes bring along.
 * Lookups go through an open-addressing hash of (protocol, decoder id,
 * scancode), rebuilt as keys are added (keymaps are built once, then read).
 */
#include "ir_keymap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libevdev/libevdev.h>

#include "ir_family.h"

struct keymap_remote {
	char *name;
};

struct keymap_decoder {
	unsigned remote;
	const struct ir_family *family;
	void *params;
	void (*free_params)(void *params);
};

struct ir_keymap {
	struct keymap_remote *remotes;
	size_t remote_count, remote_cap;
	struct keymap_decoder *decoders; /* id i + 1 is decoders[i] */
	size_t decoder_count, decoder_cap;
	struct ir_keymap_key *keys;
	size_t key_count, key_cap;
	/* hash of keys: index + 1, 0 = empty; a power of two, at most half full */
	uint32_t *slots;
	size_t slot_count;
};

int ir_keymap_new(struct ir_keymap **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void ir_keymap_free(struct ir_keymap *km)
{
	if (!km)
		return;
	for (size_t i = 0; i < km->remote_count; i++)
		free(km->remotes[i].name);
	for (size_t i = 0; i < km->decoder_count; i++)
		if (km->decoders[i].free_params)
			km->decoders[i].free_params(km->decoders[i].params);
	for (size_t i = 0; i < km->key_count; i++)
		free((char *)km->keys[i].key);
	free(km->remotes);
	free(km->decoders);
	free(km->keys);
	free(km->slots);
	free(km);
}

static int grow(void **array, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 8;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*array, n * size);
	if (!p)
		return -ENOMEM;
	*array = p;
	*cap = n;
	return 0;
}

int ir_keymap_add_remote(struct ir_keymap *km, const char *name, unsigned *index)
{
	char *copy;

	if (!name)
		return -EINVAL;
	if (grow((void **)&km->remotes, &km->remote_cap, km->remote_count + 1,
		 sizeof(*km->remotes)) < 0)
		return -ENOMEM;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	km->remotes[km->remote_count].name = copy;
	if (index)
		*index = (unsigned)km->remote_count;
	km->remote_count++;
	return 0;
}

int ir_keymap_add_decoder(struct ir_keymap *km, unsigned remote, const struct ir_family *family,
			  void *params, void (*free_params)(void *params), uint16_t *decoder_id)
{
	struct keymap_decoder *d;

	if (remote >= km->remote_count || !family || !family->parametric ||
	    km->decoder_count >= UINT16_MAX) {
		if (free_params)
			free_params(params);
		return -EINVAL;
	}
	if (grow((void **)&km->decoders, &km->decoder_cap, km->decoder_count + 1,
		 sizeof(*km->decoders)) < 0) {
		if (free_params)
			free_params(params);
		return -ENOMEM;
	}
	d = &km->decoders[km->decoder_count++];
	d->remote = remote;
	d->family = family;
	d->params = params;
	d->free_params = free_params;
	if (decoder_id)
		*decoder_id = (uint16_t)km->decoder_count;
	return 0;
}

static uint64_t key_hash(enum ir_protocol p, uint16_t decoder_id, uint64_t scancode)
{
	uint64_t h = scancode ^ ((uint64_t)p << 48) ^ ((uint64_t)decoder_id << 32);

	/* splitmix64's finaliser */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	return h ^ (h >> 31);
}

/* The slot holding (p, id, scancode), or the empty slot where it would go. */
static size_t find_slot(const struct ir_keymap *km, enum ir_protocol p, uint16_t decoder_id,
			uint64_t scancode)
{
	size_t mask = km->slot_count - 1;
	size_t i = (size_t)key_hash(p, decoder_id, scancode) & mask;

	for (;;) {
		uint32_t k = km->slots[i];
		const struct ir_keymap_key *key;

		if (!k)
			return i;
		key = &km->keys[k - 1];
		if (key->protocol == p && key->decoder_id == decoder_id && key->scancode == scancode)
			return i;
		i = (i + 1) & mask;
	}
}

static int rehash(struct ir_keymap *km, size_t slot_count)
{
	uint32_t *slots = calloc(slot_count, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	free(km->slots);
	km->slots = slots;
	km->slot_count = slot_count;
	for (size_t i = 0; i < km->key_count; i++) {
		const struct ir_keymap_key *k = &km->keys[i];
		size_t s = find_slot(km, k->protocol, k->decoder_id, k->scancode);

		/* a replaced binding leaves its old entry unreachable; an
		 * alias never replaces */
		if (!km->slots[s] || (!k->alias && km->slots[s] - 1 < i))
			km->slots[s] = (uint32_t)i + 1;
	}
	return 0;
}

static int add_key(struct ir_keymap *km, unsigned remote, enum ir_protocol protocol,
		   uint16_t decoder_id, uint64_t scancode, const char *key_name, bool replace)
{
	struct ir_keymap_key *k;
	char *name;
	size_t s;

	if (remote >= km->remote_count || !key_name || !*key_name ||
	    decoder_id > km->decoder_count || km->key_count >= UINT32_MAX - 1)
		return -EINVAL;
	if (grow((void **)&km->keys, &km->key_cap, km->key_count + 1, sizeof(*km->keys)) < 0)
		return -ENOMEM;
	if ((km->key_count + 1) * 2 > km->slot_count &&
	    rehash(km, km->slot_count ? km->slot_count * 2 : 64) < 0)
		return -ENOMEM;
	name = strdup(key_name);
	if (!name)
		return -ENOMEM;
	k = &km->keys[km->key_count];
	k->remote = remote;
	k->protocol = protocol;
	k->decoder_id = decoder_id;
	k->scancode = scancode;
	k->key = name;
	k->keycode = libevdev_event_code_from_name(EV_KEY, key_name);
	if (k->keycode < 0)
		k->keycode = -1;
	s = find_slot(km, protocol, decoder_id, scancode);
	k->alias = !replace && km->slots[s];
	if (!k->alias)
		km->slots[s] = (uint32_t)km->key_count + 1;
	km->key_count++;
	return 0;
}

int ir_keymap_add_key(struct ir_keymap *km, unsigned remote, enum ir_protocol protocol,
		      uint16_t decoder_id, uint64_t scancode, const char *key_name)
{
	return add_key(km, remote, protocol, decoder_id, scancode, key_name, true);
}

int ir_keymap_add_key_keep_first(struct ir_keymap *km, unsigned remote, enum ir_protocol protocol,
				 uint16_t decoder_id, uint64_t scancode, const char *key_name)
{
	return add_key(km, remote, protocol, decoder_id, scancode, key_name, false);
}

bool ir_keymap_lookup(const struct ir_keymap *km, const struct ir_frame *frame,
		      struct ir_key_binding *out)
{
	const struct ir_keymap_key *k;
	enum ir_protocol rp;
	uint64_t rs;
	size_t s;

	if (!km || !km->slot_count)
		return false;
	s = find_slot(km, frame->protocol, frame->decoder_id, frame->scancode);
	if (!km->slots[s] && !frame->decoder_id &&
	    ir_protocol_rc_core_view(frame->protocol, frame->scancode, &rp, &rs))
		/* an rc_keymaps file names rc-core's reading (nec32, not apple) */
		s = find_slot(km, rp, 0, rs);
	if (!km->slots[s] && !frame->decoder_id)
		s = find_slot(km, IR_KEYMAP_ANY_PROTOCOL, 0, frame->scancode);
	if (!km->slots[s])
		return false;
	k = &km->keys[km->slots[s] - 1];
	out->remote = km->remotes[k->remote].name;
	out->key = k->key;
	out->keycode = k->keycode;
	out->remote_index = k->remote;
	return true;
}

void ir_keymap_protocols(const struct ir_keymap *km, struct ir_protocol_set *set)
{
	ir_protocol_set_clear(set);
	for (size_t i = 0; i < km->key_count; i++)
		if (!km->keys[i].decoder_id && km->keys[i].protocol != IR_KEYMAP_ANY_PROTOCOL)
			ir_protocol_set_add(set, km->keys[i].protocol);
}

int ir_keymap_attach(const struct ir_keymap *km, struct ir_decoder *dec)
{
	struct ir_protocol_set named;

	ir_keymap_protocols(km, &named);
	ir_decoder_set_preferred(dec, &named);
	for (size_t i = 0; i < km->decoder_count; i++) {
		int ret = ir_decoder_add_custom(dec, km->decoders[i].family, km->decoders[i].params,
						(uint16_t)(i + 1));

		if (ret < 0)
			return ret;
	}
	return 0;
}

size_t ir_keymap_remote_count(const struct ir_keymap *km)
{
	return km->remote_count;
}

const char *ir_keymap_remote_name(const struct ir_keymap *km, unsigned remote)
{
	return remote < km->remote_count ? km->remotes[remote].name : NULL;
}

size_t ir_keymap_key_count(const struct ir_keymap *km)
{
	return km->key_count;
}

const struct ir_keymap_key *ir_keymap_key_at(const struct ir_keymap *km, size_t i)
{
	return i < km->key_count ? &km->keys[i] : NULL;
}

int ir_keymap_encode(const struct ir_keymap *km, const char *remote_name, const char *key,
		     unsigned repeats, struct ir_edge_buf *out)
{
	for (size_t i = 0; i < km->key_count; i++) {
		const struct ir_keymap_key *k = &km->keys[i];
		struct ir_encode_opts opts = { .repeats = repeats };

		if (strcasecmp(km->remotes[k->remote].name, remote_name) != 0 ||
		    strcasecmp(k->key, key) != 0)
			continue;
		if (k->decoder_id) {
			const struct keymap_decoder *d = &km->decoders[k->decoder_id - 1];

			if (!d->family->encode_params)
				return -EINVAL;
			return d->family->encode_params(d->params, k->scancode, 0, repeats, out);
		}
		return ir_encode(k->protocol, k->scancode, &opts, out);
	}
	return -ENOENT;
}

int ir_keymap_carrier(const struct ir_keymap *km, const char *remote_name, const char *key,
		      uint32_t *hz, unsigned *duty_pct)
{
	for (size_t i = 0; i < km->key_count; i++) {
		const struct ir_keymap_key *k = &km->keys[i];
		const struct ir_protocol_info *info;

		if (strcasecmp(km->remotes[k->remote].name, remote_name) != 0 ||
		    strcasecmp(k->key, key) != 0)
			continue;
		*hz = 0;
		*duty_pct = 0;
		if (k->decoder_id) {
			const struct keymap_decoder *d = &km->decoders[k->decoder_id - 1];

			if (d->family->carrier_params) {
				d->family->carrier_params(d->params, hz, duty_pct);
				return 0;
			}
		}
		info = ir_protocol_get(k->protocol);
		if (info) {
			*hz = info->carrier_hz;
			*duty_pct = info->duty_cycle;
		}
		return 0;
	}
	return -ENOENT;
}

const char *ir_keymap_remote_of_key(const struct ir_keymap *km, const char *key)
{
	for (size_t i = 0; i < km->key_count; i++)
		if (strcasecmp(km->keys[i].key, key) == 0)
			return km->remotes[km->keys[i].remote].name;
	return NULL;
}

/* ---- merging ---- */

int ir_keymap_merge(struct ir_keymap *to, struct ir_keymap *from)
{
	unsigned remote_base = (unsigned)to->remote_count;
	uint16_t decoder_base = (uint16_t)to->decoder_count;
	size_t slot_count = to->slot_count ? to->slot_count : 64;

	if (to->decoder_count + from->decoder_count >= UINT16_MAX)
		return -EINVAL;
	while ((to->key_count + from->key_count) * 2 > slot_count)
		slot_count *= 2;
	if (grow((void **)&to->remotes, &to->remote_cap, to->remote_count + from->remote_count,
		 sizeof(*to->remotes)) < 0 ||
	    grow((void **)&to->decoders, &to->decoder_cap, to->decoder_count + from->decoder_count,
		 sizeof(*to->decoders)) < 0 ||
	    grow((void **)&to->keys, &to->key_cap, to->key_count + from->key_count,
		 sizeof(*to->keys)) < 0)
		return -ENOMEM;
	memcpy(to->remotes + to->remote_count, from->remotes,
	       from->remote_count * sizeof(*from->remotes));
	to->remote_count += from->remote_count;
	for (size_t i = 0; i < from->decoder_count; i++) {
		to->decoders[to->decoder_count] = from->decoders[i];
		to->decoders[to->decoder_count++].remote += remote_base;
	}
	for (size_t i = 0; i < from->key_count; i++) {
		struct ir_keymap_key *k = &to->keys[to->key_count++];

		*k = from->keys[i];
		k->remote += remote_base;
		if (k->decoder_id)
			k->decoder_id = (uint16_t)(k->decoder_id + decoder_base);
	}
	from->remote_count = from->decoder_count = from->key_count = 0;
	/* Cannot fail for the keys already there: on failure lookups would
	 * miss the new keys only, so report it. */
	return rehash(to, slot_count);
}
