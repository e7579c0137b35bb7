/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lircd socket: lircd's broadcast lines and command replies byte for
 * byte, errors for bad commands and long lines, SEND_* reaching the
 * transmit callback, and a client that never reads being dropped without
 * holding up the others.  Real UNIX sockets; the real lirc clients (irw,
 * irsend, irexec) are exercised against irjackd in test_irjackd.sh.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir_time.h"
#include "out_lircd.h"

static char path[108];
static char sent[256];

static int on_send(void *userdata, enum ir_lircd_send kind, const char *remote, const char *key,
		   unsigned repeats, char *error, size_t size)
{
	(void)userdata;
	(void)error;
	(void)size;
	if (strcmp(key, "KEY_MUTE") == 0)
		return -ENOENT;
	snprintf(sent, sizeof(sent), "%d %s %s %u", (int)kind, remote, key, repeats);
	return 0;
}

static struct ir_keymap *keymap(void)
{
	struct ir_keymap *km;
	unsigned r;

	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "tv", &r), 0);
	assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, 0x04fb, "KEY_POWER"), 0);
	assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, 0x0408, "KEY_1"), 0);
	assert_int_equal(ir_keymap_add_remote(km, "vcr", &r), 0);
	return km;
}

static int connect_client(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	memcpy(a.sun_path, path, strlen(path) + 1);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	return fd;
}

/* Runs the server until `fd` has `want` bytes to read or 2 s pass. */
static size_t read_reply(struct ir_lircd *s, int fd, char *buf, size_t size, const char *until)
{
	size_t len = 0;

	for (int i = 0; i < 200; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		ir_lircd_process(s);
		if (poll(&p, 1, 10) == 1) {
			ssize_t n = read(fd, buf + len, size - 1 - len);

			if (n <= 0)
				break;
			len += (size_t)n;
			buf[len] = '\0';
			if (strstr(buf, until))
				break;
		}
	}
	buf[len] = '\0';
	return len;
}

