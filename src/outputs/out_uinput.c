/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_uinput.c - a uinput device built with libevdev.
 */
#include "out_uinput.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>

struct ir_uinput {
	struct libevdev *dev;
	struct libevdev_uinput *ui;
};

int ir_uinput_new(const struct ir_uinput_config *cfg, struct ir_uinput **out)
{
	struct ir_uinput *u;
	int ret;

	if (!cfg || !out)
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->dev = libevdev_new();
	if (!u->dev) {
		free(u);
		return -ENOMEM;
	}
	libevdev_set_name(u->dev, cfg->name ? cfg->name : "irjack");
	libevdev_set_id_bustype(u->dev, BUS_VIRTUAL);
	libevdev_set_id_vendor(u->dev, cfg->vendor);
	libevdev_set_id_product(u->dev, cfg->product);
	libevdev_enable_event_type(u->dev, EV_KEY);
	if (cfg->keymap) {
		for (size_t i = 0; i < ir_keymap_key_count(cfg->keymap); i++) {
			const struct ir_keymap_key *k = ir_keymap_key_at(cfg->keymap, i);
			int code = k->keycode;

			if (cfg->remote &&
			    strcmp(ir_keymap_remote_name(cfg->keymap, k->remote), cfg->remote))
				continue;
			if (code > 0 && code <= KEY_MAX)
				libevdev_enable_event_code(u->dev, EV_KEY, (unsigned)code, NULL);
		}
	} else {
		for (unsigned code = 1; code < BTN_MISC; code++)
			libevdev_enable_event_code(u->dev, EV_KEY, code, NULL);
		for (unsigned code = KEY_OK; code <= KEY_MAX; code++)
			libevdev_enable_event_code(u->dev, EV_KEY, code, NULL);
	}
	libevdev_enable_event_type(u->dev, EV_MSC);
	libevdev_enable_event_code(u->dev, EV_MSC, MSC_SCAN, NULL);
	libevdev_enable_event_type(u->dev, EV_REP);
	if (cfg->repeat_delay_ms) {
		int v = (int)cfg->repeat_delay_ms;

		libevdev_enable_event_code(u->dev, EV_REP, REP_DELAY, &v);
	}
	if (cfg->repeat_period_ms) {
		int v = (int)cfg->repeat_period_ms;

		libevdev_enable_event_code(u->dev, EV_REP, REP_PERIOD, &v);
	}
	ret = libevdev_uinput_create_from_device(u->dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &u->ui);
	if (ret < 0) {
		libevdev_free(u->dev);
		free(u);
		return ret;
	}
	*out = u;
	return 0;
}

bool ir_uinput_has_keys(const struct ir_uinput *u, const struct ir_keymap *keymap)
{
	for (size_t i = 0; keymap && i < ir_keymap_key_count(keymap); i++) {
		int code = ir_keymap_key_at(keymap, i)->keycode;

		if (code > 0 && code <= KEY_MAX &&
		    !libevdev_has_event_code(u->dev, EV_KEY, (unsigned)code))
			return false;
	}
	return true;
}

void ir_uinput_free(struct ir_uinput *u)
{
	if (!u)
		return;
	libevdev_uinput_destroy(u->ui);
	libevdev_free(u->dev);
	free(u);
}

const char *ir_uinput_devnode(const struct ir_uinput *u)
{
	return libevdev_uinput_get_devnode(u->ui);
}

int ir_uinput_event(struct ir_uinput *u, const struct ir_key_event *ev)
{
	int ret = 0;
	bool key = ev->keycode > 0 && ev->keycode <= KEY_MAX &&
		   libevdev_has_event_code(u->dev, EV_KEY, (unsigned)ev->keycode);

	if (ev->type != IR_KEY_UP)
		/* rc-core reports the low 32 bits of the scancode */
		ret = libevdev_uinput_write_event(u->ui, EV_MSC, MSC_SCAN,
						  (int)(uint32_t)ev->scancode);
	if (ret == 0 && key && ev->type != IR_KEY_REPEAT)
		ret = libevdev_uinput_write_event(u->ui, EV_KEY, (unsigned)ev->keycode,
						  ev->type == IR_KEY_DOWN ? 1 : 0);
	if (ret == 0 && (key || ev->type != IR_KEY_UP))
		ret = libevdev_uinput_write_event(u->ui, EV_SYN, SYN_REPORT, 0);
	return ret;
}
