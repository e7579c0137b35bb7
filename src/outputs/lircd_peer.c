/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lircd_peer.c - reading another lircd's key lines (lircd --connect).
 */
#include "lircd_peer.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lircd_net.h"
#include "out_lircd.h"

#define ID_CHARS "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
#define HEX_CHARS "0123456789abcdefABCDEF"

struct ir_lircd_peer {
	int fd;
	bool connecting;
	char greeting[64];
	size_t greeting_len, greeting_sent;
	char line[IR_LIRCD_LINE_MAX + 1];
	size_t line_len;
	bool discarding;          /* inside a line too long */
	bool in_reply;            /* between BEGIN and END */
	unsigned reply_line;      /* lines since BEGIN */
	bool reply_is_peer, reply_ok;
	char peer_id[24];
	uint64_t rejected;
	ir_lircd_peer_key_fn fn;
	void *userdata;
};

int ir_lircd_peer_new(const char *target, const char *own_id, ir_lircd_peer_key_fn fn,
		      void *userdata, struct ir_lircd_peer **out)
{
	struct ir_lircd_peer *p;
	int fd;

	if (!target || !own_id || !fn || !out || strlen(own_id) >= sizeof(p->peer_id))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	fd = ir_lircd_net_connect(target);
	if (fd < 0) {
		free(p);
		return fd;
	}
	p->fd = fd;
	/* a TCP connect may still be under way: POLLOUT says when it ended */
	p->connecting = ir_lircd_net_is_tcp(target);
	p->greeting_len = (size_t)snprintf(p->greeting, sizeof(p->greeting), "IRJACK_PEER %s\n",
					   own_id);
	p->fn = fn;
	p->userdata = userdata;
	*out = p;
	return 0;
}

void ir_lircd_peer_free(struct ir_lircd_peer *p)
{
	if (!p)
		return;
	close(p->fd);
	free(p);
}

int ir_lircd_peer_fd(const struct ir_lircd_peer *p)
{
	return p->fd;
}

short ir_lircd_peer_events(const struct ir_lircd_peer *p)
{
	return p->connecting || p->greeting_sent < p->greeting_len ? POLLOUT : POLLIN;
}

const char *ir_lircd_peer_id(const struct ir_lircd_peer *p)
{
	return p->peer_id;
}

uint64_t ir_lircd_peer_rejected(const struct ir_lircd_peer *p)
{
	return p->rejected;
}

static int parse_hex(const char *text, size_t max_digits, uint64_t *out)
{
	size_t n = strspn(text, HEX_CHARS);

	if (n == 0 || n > max_digits || text[n])
		return -EINVAL;
	*out = strtoull(text, NULL, 16);
	return 0;
}

/* "ORIGIN:SEQ" (irjackd peers' fifth field). */
static int parse_origin(char *field, struct ir_key_origin *o)
{
	char *colon = strchr(field, ':');
	size_t len = colon ? (size_t)(colon - field) : 0;

	if (!len || len >= sizeof(o->id) || strspn(field, ID_CHARS) != len ||
	    parse_hex(colon + 1, 16, &o->seq) < 0 || o->seq == 0)
		return -EINVAL;
	memcpy(o->id, field, len);
	o->id[len] = '\0';
	return 0;
}

int ir_lircd_peer_parse(char *line, struct ir_lircd_peer_key *k)
{
	char *field[6], *save = NULL;
	uint64_t repeat;
	int n = 0;

	memset(k, 0, sizeof(*k));
	for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == 6)
			return -EINVAL;
		field[n++] = t;
	}
	if (n < 4 || n > 5 || parse_hex(field[0], 16, &k->scancode) < 0 ||
	    parse_hex(field[1], 8, &repeat) < 0)
		return -EINVAL;
	if (n == 5 && parse_origin(field[4], &k->origin) < 0)
		return -EINVAL;
	k->repeat = (unsigned)repeat;
	k->key = field[2];
	k->remote = field[3];
	return 0;
}

/* A line inside a reply block: the IRJACK_PEER answer gives the peer's id.
 * Lines after BEGIN: 1 command, 2 SUCCESS|ERROR, 3 DATA, 4 count, 5 id. */
static void reply_line(struct ir_lircd_peer *p, const char *line)
{
	p->reply_line++;
	if (!strcmp(line, "END"))
		p->in_reply = false;
	else if (p->reply_line == 1)
		p->reply_is_peer = !strncmp(line, "IRJACK_PEER", 11);
	else if (p->reply_line == 2)
		p->reply_ok = !strcmp(line, "SUCCESS");
	else if (p->reply_line == 5 && p->reply_is_peer && p->reply_ok &&
		 strlen(line) < sizeof(p->peer_id) && strspn(line, ID_CHARS) == strlen(line))
		snprintf(p->peer_id, sizeof(p->peer_id), "%s", line);
}

static void take_line(struct ir_lircd_peer *p, char *line)
{
	struct ir_lircd_peer_key k;

	if (p->in_reply) {
		reply_line(p, line);
		return;
	}
	if (!strcmp(line, "BEGIN")) {
		/* a reply (ours), or lircd's SIGHUP notice: not a key */
		p->in_reply = true;
		p->reply_line = 0;
		p->reply_is_peer = p->reply_ok = false;
		return;
	}
	if (ir_lircd_peer_parse(line, &k) < 0) {
		p->rejected++;
		return;
	}
	snprintf(k.origin.via, sizeof(k.origin.via), "%s", p->peer_id);
	p->fn(p->userdata, &k);
}

static void take_bytes(struct ir_lircd_peer *p, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ch = buf[i];

		if (ch == '\n') {
			p->line[p->line_len] = '\0';
			if (!p->discarding)
				take_line(p, p->line);
			else
				p->rejected++;
			p->discarding = false;
			p->line_len = 0;
		} else if (p->discarding) {
			continue;
		} else if (p->line_len == IR_LIRCD_LINE_MAX || ch == '\0') {
			p->discarding = true;
		} else {
			p->line[p->line_len++] = ch;
		}
	}
}

/* The connect's end, then the greeting. */
static int send_greeting(struct ir_lircd_peer *p)
{
	if (p->connecting) {
		int ret = ir_lircd_net_connect_result(p->fd);

		if (ret == -EINPROGRESS || ret == -EALREADY)
			return 0;
		if (ret < 0)
			return ret;
		p->connecting = false;
	}
	while (p->greeting_sent < p->greeting_len) {
		ssize_t n = send(p->fd, p->greeting + p->greeting_sent,
				 p->greeting_len - p->greeting_sent, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
		p->greeting_sent += (size_t)n;
	}
	return 0;
}

int ir_lircd_peer_process(struct ir_lircd_peer *p)
{
	char buf[4096];
	/* 64 KiB per call: a peer that floods must not hold the caller */
	unsigned reads = 16;
	int ret = send_greeting(p);

	if (ret < 0 || p->connecting)
		return ret;
	while (reads--) {
		ssize_t n = recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n == 0)
			return -ECONNRESET;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -errno;
		take_bytes(p, buf, (size_t)n);
	}
	return 0;
}