static void command(struct ir_lircd *s, int fd, const char *cmd, const char *want)
{
	char buf[4096];

	assert_int_equal(write(fd, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	read_reply(s, fd, buf, sizeof(buf), "END\n");
	assert_string_equal(buf, want);
}

static void test_commands_and_broadcast(void **state)
{
	struct ir_keymap *km = keymap();
	struct ir_lircd_config cfg = { .path = path, .mode = 0600, .keymap = km, .send = on_send };
	struct ir_lircd *s;
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .remote = "tv", .key = "KEY_POWER",
				   .scancode = 0x04fb };
	char buf[512];
	int a, b;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	a = connect_client();
	b = connect_client();
	command(s, a, "VERSION\n", "BEGIN\nVERSION\nSUCCESS\nDATA\n1\n" IR_LIRCD_VERSION "\nEND\n");
	command(s, a, "list\n", "BEGIN\nlist\nSUCCESS\nDATA\n2\ntv\nvcr\nEND\n");
	command(s, a, "LIST tv\n",
		"BEGIN\nLIST tv\nSUCCESS\nDATA\n2\n00000000000004fb KEY_POWER\n0000000000000408 KEY_1\nEND\n");
	command(s, a, "LIST TV key_1\n",
		"BEGIN\nLIST TV key_1\nSUCCESS\nDATA\n1\n0000000000000408 KEY_1\nEND\n");
	command(s, a, "LIST radio\n",
		"BEGIN\nLIST radio\nERROR\nDATA\n1\nunknown remote: \"radio\"\nEND\n");
	command(s, a, "SEND_ONCE tv KEY_POWER 3\n", "BEGIN\nSEND_ONCE tv KEY_POWER 3\nSUCCESS\nEND\n");
	assert_string_equal(sent, "0 tv KEY_POWER 3");
	command(s, a, "SEND_ONCE tv KEY_MUTE\n",
		"BEGIN\nSEND_ONCE tv KEY_MUTE\nERROR\nDATA\n1\nunknown command: \"KEY_MUTE\"\nEND\n");
	command(s, a, "SEND_ONCE tv\n", "BEGIN\nSEND_ONCE tv\nERROR\nDATA\n1\nbad send packet\nEND\n");
	/* SEND_STOP's names are optional, as in lircd */
	command(s, a, "SEND_STOP\n", "BEGIN\nSEND_STOP\nSUCCESS\nEND\n");
	assert_string_equal(sent, "2   0");
	command(s, a, "SEND_STOP tv\n", "BEGIN\nSEND_STOP tv\nSUCCESS\nEND\n");
	assert_string_equal(sent, "2 tv  0");
	command(s, a, "SEND_STOP radio\n",
		"BEGIN\nSEND_STOP radio\nERROR\nDATA\n1\nunknown remote: \"radio\"\nEND\n");
	command(s, a, "SEND_STOP tv KEY_POWER 2\n",
		"BEGIN\nSEND_STOP tv KEY_POWER 2\nERROR\nDATA\n1\nbad send packet\nEND\n");
	command(s, a, "SEND_START tv\n", "BEGIN\nSEND_START tv\nERROR\nDATA\n1\nbad send packet\nEND\n");
	command(s, a, "FROB x\n", "BEGIN\nFROB x\nERROR\nDATA\n1\nunknown directive: \"FROB\"\nEND\n");
	command(s, a, "SIMULATE 00000000000004fb 00 KEY_POWER tv\n",
		"BEGIN\nSIMULATE 00000000000004fb 00 KEY_POWER tv\nERROR\nDATA\n1\n"
		"SIMULATE command is disabled\nEND\n");
	command(s, a, "SET_TRANSMITTERS 1 3\n",
		"BEGIN\nSET_TRANSMITTERS 1 3\nERROR\nDATA\n1\n"
		"hardware does not support setting transmitters\nEND\n");
	/* lircd's SET_INPUTLOG and DRV_OPTION, as lircd words its replies */
	command(s, a, "SET_INPUTLOG\n", "BEGIN\nSET_INPUTLOG\nSUCCESS\nEND\n");
	command(s, a, "SET_INPUTLOG null\n", "BEGIN\nSET_INPUTLOG null\nSUCCESS\nEND\n");
	command(s, a, "SET_INPUTLOG /etc/passwd\n",
		"BEGIN\nSET_INPUTLOG /etc/passwd\nERROR\nDATA\n1\n"
		"Cannot open input logfile: /etc/passwd (errno: 95)\nEND\n");
	command(s, a, "DRV_OPTION key value\n",
		"BEGIN\nDRV_OPTION key value\nERROR\nDATA\n1\n"
		"Cannot set driver option, code: 95\nEND\n");
	command(s, a, "DRV_OPTION key\n",
		"BEGIN\nDRV_OPTION key\nERROR\nDATA\n1\n"
		"Illegal argument (protocol error): key\nEND\n");
	/* a line over 256 bytes */
	memset(buf, 'x', 300);
	buf[300] = '\n';
	assert_int_equal(write(a, buf, 301), 301);
	command(s, a, "VERSION\n",
		"BEGIN\n\nERROR\nDATA\n1\nline too long\nEND\n"
		"BEGIN\nVERSION\nSUCCESS\nDATA\n1\n" IR_LIRCD_VERSION "\nEND\n");

	/* presses reach every client, as lircd writes them */
	ir_lircd_broadcast(s, &ev);
	ev.type = IR_KEY_REPEAT;
	ev.repeat = 1;
	ir_lircd_broadcast(s, &ev);
	ev.type = IR_KEY_UP;
	ir_lircd_broadcast(s, &ev);
	read_reply(s, b, buf, sizeof(buf), "01 KEY_POWER tv\n");
	assert_string_equal(buf, "00000000000004fb 00 KEY_POWER tv\n00000000000004fb 01 KEY_POWER tv\n");
	close(a);
	close(b);
	ir_lircd_free(s);
	assert_int_equal(access(path, F_OK), -1); /* the socket is removed */
	ir_keymap_free(km);
}

static void test_stuck_client_is_dropped(void **state)
{
	struct ir_lircd_config cfg = { .path = path, .mode = 0600, .allow_simulate = true };
	struct ir_lircd *s;
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .remote = "tv", .key = "KEY_POWER" };
	char buf[256];
	int stuck, reader;
	size_t got = 0;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	stuck = connect_client();
	reader = connect_client();
	ir_lircd_process(s);
	assert_int_equal(ir_lircd_client_count(s), 2);
	/* far more than the socket and the client buffer hold */
	for (unsigned i = 0; i < 20000; i++) {
		ev.repeat = i;
		ir_lircd_broadcast(s, &ev);
		ir_lircd_process(s);
		for (;;) {
			ssize_t n = recv(reader, buf, sizeof(buf), MSG_DONTWAIT);

			if (n <= 0)
				break;
			got += (size_t)n;
		}
	}
	ir_lircd_process(s);
	assert_int_equal(ir_lircd_client_count(s), 1);
	/* the reader got every line */
	for (;;) {
		ir_lircd_process(s);
		ssize_t n = recv(reader, buf, sizeof(buf), MSG_DONTWAIT);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	assert_int_equal(got, 20000 * strlen("0000000000000000 00 KEY_POWER tv\n"));
	/* SIMULATE, when allowed, broadcasts its line */
	command(s, reader, "SIMULATE 0000000000000001 00 KEY_OK tv\n",
		"0000000000000001 00 KEY_OK tv\n"
		"BEGIN\nSIMULATE 0000000000000001 00 KEY_OK tv\nSUCCESS\nEND\n");
	command(s, reader, "SIMULATE 01 00 KEY_OK tv\n",
		"BEGIN\nSIMULATE 01 00 KEY_OK tv\nERROR\nDATA\n1\nbad simulate command\nEND\n");
	close(stuck);
	close(reader);
	ir_lircd_free(s);
}

/* A client that pipelines commands faster than it reads is slowed down,
 * not dropped: 3,000 VERSION commands (about 150 KiB of replies, more than
 * its buffer and the socket hold) all answered in order. */
static void test_pipelining_client_is_served(void **state)
{
	static char cmds[3000 * 8];
	struct ir_lircd_config cfg = { .path = path };
	struct ir_lircd *s;
	char buf[65536];
	size_t replies = 0, written = 0;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	fd = connect_client();
	for (unsigned i = 0; i < 3000; i++)
		memcpy(cmds + 8 * i, "VERSION\n", 8);
	/* write everything first (as far as the socket takes it), then read */
	for (int i = 0; i < 2000 && written < sizeof(cmds); i++) {
		ssize_t n = send(fd, cmds + written, sizeof(cmds) - written, MSG_DONTWAIT);

		if (n > 0)
			written += (size_t)n;
		ir_lircd_process(s);
	}
	assert_int_equal(written, sizeof(cmds));
	for (int i = 0; i < 2000 && replies < 3000; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		ir_lircd_process(s);
		if (poll(&p, 1, 10) != 1)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		assert_true(n > 0);
		buf[n] = '\0';
		for (char *e = buf; (e = strstr(e, "SUCCESS\n")); e++)
			replies++;
	}
	assert_int_equal(replies, 3000);
	assert_int_equal(ir_lircd_client_count(s), 1);
	close(fd);
	ir_lircd_free(s);
}

/* A reply that does not fit is an ERROR, never a cut reply without its
 * END; LIST of a big remote answers at once. */
static void test_long_list(void **state)
{
	struct ir_keymap *km;
	struct ir_lircd_config cfg = { .path = path };
	struct ir_lircd *s;
	static char reply[IR_LIRCD_CLIENT_BUFFER];
	char key[32];
	unsigned r;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "big", &r), 0);
	for (unsigned i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "KEY_%u", i);
		/* each button under nec's three protocols, as a TOML nec keymap */
		assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, i, key), 0);
		assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NECX, 0, i, key), 0);
		assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC32, 0, i, key), 0);
	}
	cfg.keymap = km;
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	/* (how the time grows with the buttons: bench/bench_lircd) */
	ir_lircd_command(s, "LIST big", reply, sizeof(reply));
	assert_string_equal(reply, "BEGIN\nLIST big\nERROR\nDATA\n1\nreply longer than 65536 bytes\nEND\n");
	/* what fits is whole: 20,000 lines in 1 MiB, each button once */
	{
		static char big[1 << 20];
		size_t len = ir_lircd_command(s, "LIST big", big, sizeof(big));

		assert_true(len > 0 && len < sizeof(big) - 1);
		assert_memory_equal(big, "BEGIN\nLIST big\nSUCCESS\nDATA\n20000\n", 33);
		assert_string_equal(big + len - 31, "0000000000004e1f KEY_19999\nEND\n");
	}
	ir_lircd_free(s);
	ir_keymap_free(km);
}

