/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lircd_net.c - lircd over the network: addresses ([ADDR:]PORT,
 * HOST[:PORT], [V6]:PORT), a peer's key lines, and the loop rules of the
 * lircd socket towards irjackd peers (IRJACK_PEER, ORIGIN:SEQ, nothing
 * sent back where it came from), with a real lircd_peer reading a server.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "lircd_net.h"
#include "lircd_peer.h"
#include "out_lircd.h"

static void test_address_parse(void **state)
{
	char host[64];
	unsigned port;

	(void)state;
	assert_int_equal(ir_lircd_net_parse("8765", 0, host, sizeof(host), &port), 0);
	assert_string_equal(host, "");
	assert_int_equal(port, 8765);
	assert_int_equal(ir_lircd_net_parse("127.0.0.1:9000", 0, host, sizeof(host), &port), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 9000);
	assert_int_equal(ir_lircd_net_parse("[::1]:9001", 0, host, sizeof(host), &port), 0);
	assert_string_equal(host, "::1");
	assert_int_equal(port, 9001);
	/* connect: the port may be left out (lircd's 8765) */
	assert_int_equal(ir_lircd_net_parse("tv-box", 1, host, sizeof(host), &port), 0);
	assert_string_equal(host, "tv-box");
	assert_int_equal(port, 8765);
	assert_int_equal(ir_lircd_net_parse("tv-box", 0, host, sizeof(host), &port), -EINVAL);
	assert_int_equal(ir_lircd_net_parse("h:0", 0, host, sizeof(host), &port), -EINVAL);
	assert_int_equal(ir_lircd_net_parse("h:65536", 0, host, sizeof(host), &port), -EINVAL);
	assert_int_equal(ir_lircd_net_parse("h:80x", 0, host, sizeof(host), &port), -EINVAL);
	assert_int_equal(ir_lircd_net_parse("::1:80", 1, host, sizeof(host), &port), -EINVAL);
	assert_int_equal(ir_lircd_net_parse("", 1, host, sizeof(host), &port), -EINVAL);
	assert_int_equal(ir_lircd_net_parse("a-very-long-host-name-that-does-not-fit-in-the-buffer-"
					    "given-here:1",
					    0, host, 16, &port),
			 -ENAMETOOLONG);
	assert_true(ir_lircd_net_is_tcp("host:1"));
	assert_false(ir_lircd_net_is_tcp("/run/lirc/lircd"));
}

static void test_peer_line_parse(void **state)
{
	struct ir_lircd_peer_key k;
	char line[128];

	(void)state;
	snprintf(line, sizeof(line), "00000000000004fb 02 KEY_POWER tv");
	assert_int_equal(ir_lircd_peer_parse(line, &k), 0);
	assert_int_equal(k.scancode, 0x4fb);
	assert_int_equal(k.repeat, 2);
	assert_string_equal(k.key, "KEY_POWER");
	assert_string_equal(k.remote, "tv");
	assert_string_equal(k.origin.id, "");
	snprintf(line, sizeof(line), "0000000000000001 00 KEY_1 tv 0123abcd-x:1f");
	assert_int_equal(ir_lircd_peer_parse(line, &k), 0);
	assert_string_equal(k.origin.id, "0123abcd-x");
	assert_int_equal(k.origin.seq, 0x1f);
	static const char *const bad[] = {
		"", "BEGIN", "0001 00 KEY_1", "zz 00 KEY_1 tv", "00000000000000001 00 KEY_1 tv",
		"0001 0g KEY_1 tv", "0001 00 KEY_1 tv id", "0001 00 KEY_1 tv id:0",
		"0001 00 KEY_1 tv :5", "0001 00 KEY_1 tv a b",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i]);
		assert_int_equal(ir_lircd_peer_parse(line, &k), -EINVAL);
	}
}

static char path[108];

/* Runs the server until `fd` has a line ending in `until` or 1 s passes;
 * what came (NUL-terminated). */
static void read_until(struct ir_lircd *s, int fd, char *buf, size_t size, const char *until)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < 100 && !strstr(buf, until); i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		ir_lircd_process(s);
		if (poll(&p, 1, 10) == 1) {
			ssize_t n = read(fd, buf + len, size - 1 - len);

			if (n <= 0)
				break;
			len += (size_t)n;
			buf[len] = '\0';
		}
	}
}

/* Whatever `fd` has now, after the server ran (NUL-terminated). */
static void drain(struct ir_lircd *s, int fd, char *buf, size_t size)
{
	ssize_t n;

	ir_lircd_process(s);
	n = recv(fd, buf, size - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
}

static void broadcast(struct ir_lircd *s, const char *key, const struct ir_key_origin *origin)
{
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .remote = "tv", .key = key,
				   .scancode = 1, .origin = origin };

	ir_lircd_broadcast(s, &ev);
}

