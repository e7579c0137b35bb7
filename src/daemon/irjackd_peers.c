/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_peers.c - [source NAME] type = lircd: the key lines of another
 * lircd or irjackd (its socket or TCP port, as lircd --connect) re-enter
 * this daemon's outputs as key events: uinput types them, the lircd
 * socket passes them on to its clients.
 *
 * lircd's lines carry presses and repeats but no release, so a key read
 * from a peer goes up PEER_KEYUP_US after its last line, or when another
 * key comes.
 *
 * Loops: an event carries its origin (the instance that decoded it, and
 * its number there) between irjackd peers (out_lircd.h).  An event whose
 * origin is this daemon, or whose number from that origin was seen
 * already (it came round a cycle, or by a second path), is dropped here;
 * the lircd socket never sends an event back to the daemon it came from.
 */
#include <errno.h>
#include <libevdev/libevdev.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "irjackd.h"
#include "irjackd_service.h"
#include "lircd_peer.h"

/* The slowest common protocols repeat every ~115 ms (RC-5: 113.8 ms,
 * NEC: 108 ms); a peer's lines also cross a network.  Two repeat periods
 * and rc-core's 125 ms key-up timeout on top. */
#define PEER_KEYUP_US 350000u

/* True the first time this daemon sees the event `o` names. */
static bool peer_fresh(struct service *sv, const struct ir_key_origin *o, uint64_t now)
{
	struct peer_seen *oldest = &sv->peer_seen[0];

	if (!strcmp(o->id, sv->instance_id))
		return false; /* ours, come back round */
	if (!o->id[0] || !o->seq)
		return true;  /* a plain lircd's: nothing to tell repeats by */
	for (unsigned i = 0; i < PEER_SEEN_MAX; i++) {
		struct peer_seen *e = &sv->peer_seen[i];

		if (!strcmp(e->id, o->id)) {
			if (o->seq <= e->seq)
				return false;
			e->seq = o->seq;
			e->used_us = now;
			return true;
		}
		if (e->used_us < oldest->used_us)
			oldest = e;
	}
	snprintf(oldest->id, sizeof(oldest->id), "%s", o->id);
	oldest->seq = o->seq;
	oldest->used_us = now;
	return true;
}

static void peer_event(struct source *s, enum ir_key_event_type type, uint64_t now)
{
	struct peer_key *k = &s->peer_key;

	outputs_key(s->sv, &(struct ir_key_event){
				   .type = type,
				   .remote = k->remote,
				   .key = k->key,
				   .keycode = k->keycode,
				   .protocol = IR_PROTO_COUNT, /* a peer does not say */
				   .scancode = k->scancode,
				   .repeat = k->repeat,
				   .time_us = now,
				   .origin = &k->origin,
			   });
}

static void peer_release(struct source *s, uint64_t now)
{
	if (!s->peer_key.down)
		return;
	s->peer_key.down = false;
	peer_event(s, IR_KEY_UP, now);
}

static void on_peer_key(void *userdata, const struct ir_lircd_peer_key *line)
{
	struct source *s = userdata;
	struct peer_key *k = &s->peer_key;
	uint64_t now = service_now_us(s->sv);
	bool same;

	if (!peer_fresh(s->sv, &line->origin, now))
		return;
	same = k->down && line->repeat > 0 && !strcmp(k->key, line->key) &&
	       !strcmp(k->remote, line->remote);
	if (!same) {
		peer_release(s, now);
		snprintf(k->key, sizeof(k->key), "%s", line->key);
		snprintf(k->remote, sizeof(k->remote), "%s", line->remote);
		k->keycode = libevdev_event_code_from_name(EV_KEY, line->key);
		k->down = true;
	}
	k->scancode = line->scancode;
	k->repeat = line->repeat; /* lircd's count, passed on as it was */
	k->origin = line->origin;
	k->up_us = now + PEER_KEYUP_US;
	peer_event(s, same ? IR_KEY_REPEAT : IR_KEY_DOWN, now);
	snprintf(s->last, sizeof(s->last), "%016llx %02x %.40s %.40s",
		 (unsigned long long)line->scancode, line->repeat & 0xff, line->key, line->remote);
	s->last_us = now;
	irjackd_log(LOG_DEBUG, "source %s: %s %s (repeat %u)", s->cfg->name, line->remote,
		    line->key, line->repeat);
}

int peer_start(struct service *sv, struct source *s)
{
	int ret = ir_lircd_peer_new(s->cfg->device, sv->instance_id, on_peer_key, s, &s->peer);

	if (ret < 0)
		s->peer = NULL;
	return ret;
}

int peer_dispatch(struct source *s)
{
	int ret = ir_lircd_peer_process(s->peer);
	const char *id = ir_lircd_peer_id(s->peer);

	if (ret == 0 && id[0] && !strstr(s->state, id))
		snprintf(s->state, sizeof(s->state), "running, irjackd %s", id);
	return ret;
}

void peer_close(struct source *s, uint64_t now)
{
	peer_release(s, now);
	ir_lircd_peer_free(s->peer);
	s->peer = NULL;
}

uint64_t peers_keyup(struct generation *g, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (unsigned i = 0; i < g->source_count; i++) {
		struct source *s = &g->sources[i];

		if (!s->peer_key.down)
			continue;
		if (s->peer_key.up_us <= now)
			peer_release(s, now);
		else if (s->peer_key.up_us < next)
			next = s->peer_key.up_us;
	}
	return next;
}