/* LIST of a 100,000-button remote over the socket: streamed whole as the
 * client reads it (it was an ERROR past 64 KiB, built whole in one pass
 * that held every other client up); while one client lists, another's
 * VERSION is answered in the next pass; a key press broadcast during the
 * stream comes after its END, never inside the reply. */
static void test_list_streamed(void **state)
{
	struct ir_keymap *km;
	struct ir_lircd_config cfg = { .path = path, .mode = 0600 };
	struct ir_key_event ev = { .type = IR_KEY_DOWN, .remote = "big", .key = "KEY_7",
				   .scancode = 7 };
	struct ir_lircd *s;
	static char buf[8 << 20];
	char key[32], version[256];
	size_t len = 0, lines = 0;
	unsigned r;
	int a, b;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_keymap_new(&km), 0);
	assert_int_equal(ir_keymap_add_remote(km, "big", &r), 0);
	for (unsigned i = 0; i < 100000; i++) {
		snprintf(key, sizeof(key), "KEY_%u", i);
		assert_int_equal(ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, i, key), 0);
	}
	cfg.keymap = km;
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	a = connect_client();
	b = connect_client();
	assert_int_equal(write(a, "LIST big\n", 9), 9);
	ir_lircd_process(s);
	/* a has read nothing yet: b is served in the next pass */
	assert_int_equal(write(b, "VERSION\n", 8), 8);
	ir_lircd_process(s);
	assert_true(read(b, version, sizeof(version)) > 0);
	assert_memory_equal(version, "BEGIN\nVERSION\nSUCCESS\n", 22);
	ir_lircd_broadcast(s, &ev);
	for (int i = 0; i < 100000 && !strstr(buf + (len > 64 ? len - 64 : 0), "KEY_7 big\n"); i++) {
		struct pollfd p = { .fd = a, .events = POLLIN };

		ir_lircd_process(s);
		if (poll(&p, 1, 10) == 1) {
			ssize_t n = read(a, buf + len, sizeof(buf) - 1 - len);

			assert_true(n > 0);
			len += (size_t)n;
			buf[len] = '\0';
		}
	}
	assert_memory_equal(buf, "BEGIN\nLIST big\nSUCCESS\nDATA\n100000\n0000000000000000 KEY_0\n",
			    56);
	for (char *p = strchr(buf, '\n'); p; p = strchr(p + 1, '\n'))
		lines++;
	/* BEGIN, LIST, SUCCESS, DATA, the count, 100,000 lines, END, the press */
	assert_int_equal(lines, 5 + 100000 + 2);
	assert_string_equal(buf + len - 61,
			    "000000000001869f KEY_99999\nEND\n0000000000000007 00 KEY_7 big\n");
	/* a keymap changed under a stream ends that client, not the server */
	assert_int_equal(write(a, "LIST big\n", 9), 9);
	ir_lircd_process(s);
	ir_lircd_set_keymap(s, NULL);
	ir_lircd_process(s);
	assert_int_equal(ir_lircd_client_count(s), 1);
	close(a);
	close(b);
	ir_lircd_free(s);
	ir_keymap_free(km);
}

