/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_lircd: the lircd socket's LIST for a remote of N buttons (each
 * under nec, necx and nec32, as an rc_keymaps nec keymap gives them), for
 * N = 2,000 and 20,000: time per call and the ratio, which is ~10 when
 * the work grows linearly with the buttons (100 would be quadratic).
 * Then, with a lircd.conf remote of 100,000 buttons: the CPU a decoded
 * frame costs (decoders and keymap lookup), and how long a new client
 * waits for VERSION while 16 clients loop LIST of that remote and another
 * user (nobody, when run as root) holds 64 idle connections.
 * Usage: bench_lircd [REPEATS]   (default 20 calls per size)
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ir_decoder.h"
#include "ir_keymap.h"
#include "ir_keymap_file.h"
#include "out_lircd.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds per LIST of a remote of `buttons` buttons, best of `repeats`. */
static double list_seconds(unsigned buttons, unsigned repeats)
{
	static char reply[1 << 20];
	struct ir_lircd_config cfg = { 0 };
	struct ir_keymap *km;
	struct ir_lircd *s;
	char path[64], key[32];
	double best = 1e9;
	unsigned r;

	if (ir_keymap_new(&km) < 0 || ir_keymap_add_remote(km, "big", &r) < 0)
		exit(1);
	for (unsigned i = 0; i < buttons; i++) {
		snprintf(key, sizeof(key), "KEY_%u", i);
		if (ir_keymap_add_key(km, r, IR_PROTO_NEC, 0, i, key) < 0 ||
		    ir_keymap_add_key(km, r, IR_PROTO_NECX, 0, i, key) < 0 ||
		    ir_keymap_add_key(km, r, IR_PROTO_NEC32, 0, i, key) < 0)
			exit(1);
	}
	snprintf(path, sizeof(path), "/tmp/irjack-bench-lircd-%d", (int)getpid());
	cfg.path = path;
	cfg.keymap = km;
	cfg.mode = 0600;
	if (ir_lircd_new(&cfg, &s) < 0)
		exit(1);
	for (unsigned i = 0; i < repeats; i++) {
		double t0 = now_s(), t;

		if (ir_lircd_command(s, "LIST big", reply, sizeof(reply)) == 0)
			exit(1);
		t = now_s() - t0;
		if (t < best)
			best = t;
	}
	ir_lircd_free(s);
	ir_keymap_free(km);
	return best;
}

/* Writes a lircd.conf remote "big" of `buttons` NEC-like 32-bit codes
 * (SPACE_ENC, as irrecord writes them) to `path`. */
static void write_big_remote(const char *path, unsigned buttons)
{
	FILE *f = fopen(path, "w");

	if (!f)
		exit(1);
	fprintf(f, "begin remote\n  name big\n  bits 32\n  flags SPACE_ENC|CONST_LENGTH\n"
		   "  eps 30\n  aeps 100\n  header 9000 4500\n  one 560 1690\n  zero 560 560\n"
		   "  ptrail 560\n  repeat 9000 2250\n  gap 108000\n  begin codes\n");
	for (unsigned i = 0; i < buttons; i++)
		fprintf(f, "    BTN_%u 0x%08X\n", i, 0x10EF0000u + i * 2654435761u % 0xFFFFu);
	fprintf(f, "  end codes\nend remote\n");
	fclose(f);
}

struct frame_count {
	const struct ir_keymap *km;
	unsigned frames, named;
};

static void count_frame(void *userdata, const struct ir_frame *frame)
{
	struct frame_count *fc = userdata;
	struct ir_key_binding b;

	fc->frames++;
	fc->named += ir_keymap_lookup(fc->km, frame, &b);
}

/* Microseconds of CPU per decoded frame (decoder and keymap lookup) with
 * a lircd.conf remote of `buttons` buttons; exits on a frame not named. */
static double frame_us(unsigned buttons, unsigned frames)
{
	char path[64], key[32];
	struct ir_keymap *km;
	struct ir_keymap_error err;
	struct ir_decoder *dec;
	struct ir_edge_buf buf = { 0 };
	struct frame_count fc = { 0 };
	double t0, t;

	snprintf(path, sizeof(path), "/tmp/irjack-bench-big-%d.conf", (int)getpid());
	write_big_remote(path, buttons);
	if (ir_keymap_new(&km) < 0 || ir_keymap_load(km, path, &err) < 0) {
		fprintf(stderr, "%s:%u: %s\n", err.file, err.parse.line, err.parse.message);
		exit(1);
	}
	unlink(path);
	fc.km = km;
	if (ir_decoder_new(NULL, count_frame, &fc, &dec) < 0 || ir_keymap_attach(km, dec) < 0)
		exit(1);
	for (unsigned i = 0; i < frames; i++) {
		snprintf(key, sizeof(key), "BTN_%u", (i * 7919u) % buttons);
		if (ir_keymap_encode(km, "big", key, 0, &buf) < 0 ||
		    ir_edge_buf_push(&buf, ir_space(200000)) < 0)
			exit(1);
	}
	t0 = now_s();
	ir_decoder_feed_many(dec, buf.edges, buf.len);
	t = now_s() - t0;
	if (fc.named != frames) {
		fprintf(stderr, "%u of %u frames named\n", fc.named, frames);
		exit(1);
	}
	ir_edge_buf_free(&buf);
	ir_decoder_free(dec);
	ir_keymap_free(km);
	return t / frames * 1e6;
}

