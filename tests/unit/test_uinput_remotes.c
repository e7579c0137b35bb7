/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One input device per keymap remote (out_uinput_remotes.h), with fake
 * devices: which devices are made (names, ids, which remote's keys), where
 * key events go, and what a reload keeps, makes and removes.  The real
 * devices are read back through evdev in the VM (tests/vm/guest-cuse.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/input-event-codes.h>

#include "ir_keymap.h"
#include "out_uinput_remotes.h"

struct fake_dev {
	char name[80];
	char remote[64];
	uint16_t vendor, product;
	const struct ir_keymap *keymap;
	unsigned events;
	int last_keycode;
	bool destroyed;
};

static struct fake_dev fakes[32];
static unsigned fake_count;
static const char *fail_remote; /* create() fails for this remote */

static int fake_create(void *userdata, const struct ir_uinput_config *cfg, void **dev)
{
	struct fake_dev *d;

	(void)userdata;
	if (fail_remote && cfg->remote && !strcmp(cfg->remote, fail_remote))
		return -EACCES;
	assert_true(fake_count < 32);
	d = &fakes[fake_count++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", cfg->name);
	snprintf(d->remote, sizeof(d->remote), "%s", cfg->remote ? cfg->remote : "(all)");
	d->vendor = cfg->vendor;
	d->product = cfg->product;
	d->keymap = cfg->keymap;
	*dev = d;
	return 0;
}

static int fake_event(void *dev, const struct ir_key_event *ev)
{
	struct fake_dev *d = dev;

	assert_false(d->destroyed);
	d->events++;
	d->last_keycode = ev->keycode;
	return 0;
}

static const char *fake_devnode(void *dev)
{
	return ((struct fake_dev *)dev)->name;
}

static void fake_destroy(void *dev)
{
	struct fake_dev *d = dev;

	assert_false(d->destroyed);
	d->destroyed = true;
}

static const struct ir_uinput_device_ops fake_ops = {
	.create = fake_create,
	.event = fake_event,
	.devnode = fake_devnode,
	.destroy = fake_destroy,
};

static struct fake_dev *fake_named(const char *name)
{
	struct fake_dev *found = NULL;

	for (unsigned i = 0; i < fake_count; i++)
		if (!strcmp(fakes[i].name, name) && !fakes[i].destroyed)
			found = &fakes[i];
	return found;
}

static unsigned fakes_alive(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < fake_count; i++)
		n += !fakes[i].destroyed;
	return n;
}

static int setup(void **state)
{
	(void)state;
	fake_count = 0;
	fail_remote = NULL;
	return 0;
}

/* A keymap of remotes given as "remote:0xSCAN=KEY_X,..." strings (NEC). */
static struct ir_keymap *keymap_of(const char *const *remotes, size_t n)
{
	struct ir_keymap *km;

	assert_int_equal(ir_keymap_new(&km), 0);
	for (size_t r = 0; r < n; r++) {
		char buf[256], *save = NULL;
		unsigned idx;

		snprintf(buf, sizeof(buf), "%s", remotes[r]);
		char *colon = strchr(buf, ':');

		assert_non_null(colon);
		*colon = '\0';
		assert_int_equal(ir_keymap_add_remote(km, buf, &idx), 0);
		for (char *tok = strtok_r(colon + 1, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');

			assert_non_null(eq);
			*eq = '\0';
			assert_int_equal(ir_keymap_add_key(km, idx, IR_PROTO_NEC, 0,
							   strtoull(tok, NULL, 0), eq + 1),
					 0);
		}
	}
	return km;
}

static struct ir_uinput_remotes *set_new(void)
{
	struct ir_uinput_remotes_config cfg = { .name = "irjack", .vendor = 0x1209,
						.ops = &fake_ops };
	struct ir_uinput_remotes *set;

	assert_int_equal(ir_uinput_remotes_new(&cfg, &set), 0);
	return set;
}

/* FNV-1a's published test vectors: "" 0x811c9dc5, "a" 0xe40c292c,
 * "foobar" 0xbf9cf968; folded: high half XOR low half. */
static void test_product_id_is_folded_fnv1a(void **state)
{
	(void)state;
	assert_int_equal(ir_uinput_remote_product(""), 0x811c ^ 0x9dc5);
	assert_int_equal(ir_uinput_remote_product("a"), 0xe40c ^ 0x292c);
	assert_int_equal(ir_uinput_remote_product("foobar"), 0xbf9c ^ 0xf968);
	assert_int_not_equal(ir_uinput_remote_product("tv"), ir_uinput_remote_product("amp"));
}

static void test_device_name_is_cut_to_uinput_size(void **state)
{
	char name[200], remote[150];

	(void)state;
	ir_uinput_remote_device_name("irjack", "tv", name, sizeof(name));
	assert_string_equal(name, "irjack tv");
	memset(remote, 'r', sizeof(remote) - 1);
	remote[sizeof(remote) - 1] = '\0';
	ir_uinput_remote_device_name("irjack", remote, name, sizeof(name));
	assert_int_equal(strlen(name), 79);
}

static void test_one_device_per_remote_with_its_ids(void **state)
{
	const char *const maps[] = { "tv:0x0408=KEY_POWER,0x0402=KEY_VOLUMEUP",
				     "amp:0x1e01=KEY_MUTE" };
	struct ir_keymap *km = keymap_of(maps, 2);
	struct ir_uinput_remotes *set = set_new();
	struct ir_uinput_remotes_change c;
	struct fake_dev *tv, *amp;

	(void)state;
	assert_int_equal(ir_uinput_remotes_update(set, km, &c, NULL, 0), 0);
	assert_int_equal(c.created, 2);
	assert_int_equal(c.kept + c.removed + c.failed, 0);
	assert_int_equal(ir_uinput_remotes_count(set), 2);
	assert_string_equal(ir_uinput_remotes_remote(set, 0), "tv");
	assert_string_equal(ir_uinput_remotes_remote(set, 1), "amp");
	tv = fake_named("irjack tv");
	amp = fake_named("irjack amp");
	assert_non_null(tv);
	assert_non_null(amp);
	/* each declares only its own remote's keys */
	assert_string_equal(tv->remote, "tv");
	assert_string_equal(amp->remote, "amp");
	assert_ptr_equal(tv->keymap, km);
	assert_int_equal(tv->vendor, 0x1209);
	assert_int_equal(tv->product, ir_uinput_remote_product("tv"));
	assert_int_equal(amp->product, ir_uinput_remote_product("amp"));
	assert_string_equal(ir_uinput_remotes_devnode(set, 1), "irjack amp");
	ir_uinput_remotes_free(set);
	assert_int_equal(fakes_alive(), 0);
	ir_keymap_free(km);
}

static void test_events_go_to_their_remotes_device(void **state)
{
	const char *const maps[] = { "tv:0x0408=KEY_POWER", "amp:0x1e01=KEY_MUTE" };
	struct ir_keymap *km = keymap_of(maps, 2);
	struct ir_uinput_remotes *set = set_new();
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .remote = "amp", .key = "KEY_MUTE",
				   .keycode = KEY_MUTE, .scancode = 0x1e01 };

	(void)state;
	assert_int_equal(ir_uinput_remotes_update(set, km, NULL, NULL, 0), 0);
	assert_int_equal(ir_uinput_remotes_event(set, &ev), 0);
	ev.type = IR_KEY_UP;
	assert_int_equal(ir_uinput_remotes_event(set, &ev), 0);
	ev = (struct ir_key_event){ .type = IR_KEY_DOWN, .remote = "tv", .keycode = KEY_POWER };
	assert_int_equal(ir_uinput_remotes_event(set, &ev), 0);
	assert_int_equal(fake_named("irjack amp")->events, 2);
	assert_int_equal(fake_named("irjack amp")->last_keycode, KEY_MUTE);
	assert_int_equal(fake_named("irjack tv")->events, 1);
	assert_int_equal(fake_named("irjack tv")->last_keycode, KEY_POWER);
	/* a frame no remote names, or a remote without a device: nowhere */
	ev.remote = NULL;
	assert_int_equal(ir_uinput_remotes_event(set, &ev), -ENOENT);
	ev.remote = "dvd";
	assert_int_equal(ir_uinput_remotes_event(set, &ev), -ENOENT);
	assert_int_equal(fake_named("irjack tv")->events, 1);
	ir_uinput_remotes_free(set);
	ir_keymap_free(km);
}

static void test_reload_keeps_unchanged_remotes_only(void **state)
{
	const char *const before[] = { "tv:0x0408=KEY_POWER", "amp:0x1e01=KEY_MUTE",
				       "old:0x0001=KEY_1" };
	/* tv: same keys (another scancode for the same key); amp: a key more;
	 * old: gone; dvd: new */
	const char *const after[] = { "tv:0x0409=KEY_POWER", "amp:0x1e01=KEY_MUTE,0x1e02=KEY_2",
				      "dvd:0x0500=KEY_PLAY" };
	struct ir_keymap *km1 = keymap_of(before, 3), *km2 = keymap_of(after, 3);
	struct ir_uinput_remotes *set = set_new();
	struct ir_uinput_remotes_change c;
	struct fake_dev *tv, *amp;

	(void)state;
	assert_int_equal(ir_uinput_remotes_update(set, km1, &c, NULL, 0), 0);
	tv = fake_named("irjack tv");
	amp = fake_named("irjack amp");
	assert_int_equal(ir_uinput_remotes_update(set, km2, &c, NULL, 0), 0);
	assert_int_equal(c.kept, 1);
	assert_int_equal(c.created, 2);
	assert_int_equal(c.removed, 2);
	assert_int_equal(c.failed, 0);
	assert_ptr_equal(fake_named("irjack tv"), tv); /* the same device */
	assert_false(tv->destroyed);
	assert_true(amp->destroyed);
	assert_non_null(fake_named("irjack amp"));
	assert_ptr_equal(fake_named("irjack amp")->keymap, km2);
	assert_null(fake_named("irjack old"));
	assert_non_null(fake_named("irjack dvd"));
	assert_int_equal(fakes_alive(), 3);
	assert_int_equal(ir_uinput_remotes_count(set), 3);
	/* an empty keymap removes them all */
	assert_int_equal(ir_uinput_remotes_update(set, NULL, &c, NULL, 0), 0);
	assert_int_equal(c.removed, 3);
	assert_int_equal(fakes_alive(), 0);
	assert_int_equal(ir_uinput_remotes_count(set), 0);
	ir_uinput_remotes_free(set);
	ir_keymap_free(km1);
	ir_keymap_free(km2);
}

static void test_same_named_remotes_share_a_device(void **state)
{
	const char *const maps[] = { "tv:0x0408=KEY_POWER", "tv:0x0402=KEY_VOLUMEUP" };
	struct ir_keymap *km = keymap_of(maps, 2);
	struct ir_uinput_remotes *set = set_new();
	struct ir_uinput_remotes_change c;

	(void)state;
	assert_int_equal(ir_uinput_remotes_update(set, km, &c, NULL, 0), 0);
	assert_int_equal(c.created, 1);
	assert_int_equal(ir_uinput_remotes_count(set), 1);
	assert_int_equal(fakes_alive(), 1);
	ir_uinput_remotes_free(set);
	ir_keymap_free(km);
}

static void test_a_device_that_fails_is_retried_and_others_serve(void **state)
{
	const char *const maps[] = { "tv:0x0408=KEY_POWER", "amp:0x1e01=KEY_MUTE" };
	struct ir_keymap *km = keymap_of(maps, 2);
	struct ir_uinput_remotes *set = set_new();
	struct ir_uinput_remotes_change c;
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .remote = "amp", .keycode = KEY_MUTE };
	char err[128];

	(void)state;
	fail_remote = "amp";
	assert_int_equal(ir_uinput_remotes_update(set, km, &c, err, sizeof(err)), -EACCES);
	assert_int_equal(c.created, 1);
	assert_int_equal(c.failed, 1);
	assert_non_null(strstr(err, "'irjack amp'"));
	assert_int_equal(ir_uinput_remotes_event(set, &ev), -ENOENT);
	assert_null(ir_uinput_remotes_devnode(set, 1));
	fail_remote = NULL;
	assert_int_equal(ir_uinput_remotes_update(set, km, &c, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(c.kept, 1);
	assert_int_equal(c.created, 1);
	assert_int_equal(ir_uinput_remotes_event(set, &ev), 0);
	ir_uinput_remotes_free(set);
	ir_keymap_free(km);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_product_id_is_folded_fnv1a),
		cmocka_unit_test(test_device_name_is_cut_to_uinput_size),
		cmocka_unit_test_setup(test_one_device_per_remote_with_its_ids, setup),
		cmocka_unit_test_setup(test_events_go_to_their_remotes_device, setup),
		cmocka_unit_test_setup(test_reload_keeps_unchanged_remotes_only, setup),
		cmocka_unit_test_setup(test_same_named_remotes_share_a_device, setup),
		cmocka_unit_test_setup(test_a_device_that_fails_is_retried_and_others_serve,
				       setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