static char displayed[256];

static int on_display(void *userdata, const char *request, char *error, size_t size)
{
	(void)userdata;
	if (!strncmp(request, "BAD", 3)) {
		snprintf(error, size, "expected TEXT");
		return -EINVAL;
	}
	snprintf(displayed, sizeof(displayed), "%s", request);
	return 0;
}

/* DISPLAY hands the rest of the line over as it is (spaces inside the
 * text kept); without a display callback it is unknown, as for lircd. */
static void test_display_command(void **state)
{
	struct ir_lircd_config cfg = { .path = path, .display = on_display };
	struct ir_lircd *s;
	char reply[512];

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	ir_lircd_command(s, "DISPLAY  TEXT Now playing|Track  2", reply, sizeof(reply));
	assert_string_equal(reply, "BEGIN\nDISPLAY  TEXT Now playing|Track  2\nSUCCESS\nEND\n");
	assert_string_equal(displayed, "TEXT Now playing|Track  2");
	ir_lircd_command(s, "display BAD", reply, sizeof(reply));
	assert_string_equal(reply, "BEGIN\ndisplay BAD\nERROR\nDATA\n1\nexpected TEXT\nEND\n");
	ir_lircd_free(s);
	cfg.display = NULL;
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	ir_lircd_command(s, "DISPLAY CLOCK", reply, sizeof(reply));
	assert_string_equal(reply,
			    "BEGIN\nDISPLAY CLOCK\nERROR\nDATA\n1\nunknown directive: \"DISPLAY\"\nEND\n");
	ir_lircd_free(s);
}

