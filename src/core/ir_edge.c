/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_edge.h"

#include <errno.h>
#include <stdlib.h>

const char *ir_edge_kind_name(enum ir_edge_kind kind)
{
	switch (kind) {
	case IR_PULSE:
		return "pulse";
	case IR_SPACE:
		return "space";
	case IR_TIMEOUT:
		return "timeout";
	case IR_CARRIER:
		return "carrier";
	case IR_OVERFLOW:
		return "overflow";
	}
	return "unknown";
}

static int ir_edge_buf_grow(struct ir_edge_buf *buf)
{
	size_t cap = buf->cap ? buf->cap * 2 : 64;
	struct ir_edge *edges;

	if (cap > SIZE_MAX / sizeof(*edges))
		return -ENOMEM;
	edges = realloc(buf->edges, cap * sizeof(*edges));
	if (!edges)
		return -ENOMEM;
	buf->edges = edges;
	buf->cap = cap;
	return 0;
}

int ir_edge_buf_push(struct ir_edge_buf *buf, struct ir_edge e)
{
	if ((e.kind == IR_PULSE || e.kind == IR_SPACE) && e.duration == 0)
		return 0;
	if (buf->len > 0 && (e.kind == IR_PULSE || e.kind == IR_SPACE)) {
		struct ir_edge *last = &buf->edges[buf->len - 1];

		if (last->kind == e.kind) {
			if ((uint64_t)last->duration + e.duration > IR_DURATION_MAX)
				return -ERANGE;
			last->duration += e.duration;
			return 0;
		}
	}
	if (buf->len == buf->cap) {
		int ret = ir_edge_buf_grow(buf);

		if (ret < 0)
			return ret;
	}
	buf->edges[buf->len++] = e;
	return 0;
}

int ir_edge_buf_pulse(struct ir_edge_buf *buf, uint32_t us)
{
	return ir_edge_buf_push(buf, ir_pulse(us));
}

int ir_edge_buf_space(struct ir_edge_buf *buf, uint32_t us)
{
	return ir_edge_buf_push(buf, ir_space(us));
}

int ir_edge_buf_append(struct ir_edge_buf *buf, const struct ir_edge *src, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = ir_edge_buf_push(buf, src[i]);

		if (ret < 0)
			return ret;
	}
	return 0;
}

uint64_t ir_edge_buf_duration(const struct ir_edge_buf *buf)
{
	uint64_t total = 0;

	for (size_t i = 0; i < buf->len; i++)
		if (ir_edge_is_timing(&buf->edges[i]))
			total += buf->edges[i].duration;
	return total;
}

void ir_edge_buf_clear(struct ir_edge_buf *buf)
{
	buf->len = 0;
}

void ir_edge_buf_free(struct ir_edge_buf *buf)
{
	free(buf->edges);
	buf->edges = NULL;
	buf->len = 0;
	buf->cap = 0;
}