/* ---- VERSION under load ---- */

static atomic_bool stop, stop_server;
static atomic_ulong lists_done;
static char sock_path[64];

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Sends `cmd` and reads until the reply's END; false on a closed socket. */
static bool round_trip(int fd, const char *cmd)
{
	static _Thread_local char buf[65536 + 8];
	size_t kept = 0;

	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return false;
	for (;;) {
		ssize_t n = read(fd, buf + kept, sizeof(buf) - 8);
		size_t len;

		if (n <= 0)
			return false;
		len = kept + (size_t)n;
		if (len >= 5 && !memcmp(buf + len - 5, "\nEND\n", 5))
			return true;
		/* "\nEND\n" may straddle two reads: keep the last 4 bytes */
		kept = len < 4 ? len : 4;
		memmove(buf, buf + len - kept, kept);
	}
}

static void *server_thread(void *arg)
{
	struct ir_lircd *s = arg;
	struct pollfd fds[IR_LIRCD_MAX_CLIENTS + 1];

	while (!stop_server) {
		size_t n = ir_lircd_fds(s, fds, IR_LIRCD_MAX_CLIENTS + 1);

		poll(fds, n, 20);
		ir_lircd_process(s);
	}
	return NULL;
}

static void *lister_thread(void *arg)
{
	int fd = connect_to(sock_path);

	(void)arg;
	while (fd >= 0 && !stop && round_trip(fd, "LIST big\n"))
		lists_done++;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Another user's 64 idle connections (a child process as nobody). */
static pid_t hold_idle(void)
{
	int ready[2];
	pid_t pid;
	char c;

	if (geteuid() != 0 || pipe(ready) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int held = 0;

		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(1);
		for (int i = 0; i < IR_LIRCD_MAX_CLIENTS; i++) {
			held += connect_to(sock_path) >= 0;
			usleep(2000); /* the server accepts them one by one */
		}
		c = held == IR_LIRCD_MAX_CLIENTS ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1 || c != 'y') {
		fprintf(stderr, "the other user's connections were not all taken\n");
		exit(1);
	}
	close(ready[0]);
	return pid;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void version_under_load(void)
{
	char path[64];
	struct ir_keymap *km;
	struct ir_keymap_error err;
	struct ir_lircd_config cfg = { .mode = 0666 };
	struct ir_lircd *s;
	pthread_t server, listers[16];
	double took[50];
	pid_t idle;

	snprintf(path, sizeof(path), "/tmp/irjack-bench-big-%d.conf", (int)getpid());
	write_big_remote(path, 100000);
	if (ir_keymap_new(&km) < 0 || ir_keymap_load(km, path, &err) < 0)
		exit(1);
	unlink(path);
	snprintf(sock_path, sizeof(sock_path), "/tmp/irjack-bench-load-%d", (int)getpid());
	cfg.path = sock_path;
	cfg.keymap = km;
	if (ir_lircd_new(&cfg, &s) < 0 || pthread_create(&server, NULL, server_thread, s))
		exit(1);
	idle = hold_idle();
	for (int i = 0; i < 16; i++)
		pthread_create(&listers[i], NULL, lister_thread, NULL);
	usleep(500000);
	for (int i = 0; i < 50; i++) {
		double t0 = now_s();
		int fd = connect_to(sock_path);

		if (fd < 0 || !round_trip(fd, "VERSION\n")) {
			fprintf(stderr, "VERSION not answered\n");
			exit(1);
		}
		took[i] = (now_s() - t0) * 1e3;
		close(fd);
		usleep(20000);
	}
	stop = true;
	for (int i = 0; i < 16; i++)
		pthread_join(listers[i], NULL);
	stop_server = true;
	pthread_join(server, NULL);
	if (idle > 0) {
		kill(idle, SIGKILL);
		waitpid(idle, NULL, 0);
	}
	qsort(took, 50, sizeof(took[0]), cmp_double);
	printf("VERSION from a new client while 16 clients loop LIST of 100,000 buttons (%lu LISTs"
	       " done) and %s: median %.1f ms, worst of 50 %.1f ms\n",
	       (unsigned long)lists_done,
	       idle > 0 ? "another user holds 64 idle connections" : "(not root: no other user)",
	       took[25], took[49]);
	ir_lircd_free(s);
	ir_keymap_free(km);
}

int main(int argc, char **argv)
{
	unsigned repeats = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
	double small, large;

	if (repeats == 0)
		repeats = 1;
	small = list_seconds(2000, repeats);
	large = list_seconds(20000, repeats);
	printf("decoded frame with a lircd.conf remote of 1,000 buttons: %.1f us; of 100,000: %.1f us"
	       " (decoders and keymap lookup)\n", frame_us(1000, 2000), frame_us(100000, 2000));
	version_under_load();
	printf("LIST of 2,000 buttons: %.3f ms; of 20,000: %.3f ms; ratio %.1f (linear: ~10)\n",
	       small * 1e3, large * 1e3, large / small);
	return 0;
}