static void test_nul_byte(void **state)
{
	struct ir_lircd_config cfg = { .path = path };
	struct ir_lircd *s;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	fd = connect_client();
	assert_int_equal(write(fd, "VER\0SION\n", 9), 9);
	command(s, fd, "VERSION\n",
		"BEGIN\n\nERROR\nDATA\n1\nNUL byte in command\nEND\n"
		"BEGIN\nVERSION\nSUCCESS\nDATA\n1\n" IR_LIRCD_VERSION "\nEND\n");
	close(fd);
	ir_lircd_free(s);
}

/* The socket file has exactly the mode asked for, 0 included (it used to
 * mean 0666: anyone could transmit), and the process's umask is left as
 * it was; a mode beyond 0777 is refused. */
static void test_socket_mode_is_exact(void **state)
{
	static const unsigned modes[] = { 0660, 0600, 0640, 0, 0777 };
	struct ir_lircd_config cfg = { .path = path };
	struct ir_lircd *s;
	struct stat st;
	mode_t before = umask(022), after;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-mode-%d", (int)getpid());
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		cfg.mode = modes[i];
		assert_int_equal(ir_lircd_new(&cfg, &s), 0);
		assert_int_equal(stat(path, &st), 0);
		assert_true(S_ISSOCK(st.st_mode));
		assert_int_equal(st.st_mode & 07777, modes[i]);
		ir_lircd_free(s);
	}
	after = umask(before);
	assert_int_equal(after, 022);
	cfg.mode = 01777;
	assert_int_equal(ir_lircd_new(&cfg, &s), -EINVAL);
	assert_int_equal(stat(path, &st), -1);
}

/* A client that connected just before the socket file was deleted and
 * SIGHUP made it anew, and that the server had not yet accepted, is served
 * (it was reset with the old listening socket: fault_socket, now and then
 * on a loaded host). */
static void test_socket_made_anew_keeps_pending_client(void **state)
{
	struct ir_lircd_config cfg = { .path = path, .mode = 0600 };
	struct ir_lircd *s;
	int pending;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	pending = connect_client(); /* in the backlog: nothing processed yet */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(ir_lircd_check_socket(s), 1);
	command(s, pending, "VERSION\n", "BEGIN\nVERSION\nSUCCESS\nDATA\n1\n" IR_LIRCD_VERSION "\nEND\n");
	close(pending);
	ir_lircd_free(s);
}

/* A client that hung up is neither counted nor holds a place, whenever the
 * loop last ran: with the server full, one client closes and another
 * connects at once; the newcomer is served (it was refused while the
 * loop had not read the first one's end yet). */
