/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_send_repeat.c - SEND_START's scheduler: the button once and its
 * first repeat's lead-in, then one repeat each frame period from the loop
 * (repeat_due) until SEND_STOP, a reload, the service's end or
 * SEND_REPEAT_MAX repeats.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "irjackd.h"
#include "irjackd_service.h"

void repeat_stop(struct service *sv, const char *why)
{
	struct send_repeat *rp = &sv->repeat;

	if (!rp->active)
		return;
	/* what waits is not sent; the repeat playing ends (one frame
	 * period, ~110 ms): nothing is sent after SEND_STOP's reply */
	tx_workers_stop(sv, rp->mask, 1000);
	irjackd_log(LOG_INFO, "send %s %s: repeated %u time%s, %s", rp->remote, rp->key, rp->sent,
		    rp->sent == 1 ? "" : "s", why);
	ir_edge_buf_free(&rp->chunk);
	rp->active = false;
}

static bool same_edges(const struct ir_edge *a, const struct ir_edge *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].duration != b[i].duration)
			return false;
	return true;
}

/*
 * Splits the button into what is sent now (`first`) and what each repeat
 * sends (rp->chunk).  The encoder's output for 0, 1 and 2 repeats shows
 * where a repeat starts and how long one lasts with its gap; a remote
 * whose repeats are not a plain suffix (alternating codes) repeats its
 * whole first frame instead.
 */
static int split_repeats(struct service *sv, const char *remote, const char *key,
			 struct ir_edge_buf *first, char *error, size_t error_size)
{
	struct send_repeat *rp = &sv->repeat;
	struct ir_edge_buf e[3] = { { 0 } };
	int ret = 0;

	for (unsigned r = 0; r < 3 && ret == 0; r++)
		ret = ir_tx_encode_key(sv->gen->km, remote, key, r, &e[r], &rp->carrier);
	if (ret < 0) {
		snprintf(error, error_size, "cannot encode %s %s: %s", remote, key, strerror(-ret));
		goto out;
	}
	size_t n0 = e[0].len, n1 = e[1].len;
	if (n0 >= 2 && n1 > n0 && e[2].len > n1 && same_edges(e[0].edges, e[1].edges, n0 - 1) &&
	    same_edges(e[1].edges, e[2].edges, n1 - 1)) {
		/* the frame with the gap to its first repeat; then repeat + gap */
		ret = ir_edge_buf_append(first, e[1].edges, n0);
		if (ret == 0)
			ret = ir_edge_buf_append(&rp->chunk, e[2].edges + n0, n1 - n0);
	} else {
		ret = ir_edge_buf_append(first, e[0].edges, n0);
		if (ret == 0)
			ret = ir_edge_buf_append(&rp->chunk, e[0].edges, n0);
	}
	if (ret < 0)
		snprintf(error, error_size, "%s", strerror(-ret));
out:
	for (unsigned r = 0; r < 3; r++)
		ir_edge_buf_free(&e[r]);
	return ret;
}

int repeat_start(struct service *sv, unsigned mask, const char *remote, const char *key,
		 char *error, size_t error_size)
{
	struct send_repeat *rp = &sv->repeat;
	struct ir_edge_buf first = { 0 };
	uint64_t start = service_now_us(sv);
	int ret = split_repeats(sv, remote, key, &first, error, error_size);

	if (ret == 0)
		ret = transmit_mask(sv, mask, &first, &rp->carrier, TX_JOB_REPEAT_FIRST, error,
				    error_size);
	if (ret < 0) {
		ir_edge_buf_free(&rp->chunk);
		ir_edge_buf_free(&first);
		return ret;
	}
	snprintf(rp->remote, sizeof(rp->remote), "%s", remote);
	snprintf(rp->key, sizeof(rp->key), "%s", key);
	rp->mask = mask;
	rp->chunk_us = ir_edge_buf_duration(&rp->chunk);
	rp->due_us = start + ir_edge_buf_duration(&first);
	rp->sent = 0;
	rp->active = rp->chunk_us > 0;
	if (!rp->active)
		ir_edge_buf_free(&rp->chunk);
	ir_edge_buf_free(&first);
	return 0;
}

void repeat_due(struct service *sv)
{
	struct send_repeat *rp = &sv->repeat;
	char error[1024] = "";
	uint64_t now;

	if (!rp->active || (now = service_now_us(sv)) < rp->due_us)
		return;
	for (unsigned i = 0; i < IRJACKD_MAX_TRANSMITTERS; i++)
		if ((rp->mask & (1u << i)) && tx_workers_pending(sv, i) > 1) {
			/* a slower transmitter than the period: wait for it
			 * rather than filling its queue */
			rp->due_us = now + rp->chunk_us / 4 + 1;
			return;
		}
	if (transmit_mask(sv, rp->mask, &rp->chunk, &rp->carrier, TX_JOB_REPEAT, error,
			  sizeof(error)) < 0) {
		repeat_stop(sv, "stopped by a transmit error");
		return;
	}
	rp->sent++;
	/* Keep the period; after a stall (a slow transmitter) restart from now
	 * rather than sending the missed repeats back to back. */
	rp->due_us += rp->chunk_us;
	if (rp->due_us + rp->chunk_us < now)
		rp->due_us = now;
	if (rp->sent >= SEND_REPEAT_MAX)
		repeat_stop(sv, "the limit (SEND_STOP never came)");
}
