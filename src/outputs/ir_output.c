/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_output.c - the output registry and the calls every output shares.
 */
#include "ir_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_output_kinds.h"
#include "ir_util.h"

#define MAX_KINDS 16

static const struct ir_output_kind *registered[MAX_KINDS];
static unsigned registered_count;

struct ir_output {
	const struct ir_output_kind *kind;
	void *impl;
	void *settings; /* a copy */
};

const struct ir_output_kind *ir_output_kind_find(const char *name)
{
	const struct ir_output_kind *const builtin[] = {
		&ir_output_uinput, &ir_output_lircd, &ir_output_json, &ir_output_mqtt,
		&ir_output_lircdev, &ir_output_lcddev,
	};

	for (size_t i = 0; i < ARRAY_SIZE(builtin); i++)
		if (strcmp(builtin[i]->name, name) == 0)
			return builtin[i];
	for (unsigned i = 0; i < registered_count; i++)
		if (strcmp(registered[i]->name, name) == 0)
			return registered[i];
	return NULL;
}

int ir_output_register(const struct ir_output_kind *kind)
{
	if (!kind || !kind->name || !kind->open || !kind->rebind || !kind->close)
		return -EINVAL;
	if (ir_output_kind_find(kind->name))
		return -EEXIST;
	if (registered_count == MAX_KINDS)
		return -ENOSPC;
	registered[registered_count++] = kind;
	return 0;
}

int ir_output_open(const struct ir_output_kind *kind, const void *settings,
		   const struct ir_output_env *env, struct ir_output **out, char *err,
		   size_t err_size)
{
	struct ir_output *o = calloc(1, sizeof(*o));
	int ret;

	if (err_size)
		err[0] = '\0';
	if (!o || !(o->settings = malloc(kind->settings_size ? kind->settings_size : 1))) {
		free(o);
		snprintf(err, err_size, "%s: %s", kind->name, strerror(ENOMEM));
		return -ENOMEM;
	}
	memcpy(o->settings, settings, kind->settings_size);
	o->kind = kind;
	ret = kind->open(o->settings, env, &o->impl, err, err_size);
	if (ret < 0) {
		free(o->settings);
		free(o);
		return ret;
	}
	*out = o;
	return 0;
}

int ir_output_rebind(struct ir_output *o, const void *settings, const struct ir_output_env *env)
{
	int ret = o->kind->rebind(o->impl, o->settings, settings, env);

	if (ret == 0)
		memcpy(o->settings, settings, o->kind->settings_size);
	return ret;
}

void ir_output_frame(struct ir_output *o, const struct ir_output_frame *f)
{
	if (o->kind->frame)
		o->kind->frame(o->impl, f);
}

void ir_output_edge(struct ir_output *o, const char *source, unsigned channel,
		    const struct ir_edge *edge)
{
	if (o->kind->edge)
		o->kind->edge(o->impl, source, channel, edge);
}

void ir_output_key(struct ir_output *o, const struct ir_key_event *ev)
{
	if (o->kind->key)
		o->kind->key(o->impl, ev);
}

size_t ir_output_fds(struct ir_output *o, struct pollfd *fds, size_t max)
{
	return o->kind->fds ? o->kind->fds(o->impl, fds, max) : 0;
}

void ir_output_process(struct ir_output *o, const struct pollfd *fds, size_t n)
{
	if (o->kind->process)
		o->kind->process(o->impl, fds, n);
}

uint64_t ir_output_due_us(struct ir_output *o)
{
	return o->kind->due_us ? o->kind->due_us(o->impl) : UINT64_MAX;
}

void ir_output_status(struct ir_output *o, char *line, size_t size)
{
	if (size)
		line[0] = '\0';
	if (o->kind->status)
		o->kind->status(o->impl, o->settings, line, size);
}

bool ir_output_keeps_running(const struct ir_output *o)
{
	return o->kind->keeps_running;
}

const struct ir_output_kind *ir_output_kind(const struct ir_output *o)
{
	return o->kind;
}

void ir_output_close(struct ir_output *o)
{
	if (!o)
		return;
	o->kind->close(o->impl);
	free(o->settings);
	free(o);
}