static void test_hung_up_client_frees_its_place(void **state)
{
	struct ir_lircd_config cfg = { .path = path, .mode = 0600 };
	struct ir_lircd *s;
	int fds[IR_LIRCD_MAX_CLIENTS], late;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	for (int i = 0; i < IR_LIRCD_MAX_CLIENTS; i++) {
		fds[i] = connect_client();
		ir_lircd_process(s); /* (the listen backlog is short) */
	}
	assert_int_equal(ir_lircd_client_count(s), IR_LIRCD_MAX_CLIENTS);
	close(fds[7]);
	assert_int_equal(ir_lircd_client_count(s), IR_LIRCD_MAX_CLIENTS - 1);
	close(fds[8]);
	late = connect_client();
	command(s, late, "VERSION\n", "BEGIN\nVERSION\nSUCCESS\nDATA\n1\n" IR_LIRCD_VERSION "\nEND\n");
	assert_int_equal(ir_lircd_client_count(s), IR_LIRCD_MAX_CLIENTS - 1);
	/* a client that shut its side down after asking still gets the reply */
	assert_int_equal(write(fds[9], "VERSION\n", 8), 8);
	assert_int_equal(shutdown(fds[9], SHUT_WR), 0);
	{
		char buf[256];

		read_reply(s, fds[9], buf, sizeof(buf), "END\n");
		assert_string_equal(buf, "BEGIN\nVERSION\nSUCCESS\nDATA\n1\n" IR_LIRCD_VERSION "\nEND\n");
	}
	for (int i = 0; i < IR_LIRCD_MAX_CLIENTS; i++)
		if (i != 7 && i != 8)
			close(fds[i]);
	close(late);
	assert_int_equal(ir_lircd_client_count(s), 0);
	ir_lircd_free(s);
}

static void keep_last_line(void *userdata, const char *message)
{
	snprintf(userdata, 256, "%s", message);
}

/* Refused clients are logged at most once a second; the count of those
 * refused within that second is due at its end, and the loop must learn
 * when (ir_lircd_due_us), or the line waited for the next event, which on
 * a quiet daemon may never come. */
static void test_refused_count_is_due_within_a_second(void **state)
{
	char last[256] = "";
	struct ir_lircd_config cfg = { .path = path, .mode = 0600, .log = keep_last_line,
				       .userdata = last };
	struct ir_lircd *s;
	int fds[IR_LIRCD_MAX_CLIENTS], extra[3];
	uint64_t due;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/irjack-lircd-test-%d", (int)getpid());
	assert_int_equal(ir_lircd_new(&cfg, &s), 0);
	for (int i = 0; i < IR_LIRCD_MAX_CLIENTS; i++) {
		fds[i] = connect_client();
		ir_lircd_process(s);
	}
	assert_true(ir_lircd_due_us(s) == UINT64_MAX);
	extra[0] = connect_client();
	ir_lircd_process(s); /* the first refusal is logged at once */
	assert_string_equal(last, "lircd: refused 1 client: 64 connected, the maximum");
	assert_true(ir_lircd_due_us(s) == UINT64_MAX);
	extra[1] = connect_client();
	extra[2] = connect_client();
	ir_lircd_process(s);
	due = ir_lircd_due_us(s);
	assert_true(due > ir_monotonic_us() && due <= ir_monotonic_us() + 1000000);
	while (ir_monotonic_us() < due)
		usleep(20000);
	ir_lircd_process(s);
	assert_string_equal(last, "lircd: refused 2 clients: 64 connected, the maximum");
	assert_true(ir_lircd_due_us(s) == UINT64_MAX);
	for (int i = 0; i < 3; i++)
		close(extra[i]);
	for (int i = 0; i < IR_LIRCD_MAX_CLIENTS; i++)
		close(fds[i]);
	ir_lircd_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commands_and_broadcast),
		cmocka_unit_test(test_refused_count_is_due_within_a_second),
		cmocka_unit_test(test_stuck_client_is_dropped),
		cmocka_unit_test(test_pipelining_client_is_served),
		cmocka_unit_test(test_long_list),
		cmocka_unit_test(test_list_streamed),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_display_command),
		cmocka_unit_test(test_socket_made_anew_keeps_pending_client),
		cmocka_unit_test(test_socket_mode_is_exact),
		cmocka_unit_test(test_hung_up_client_frees_its_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