static void test_peer_gets_origin_and_no_echo(void **state)
{
	struct ir_lircd_config cfg = { .path = path, .mode = 0600, .instance_id = "aaa" };
	struct ir_lircd *s;
	int plain = -1, peer;
	char buf[1024];

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-net-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	plain = ir_lircd_net_connect(path);
	peer = ir_lircd_net_connect(path);
	assert_true(plain >= 0 && peer >= 0);
	assert_int_equal(write(peer, "IRJACK_PEER bbb\n", 16), 16);
	read_until(s, peer, buf, sizeof(buf), "END\n");
	assert_string_equal(buf, "BEGIN\nIRJACK_PEER bbb\nSUCCESS\nDATA\n1\naaa\nEND\n");

	broadcast(s, "KEY_1", NULL); /* decoded here: ours, numbered 1 */
	read_until(s, plain, buf, sizeof(buf), "\n");
	assert_string_equal(buf, "0000000000000001 00 KEY_1 tv\n");
	read_until(s, peer, buf, sizeof(buf), "\n");
	assert_string_equal(buf, "0000000000000001 00 KEY_1 tv aaa:1\n");

	/* from bbb itself, or read from bbb: not sent back to bbb */
	broadcast(s, "KEY_2", &(struct ir_key_origin){ .id = "bbb", .seq = 5, .via = "bbb" });
	broadcast(s, "KEY_3", &(struct ir_key_origin){ .id = "ccc", .seq = 7, .via = "bbb" });
	/* from ccc by way of ddd: bbb gets it, with ccc's number */
	broadcast(s, "KEY_4", &(struct ir_key_origin){ .id = "ccc", .seq = 8, .via = "ddd" });
	read_until(s, plain, buf, sizeof(buf), "KEY_4 tv\n");
	assert_string_equal(buf, "0000000000000001 00 KEY_2 tv\n0000000000000001 00 KEY_3 tv\n"
				 "0000000000000001 00 KEY_4 tv\n");
	read_until(s, peer, buf, sizeof(buf), "\n");
	assert_string_equal(buf, "0000000000000001 00 KEY_4 tv ccc:8\n");
	drain(s, peer, buf, sizeof(buf));
	assert_string_equal(buf, "");

	/* a bad id is refused and does not make a peer */
	assert_int_equal(write(plain, "IRJACK_PEER a:b\n", 16), 16);
	read_until(s, plain, buf, sizeof(buf), "END\n");
	assert_non_null(strstr(buf, "ERROR\nDATA\n1\nbad peer id\n"));
	close(plain);
	close(peer);
	ir_lircd_free(s);
}

struct got {
	char lines[8][96];
	unsigned n;
};

static void on_key(void *userdata, const struct ir_lircd_peer_key *k)
{
	struct got *g = userdata;

	if (g->n < 8)
		snprintf(g->lines[g->n++], sizeof(g->lines[0]), "%s %s %u %s:%llu via %s", k->remote,
			 k->key, k->repeat, k->origin.id, (unsigned long long)k->origin.seq,
			 k->origin.via);
}

/* A lircd_peer reading the server: it greets, learns the server's id,
 * skips the reply, and gets each key with its origin. */
static void test_peer_reads_a_server(void **state)
{
	struct ir_lircd_config cfg = { .path = path, .mode = 0600, .instance_id = "srv1" };
	struct ir_lircd *s;
	struct ir_lircd_peer *p;
	struct got got = { 0 };

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-net-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	assert_int_equal(ir_lircd_peer_new(path, "me", on_key, &got, &p), 0);
	for (int i = 0; i < 100 && !ir_lircd_peer_id(p)[0]; i++) {
		struct pollfd pf = { .fd = ir_lircd_peer_fd(p), .events = ir_lircd_peer_events(p) };

		ir_lircd_process(s);
		poll(&pf, 1, 10);
		assert_int_equal(ir_lircd_peer_process(p), 0);
	}
	assert_string_equal(ir_lircd_peer_id(p), "srv1");
	broadcast(s, "KEY_OK", NULL);
	/* ours come back from srv1 as srv1's: the daemon drops them by id */
	broadcast(s, "KEY_UP", &(struct ir_key_origin){ .id = "me", .seq = 3, .via = "x" });
	broadcast(s, "KEY_DOWN", &(struct ir_key_origin){ .id = "other", .seq = 9, .via = "x" });
	for (int i = 0; i < 100 && got.n < 2; i++) {
		struct pollfd pf = { .fd = ir_lircd_peer_fd(p), .events = POLLIN };

		ir_lircd_process(s);
		poll(&pf, 1, 10);
		assert_int_equal(ir_lircd_peer_process(p), 0);
	}
	assert_int_equal(got.n, 2);
	assert_string_equal(got.lines[0], "tv KEY_OK 0 srv1:1 via srv1");
	assert_string_equal(got.lines[1], "tv KEY_DOWN 0 other:9 via srv1");
	assert_int_equal(ir_lircd_peer_rejected(p), 0);
	ir_lircd_free(s);
	/* the server gone: the connection ends */
	int ret = 0;

	for (int i = 0; i < 100 && ret == 0; i++) {
		struct pollfd pf = { .fd = ir_lircd_peer_fd(p), .events = POLLIN };

		poll(&pf, 1, 10);
		ret = ir_lircd_peer_process(p);
	}
	assert_int_equal(ret, -ECONNRESET);
	ir_lircd_peer_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address_parse),
		cmocka_unit_test(test_peer_line_parse),
		cmocka_unit_test(test_peer_gets_origin_and_no_echo),
		cmocka_unit_test(test_peer_reads_a_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
