/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * out_lircd.c - the lircd socket protocol on a non-blocking UNIX socket.
 */
#include "out_lircd.h"
#include "ir_time.h"
#include "lircd_net.h"
#include "socket_path.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* A LIST of one remote, streamed as the client reads it: the next key to
 * look at, where the remote's keys end, lines still to write. */
struct list_cursor {
	bool active;
	unsigned remote;
	size_t next, end, left;
};

struct client {
	int fd;
	uid_t uid;          /* SO_PEERCRED: the connecting process's user */
	pid_t pid;          /* ... and process, for the log of transmit requests */
	uint64_t active_us; /* last command received (monotonic), for eviction */
	char in[IR_LIRCD_LINE_MAX + 1];
	size_t in_len;
	char raw[1024];  /* received, not yet taken */
	size_t raw_len, raw_pos;
	bool discarding; /* inside a line that was too long or held a NUL */
	bool binary;     /* ... a NUL, so the error names that */
	char *out;
	size_t out_len;
	struct list_cursor list;
	/* broadcasts that came during the streamed LIST: written after its END */
	char *held;
	size_t held_len;
	bool dead;
	bool overflowed; /* dead because it stopped reading */
	char peer_id[24]; /* IRJACK_PEER's id: another irjackd reads here; "": a client */
};

struct ir_lircd {
	struct ir_lircd_config cfg;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int listen_fd;
	int tcp_fd;          /* -1: no TCP port */
	bool unix_inherited, tcp_inherited; /* systemd's: neither closed nor unlinked */
	uint64_t seq;        /* the last number given to an event decoded here */
	char instance_id[24];
	struct ir_socket_path_id path_id; /* the file bound: what we may remove */
	struct client clients[IR_LIRCD_MAX_CLIENTS];
	size_t client_count;
	unsigned long refused, evicted, overflowed; /* since the last log line about them */
	uint64_t logged_us; /* when refusals and evictions were last logged */
	const struct client *asking; /* whose command runs now (NULL: ir_lircd_command) */
	char *reply; /* IR_LIRCD_CLIENT_BUFFER bytes: the longest reply a client can take */
	/* per remote of the keymap: where its keys are and how many LIST
	 * lines it has (worked out once per keymap, not per LIST); NULL: none
	 * (out of memory: LIST replies are then built whole, up to 64 KiB) */
	struct remote_span {
		size_t first, end, lines;
	} *spans;
	size_t span_count;
};

/* A streamed LIST writes lines while the client has less than this
 * waiting: 16 clients listing 100,000 buttons each cost the loop 8 KiB of
 * lines per pass, so a VERSION is answered between them. */
#define LIST_CHUNK 8192
/* Broadcasts held back during a streamed LIST (~100 lines); a client that
 * takes longer to read its LIST than this many key presses is dropped as
 * one not reading. */
#define HELD_MAX 4096
/* Refused and evicted clients are logged at most once this often: a
 * connect flood must not become a log flood (one line per pass was 1,934
 * lines in one test). */
#define LOG_EVERY_US 1000000

static void index_remotes(struct ir_lircd *s);
static void log_line(const struct ir_lircd *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_line(const struct ir_lircd *s, const char *fmt, ...)
{
	char message[256];
	va_list ap;

	if (!s->cfg.log)
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	s->cfg.log(s->cfg.userdata, message);
}

/* Binds `fd` to `addr`, the socket file created with exactly `mode`: the
 * umask is set for the bind (the kernel creates a socket file with 0777 &
 * ~umask), so the file is never wider than `mode`, not even between bind
 * and a chmod.  The umask is process-wide; the threads that run beside
 * this (capture, USB events) create no files. */
static int bind_with_mode(int fd, const struct sockaddr_un *addr, unsigned mode)
{
	mode_t old = umask((mode_t)(0777 & ~mode));
	int ret = bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0 ? -errno : 0;

	umask(old);
	/* the umask makes the file no wider than `mode`; chmod makes it that
	 * exactly where a filesystem (ACL defaults) narrowed it */
	if (ret == 0 && chmod(addr->sun_path, mode) < 0) {
		ret = -errno;
		unlink(addr->sun_path);
	}
	return ret;
}

/* Where the socket is bound before it is renamed into place (see
 * bind_and_listen). */
#define STAGED_SUFFIX ".new"

/* Claims the path (a live server there keeps it; only a stale socket is
 * replaced), binds `fd` with the configured mode and listens; records which
 * file was bound.  The socket is bound beside the path and renamed onto it
 * once it listens: a client that finds the file can connect.  (Bound on
 * the path itself, a client that connected between bind() and listen()
 * was refused: fault_socket's VERSION after a SIGHUP remade the socket,
 * now and then on a loaded host.)  Where the path has no room for the
 * suffix it is bound directly.  Returns 0 or a negative errno (nothing
 * left behind). */
static int bind_and_listen(struct ir_lircd *s, int fd, const struct sockaddr_un *addr)
{
	struct sockaddr_un staged = *addr;
	bool stage = strlen(addr->sun_path) + sizeof(STAGED_SUFFIX) <= sizeof(staged.sun_path);
	int lock, ret = ir_socket_path_claim(s->path, &lock);

	if (stage) {
		strcat(staged.sun_path, STAGED_SUFFIX);
		if (ret == 0)
			unlink(staged.sun_path); /* left by a daemon that died there */
	}
	if (ret == 0)
		ret = bind_with_mode(fd, stage ? &staged : addr, s->cfg.mode);
	if (ret == 0 && listen(fd, 16) < 0) {
		ret = -errno;
		unlink(stage ? staged.sun_path : s->path);
	}
	if (ret == 0 && stage && rename(staged.sun_path, s->path) < 0) {
		ret = -errno;
		unlink(staged.sun_path);
	}
	if (ret == 0)
		ir_socket_path_record(s->path, &s->path_id);
	ir_socket_path_unlock(lock);
	return ret;
}

/* systemd hands over blocking sockets (unless NonBlocking=): the accept
 * loop must end with EAGAIN, not wait for the next client. */
static void set_nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags >= 0)
		fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/* The TCP port, inherited or bound (cfg->listen); 0 or a negative errno. */
static int open_tcp(struct ir_lircd *s, const struct ir_lircd_config *cfg)
{
	char host[128];
	unsigned port;
	int ret;

	if (cfg->tcp_fd > 0) {
		s->tcp_fd = cfg->tcp_fd;
		s->tcp_inherited = true;
		set_nonblocking(s->tcp_fd);
		return 0;
	}
	if (!cfg->listen || !cfg->listen[0])
		return 0;
	ret = ir_lircd_net_parse(cfg->listen, 0, host, sizeof(host), &port);
	if (ret < 0)
		return ret;
	ret = ir_lircd_net_listen(host, port);
	if (ret < 0)
		return ret;
	s->tcp_fd = ret;
	return 0;
}

int ir_lircd_new(const struct ir_lircd_config *cfg, struct ir_lircd **out)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct ir_lircd *s;
	int fd, ret;

	if (!cfg || !cfg->path || !out || cfg->mode > 0777 ||
	    (cfg->instance_id && strlen(cfg->instance_id) >= sizeof(s->instance_id)))
		return -EINVAL;
	if (strlen(cfg->path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->reply = malloc(IR_LIRCD_CLIENT_BUFFER);
	if (!s->reply) {
		free(s);
		return -ENOMEM;
	}
	s->cfg = *cfg;
	s->tcp_fd = -1;
	snprintf(s->path, sizeof(s->path), "%s", cfg->path);
	snprintf(s->instance_id, sizeof(s->instance_id), "%s",
		 cfg->instance_id ? cfg->instance_id : "");
	memcpy(addr.sun_path, s->path, strlen(s->path) + 1);
	if (cfg->unix_fd > 0) {
		fd = cfg->unix_fd;
		s->unix_inherited = true;
		set_nonblocking(fd);
	} else {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		ret = fd < 0 ? -errno : bind_and_listen(s, fd, &addr);
		if (ret < 0) {
			if (fd >= 0)
				close(fd);
			free(s->reply);
			free(s);
			return ret;
		}
	}
	s->listen_fd = fd;
	s->cfg.path = s->path;
	index_remotes(s);
	s->cfg.listen = NULL;
	s->cfg.instance_id = NULL;
	ret = open_tcp(s, cfg);
	if (ret < 0) {
		ir_lircd_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* True while `path` is still the socket file this server bound. */
static bool file_is_ours(const struct ir_lircd *s)
{
	struct stat st;

	return s->path_id.valid && stat(s->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	       st.st_dev == s->path_id.dev && st.st_ino == s->path_id.ino;
}

static void accept_clients(struct ir_lircd *s, int listen_fd);

int ir_lircd_check_socket(struct ir_lircd *s)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, ret;

	if (s->unix_inherited || file_is_ours(s))
		return 0; /* systemd's socket file is systemd's to remake */
	memcpy(addr.sun_path, s->path, strlen(s->path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* deleted, or replaced by a file that is not a live server's */
	ret = bind_and_listen(s, fd, &addr);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	/* connections still in the old socket's backlog would be reset by
	 * close(): take them first */
	accept_clients(s, s->listen_fd);
	close(s->listen_fd);
	s->listen_fd = fd;
	log_line(s, "socket %s was gone: made anew", s->path);
	return 1;
}

static void drop_client(struct ir_lircd *s, size_t i)
{
	close(s->clients[i].fd);
	free(s->clients[i].out);
	free(s->clients[i].held);
	s->clients[i] = s->clients[--s->client_count];
}

void ir_lircd_free(struct ir_lircd *s)
{
	if (!s)
		return;
	while (s->client_count)
		drop_client(s, s->client_count - 1);
	if (!s->unix_inherited) {
		close(s->listen_fd);
		ir_socket_path_release(s->path, &s->path_id);
	}
	if (s->tcp_fd >= 0 && !s->tcp_inherited)
		close(s->tcp_fd);
	free(s->spans);
	free(s->reply);
	free(s);
}

static void mark_hung_up(struct ir_lircd *s);

size_t ir_lircd_client_count(struct ir_lircd *s)
{
	size_t n = 0;

	mark_hung_up(s);
	for (size_t i = 0; i < s->client_count; i++)
		n += !s->clients[i].dead;
	return n;
}

size_t ir_lircd_fds(const struct ir_lircd *s, struct pollfd *fds, size_t max)
{
	size_t n = 0;

	if (n < max)
		fds[n++] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
	if (n < max && s->tcp_fd >= 0)
		fds[n++] = (struct pollfd){ .fd = s->tcp_fd, .events = POLLIN };
	for (size_t i = 0; i < s->client_count && n < max; i++)
		/* input already received and not yet taken waits for
		 * POLLOUT too: it is taken as soon as the replies are gone */
		fds[n++] = (struct pollfd){ .fd = s->clients[i].fd,
					    .events = s->clients[i].out_len || s->clients[i].list.active ||
							      s->clients[i].raw_pos < s->clients[i].raw_len
						      ? POLLOUT
						      : POLLIN };
	return n;
}

/* Queues bytes for a client; a client whose buffer would overflow has
 * stopped reading and is dropped at the next process call. */
static void queue(struct client *c, const char *data, size_t len)
{
	if (c->dead)
		return;
	if (c->out_len + len > IR_LIRCD_CLIENT_BUFFER) {
		c->dead = true;
		c->overflowed = true;
		return;
	}
	if (!c->out) {
		c->out = malloc(IR_LIRCD_CLIENT_BUFFER);
		if (!c->out) {
			c->dead = true;
			return;
		}
	}
	memcpy(c->out + c->out_len, data, len);
	c->out_len += len;
}

static void flush_client(struct client *c)
{
	while (c->out_len && !c->dead) {
		ssize_t n = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				c->dead = true;
			return;
		}
		memmove(c->out, c->out + n, c->out_len - (size_t)n);
		c->out_len -= (size_t)n;
	}
}

/* Holds a broadcast back while the client's LIST is streamed (it would
 * land inside the reply); overflowing the hold drops the client. */
static void hold(struct client *c, const char *line, size_t len)
{
	if (c->held_len + len > HELD_MAX) {
		c->dead = true;
		c->overflowed = true;
		return;
	}
	if (!c->held && !(c->held = malloc(HELD_MAX))) {
		c->dead = true;
		return;
	}
	memcpy(c->held + c->held_len, line, len);
	c->held_len += len;
}

/* Sends a line to one client, or holds it while the client's LIST is
 * streamed. */
static void deliver(struct client *c, const char *line, size_t len)
{
	if (c->list.active) {
		hold(c, line, len);
		return;
	}
	queue(c, line, len);
	flush_client(c);
}

/* Whether peer client `c` may get an event of `origin` (NULL: ours). */
static bool peer_takes(const struct client *c, const struct ir_key_origin *origin)
{
	return !origin || (strcmp(c->peer_id, origin->id) && strcmp(c->peer_id, origin->via));
}

/* One key line (ending in '\n', n bytes) to every client: lircd's four
 * fields, or five to irjackd peers (ir_lircd_broadcast()). */
static void broadcast_key_line(struct ir_lircd *s, const char *line, int n,
			       const struct ir_key_origin *origin)
{
	char tagged[IR_LIRCD_LINE_MAX * 2 + 48];
	int t = 0;

	if (s->instance_id[0]) {
		/* an event from a plain lircd (no origin id) enters the
		 * irjackd peers here, numbered as ours */
		bool known = origin && origin->id[0] && origin->seq;

		t = snprintf(tagged, sizeof(tagged), "%.*s %s:%" PRIx64 "\n", n - 1, line,
			     known ? origin->id : s->instance_id, known ? origin->seq : ++s->seq);
	}
	for (size_t i = 0; i < s->client_count; i++) {
		struct client *c = &s->clients[i];

		if (!c->peer_id[0])
			deliver(c, line, (size_t)n);
		else if (peer_takes(c, origin) && t > 0 && (size_t)t < sizeof(tagged))
			deliver(c, tagged, (size_t)t);
	}
}

void ir_lircd_broadcast(struct ir_lircd *s, const struct ir_key_event *ev)
{
	char line[IR_LIRCD_LINE_MAX * 2];
	int n;

	if (ev->type == IR_KEY_UP || !ev->key || !ev->remote)
		return;
	n = snprintf(line, sizeof(line), "%016" PRIx64 " %02x %s %s\n", ev->scancode,
		     ev->repeat & 0xff, ev->key, ev->remote);
	if (n > 0 && (size_t)n < sizeof(line))
		broadcast_key_line(s, line, n, ev->origin);
}

/* ---- commands ---- */

struct reply {
	char *buf;
	size_t size, len;
	bool truncated;
	struct list_cursor *stream; /* a LIST may be streamed there; NULL: whole */
};

static void put(struct reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct reply *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->len >= r->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->len, r->size - r->len, fmt, ap);
	va_end(ap);
	if (n > 0 && r->len + (size_t)n >= r->size)
		r->truncated = true;
	if (n > 0)
		r->len = r->len + (size_t)n < r->size ? r->len + (size_t)n : r->size - 1;
}

static void error_reply(struct reply *r, const char *command, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void error_reply(struct reply *r, const char *command, const char *fmt, ...)
{
	char message[IR_LIRCD_LINE_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	r->len = 0;
	r->truncated = false;
	put(r, "BEGIN\n%s\nERROR\nDATA\n1\n%s\nEND\n", command, message);
}

static int find_remote(const struct ir_keymap *km, const char *name)
{
	for (size_t i = 0; km && i < ir_keymap_remote_count(km); i++)
		if (!strcasecmp(ir_keymap_remote_name(km, (unsigned)i), name))
			return (int)i;
	return -1;
}

/* A button bound under several protocols (an rc_keymaps "nec" keymap binds
 * nec, necx and nec32) is listed once.  Loaders add a family's bindings of
 * one button next to each other (keymap_toml.c, add_key(); rc6's 5 is the
 * largest family), so only the few keys before it are looked at: LIST of a
 * 100,000-button remote took minutes of the service's time when every
 * earlier key was compared. */
#define FAMILY_SPAN 6

static bool listed_before(const struct ir_keymap *km, size_t i)
{
	const struct ir_keymap_key *k = ir_keymap_key_at(km, i);

	for (size_t j = i > FAMILY_SPAN ? i - FAMILY_SPAN : 0; j < i; j++) {
		const struct ir_keymap_key *o = ir_keymap_key_at(km, j);

		if (o->remote == k->remote && o->scancode == k->scancode && !strcmp(o->key, k->key))
			return true;
	}
	return false;
}

/* Where a remote's keys are and how many lines its LIST has. */
static struct remote_span span_of(const struct ir_lircd *s, unsigned remote)
{
	const struct ir_keymap *km = s->cfg.keymap;
	struct remote_span sp = { 0 };

	if (s->spans && remote < s->span_count)
		return s->spans[remote];
	for (size_t i = 0; i < ir_keymap_key_count(km); i++) {
		if (ir_keymap_key_at(km, i)->remote != remote)
			continue;
		if (!sp.lines && sp.first == sp.end)
			sp.first = i;
		sp.end = i + 1;
		sp.lines += !listed_before(km, i);
	}
	return sp;
}

/* Works out every remote's span once per keymap (LIST of a 100,000-button
 * remote counted its lines anew for every call). */
static void index_remotes(struct ir_lircd *s)
{
	const struct ir_keymap *km = s->cfg.keymap;
	size_t n = km ? ir_keymap_remote_count(km) : 0;

	free(s->spans);
	s->spans = NULL;
	s->span_count = 0;
	if (!n || !(s->spans = calloc(n, sizeof(*s->spans))))
		return;
	for (size_t i = 0; i < ir_keymap_key_count(km); i++) {
		const struct ir_keymap_key *k = ir_keymap_key_at(km, i);
		struct remote_span *sp = &s->spans[k->remote];

		if (sp->first == sp->end && !sp->lines)
			sp->first = i;
		sp->end = i + 1;
		sp->lines += !listed_before(km, i);
	}
	s->span_count = n;
}

/* LIST remote [button]'s line for key `i`, or false when it has none. */
static bool list_line(const struct ir_keymap *km, size_t i, unsigned remote, const char *button,
		      char *line, size_t size)
{
	const struct ir_keymap_key *k = ir_keymap_key_at(km, i);

	if (k->remote != remote || (button && strcasecmp(k->key, button)) || listed_before(km, i))
		return false;
	snprintf(line, size, "%016" PRIx64 " %s\n", k->scancode, k->key);
	return true;
}

static void serve_list(struct ir_lircd *s, struct reply *r, const char *command, char **args,
		     int argc)
{
	const struct ir_keymap *km = s->cfg.keymap;
	const char *button = argc == 2 ? args[1] : NULL;
	char line[IR_LIRCD_LINE_MAX * 2];
	struct remote_span sp;
	size_t count = 0;
	int remote;

	if (argc == 0) {
		size_t n = km ? ir_keymap_remote_count(km) : 0;

		put(r, "BEGIN\n%s\nSUCCESS\nDATA\n%zu\n", command, n);
		for (size_t i = 0; i < n; i++)
			put(r, "%s\n", ir_keymap_remote_name(km, (unsigned)i));
		put(r, "END\n");
		return;
	}
	if (argc > 2) {
		error_reply(r, command, "bad send packet");
		return;
	}
	remote = find_remote(km, args[0]);
	if (remote < 0) {
		error_reply(r, command, "unknown remote: \"%s\"", args[0]);
		return;
	}
	sp = span_of(s, (unsigned)remote);
	if (button) {
		for (size_t i = sp.first; i < sp.end && !count; i++)
			count = list_line(km, i, (unsigned)remote, button, line, sizeof(line));
		if (!count) {
			error_reply(r, command, "unknown command: \"%s\"", button);
			return;
		}
	}
	put(r, "BEGIN\n%s\nSUCCESS\nDATA\n%zu\n", command, button ? 1 : sp.lines);
	if (button) {
		put(r, "%s", line);
	} else if (r->stream && s->spans) {
		/* the lines follow as the client reads them (stream_list()) */
		*r->stream = (struct list_cursor){ .active = true, .remote = (unsigned)remote,
						   .next = sp.first, .end = sp.end, .left = sp.lines };
		return;
	} else {
		for (size_t i = sp.first; i < sp.end && !r->truncated; i++)
			if (list_line(km, i, (unsigned)remote, NULL, line, sizeof(line)))
				put(r, "%s", line);
	}
	put(r, "END\n");
}

static void serve_send(struct ir_lircd *s, struct reply *r, const char *command,
		     enum ir_lircd_send kind, char **args, int argc)
{
	char error[IR_LIRCD_LINE_MAX] = "";
	unsigned long repeats = 0;
	int ret;

	/* SEND_STOP may leave out the button, or the remote too (any) */
	if (argc < (kind == IR_LIRCD_SEND_STOP ? 0 : 2) ||
	    argc > (kind == IR_LIRCD_SEND_ONCE ? 3 : 2)) {
		error_reply(r, command, "bad send packet");
		return;
	}
	if (argc == 3) {
		char *end;

		repeats = strtoul(args[2], &end, 10);
		if (*end || !isdigit((unsigned char)args[2][0]) || repeats > 1000) {
			error_reply(r, command, "invalid repeat count: \"%s\"", args[2]);
			return;
		}
	}
	if (argc > 0 && find_remote(s->cfg.keymap, args[0]) < 0) {
		error_reply(r, command, "unknown remote: \"%s\"", args[0]);
		return;
	}
	if (!s->cfg.send) {
		error_reply(r, command, "hardware does not support sending");
		return;
	}
	/* who asked: the socket's mode decides who may transmit, the log
	 * says who did (SO_PEERCRED, taken at connect) */
	if (s->asking)
		log_line(s, "lircd: %s from pid %ld uid %ld", command, (long)s->asking->pid,
			 (long)s->asking->uid);
	ret = s->cfg.send(s->cfg.userdata, kind, argc > 0 ? args[0] : "", argc > 1 ? args[1] : "",
			  (unsigned)repeats, error, sizeof(error));
	if (ret == -ENOENT && argc > 1)
		error_reply(r, command, "unknown command: \"%s\"", args[1]);
	else if (ret < 0)
		error_reply(r, command, "%s", error[0] ? error : strerror(-ret));
	else
		put(r, "BEGIN\n%s\nSUCCESS\nEND\n", command);
}

static void serve_set_transmitters(struct ir_lircd *s, struct reply *r, const char *command,
				 char **args, int argc)
{
	char error[IR_LIRCD_LINE_MAX] = "";
	unsigned mask = 0;
	int ret;

	if (argc == 0) {
		error_reply(r, command, "no arguments given");
		return;
	}
	for (int i = 0; i < argc; i++) {
		char *end;
		unsigned long n = strtoul(args[i], &end, 10);

		if (*end || !isdigit((unsigned char)args[i][0]) || n < 1 || n > 32) {
			error_reply(r, command, "invalid argument: \"%s\"", args[i]);
			return;
		}
		mask |= 1u << (n - 1);
	}
	if (!s->cfg.set_transmitters) {
		error_reply(r, command, "hardware does not support setting transmitters");
		return;
	}
	ret = s->cfg.set_transmitters(s->cfg.userdata, mask, error, sizeof(error));
	if (ret < 0)
		error_reply(r, command, "%s", error[0] ? error : strerror(-ret));
	else
		put(r, "BEGIN\n%s\nSUCCESS\nEND\n", command);
}

/* SIMULATE "<16 hex> <2 hex> button remote": broadcast as if decoded. */
static void serve_status(struct ir_lircd *s, struct reply *r, const char *command, int argc)
{
	char text[16384]; /* 16 sources of ~300 bytes, the outputs */
	unsigned lines;

	if (argc > 0) {
		error_reply(r, command, "bad send packet");
		return;
	}
	text[0] = '\0';
	lines = s->cfg.status(s->cfg.userdata, text, sizeof(text));
	put(r, "BEGIN\n%s\nSUCCESS\nDATA\n%u\n%sEND\n", command, lines, text);
}

static void serve_display(struct ir_lircd *s, struct reply *r, const char *command,
			const char *request)
{
	char error[256] = "";

	if (s->cfg.display(s->cfg.userdata, request, error, sizeof(error)) < 0)
		error_reply(r, command, "%s", error[0] ? error : "display failed");
	else
		put(r, "BEGIN\n%s\nSUCCESS\nEND\n", command);
}

static void serve_simulate(struct ir_lircd *s, struct reply *r, const char *command,
			 const char *rest)
{
	char line[IR_LIRCD_LINE_MAX + 2];
	size_t len = strlen(rest);
	int spaces = 0;

	if (!s->cfg.allow_simulate) {
		error_reply(r, command, "SIMULATE command is disabled");
		return;
	}
	for (size_t i = 0; i < len; i++)
		spaces += rest[i] == ' ';
	if (len < 21 || spaces != 3 || rest[16] != ' ' || rest[19] != ' ' ||
	    strspn(rest, "0123456789abcdefABCDEF") != 16 ||
	    strspn(rest + 17, "0123456789abcdefABCDEF") != 2 || rest[20] == ' ' ||
	    rest[len - 1] == ' ') {
		error_reply(r, command, "bad simulate command");
		return;
	}
	snprintf(line, sizeof(line), "%s\n", rest);
	/* a key of this daemon's, as a decoded one (numbered for peers) */
	broadcast_key_line(s, line, (int)len + 1, NULL);
	put(r, "BEGIN\n%s\nSUCCESS\nEND\n", command);
}

/*
 * SET_INPUTLOG [FILE|null]: lircd opens FILE for writing and logs the raw
 * input there.  A daemon running as root that truncates whatever file a
 * socket client names is a hole, so irjackd turns logging off (no
 * argument, "null": SUCCESS, as lircd) and refuses a file with lircd's own
 * error, EOPNOTSUPP as its errno.
 */
static void serve_set_inputlog(struct reply *r, const char *command, char **args, int argc)
{
	if (argc > 1)
		error_reply(r, command, "Illegal argument (protocol error): %s", args[0]);
	else if (argc == 0 || !strcasecmp(args[0], "null"))
		put(r, "BEGIN\n%s\nSUCCESS\nEND\n", command);
	else
		error_reply(r, command, "Cannot open input logfile: %s (errno: %d)", args[0],
			    EOPNOTSUPP);
}

/* DRV_OPTION KEY VALUE: lircd hands it to its driver; irjack's sources
 * take no driver options, so the driver's refusal is lircd's message. */
static void serve_drv_option(struct reply *r, const char *command, char **args, int argc)
{
	if (argc != 2)
		error_reply(r, command, "Illegal argument (protocol error): %s",
			    argc ? args[0] : "");
	else
		error_reply(r, command, "Cannot set driver option, code: %d", EOPNOTSUPP);
}

/* IRJACK_PEER ID: another irjackd's lircd source says who it is (so no
 * event goes back to it) and learns who we are.  `c` is NULL from
 * ir_lircd_command(). */
static void serve_peer(struct ir_lircd *s, struct client *c, struct reply *r, const char *command,
		     char **args, int argc)
{
	if (argc != 1 || strlen(args[0]) >= sizeof(c->peer_id) ||
	    strspn(args[0], "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") !=
		    strlen(args[0])) {
		error_reply(r, command, "bad peer id");
		return;
	}
	if (c)
		snprintf(c->peer_id, sizeof(c->peer_id), "%s", args[0]);
	put(r, "BEGIN\n%s\nSUCCESS\nDATA\n1\n%s\nEND\n", command, s->instance_id);
}

/* ir_lircd_command(), for client `c` (NULL: none), with a LIST of one
 * remote streamed to `stream`'s client when it is not NULL. */
static size_t run_command(struct ir_lircd *s, struct client *c, const char *input, char *reply,
			  size_t size, struct list_cursor *stream)
{
	struct reply r = { .buf = reply, .size = size, .stream = stream };
	char line[IR_LIRCD_LINE_MAX + 1], words[IR_LIRCD_LINE_MAX + 1];
	char *args[IR_LIRCD_LINE_MAX / 2 + 1];
	const char *rest = NULL;
	char *save = NULL, *tok;
	size_t len = strlen(input);
	int argc = 0;

	if (size)
		reply[0] = '\0';
	if (len > IR_LIRCD_LINE_MAX) {
		error_reply(&r, "", "line too long");
		return r.len;
	}
	/* the command as echoed: exactly as sent, without the line end
	 * (lirc_client matches the echo byte for byte: irsend sends
	 * "LIST  " for LIST with empty arguments) */
	memcpy(line, input, len + 1);
	while (len && line[len - 1] == '\r')
		line[--len] = '\0';
	memcpy(words, line, len + 1);
	for (tok = strtok_r(words, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
		args[argc++] = tok;
	if (argc == 0)
		return 0;
	if (!strcasecmp(args[0], "SIMULATE")) {
		rest = line + strspn(line, " \t") + strlen("SIMULATE");
		rest += strspn(rest, " \t");
		serve_simulate(s, &r, line, rest);
	} else if (!strcasecmp(args[0], "VERSION")) {
		if (argc > 1)
			error_reply(&r, line, "bad send packet");
		else
			put(&r, "BEGIN\n%s\nSUCCESS\nDATA\n1\n%s\nEND\n", line, IR_LIRCD_VERSION);
	} else if (!strcasecmp(args[0], "LIST")) {
		serve_list(s, &r, line, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "SEND_ONCE")) {
		serve_send(s, &r, line, IR_LIRCD_SEND_ONCE, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "SEND_START")) {
		serve_send(s, &r, line, IR_LIRCD_SEND_START, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "SEND_STOP")) {
		serve_send(s, &r, line, IR_LIRCD_SEND_STOP, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "SET_TRANSMITTERS")) {
		serve_set_transmitters(s, &r, line, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "SET_INPUTLOG")) {
		serve_set_inputlog(&r, line, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "DRV_OPTION")) {
		serve_drv_option(&r, line, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "STATUS") && s->cfg.status) {
		serve_status(s, &r, line, argc - 1);
	} else if (!strcasecmp(args[0], "IRJACK_PEER") && s->instance_id[0]) {
		serve_peer(s, c, &r, line, args + 1, argc - 1);
	} else if (!strcasecmp(args[0], "DISPLAY") && s->cfg.display) {
		rest = line + strspn(line, " \t") + strlen("DISPLAY");
		serve_display(s, &r, line, rest + strspn(rest, " \t"));
	} else {
		error_reply(&r, line, "unknown directive: \"%s\"", args[0]);
	}
	/* a cut reply would leave lirc_client waiting for its END */
	if (r.truncated)
		error_reply(&r, line, "reply longer than %zu bytes", size);
	return r.len;
}

size_t ir_lircd_command(struct ir_lircd *s, const char *input, char *reply, size_t size)
{
	return run_command(s, NULL, input, reply, size, NULL);
}

/* ---- I/O ---- */

void ir_lircd_set_keymap(struct ir_lircd *s, const struct ir_keymap *keymap)
{
	s->cfg.keymap = keymap;
	index_remotes(s);
	/* a streamed LIST cannot go on in another keymap, nor end well: its
	 * count is sent; the client sees the connection end, as on an error */
	for (size_t i = 0; i < s->client_count; i++)
		if (s->clients[i].list.active)
			s->clients[i].dead = true;
}

/* Writes the next lines of a streamed LIST while the client has less than
 * LIST_CHUNK bytes waiting, and its END (then the broadcasts held back)
 * once the last is written. */
static void stream_list(struct ir_lircd *s, struct client *c)
{
	struct list_cursor *l = &c->list;
	char line[IR_LIRCD_LINE_MAX * 2];

	while (l->active && !c->dead && c->out_len < LIST_CHUNK) {
		if (l->left && l->next < l->end) {
			if (list_line(s->cfg.keymap, l->next++, l->remote, NULL, line, sizeof(line))) {
				queue(c, line, strlen(line));
				l->left--;
			}
			continue;
		}
		/* lines the count promised but the keys no longer give
		 * cannot happen (the keymap is not changed under a LIST) */
		queue(c, "END\n", 4);
		l->active = false;
		if (c->held_len)
			queue(c, c->held, c->held_len);
		c->held_len = 0;
	}
}

static struct ucred peer_cred(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		cred = (struct ucred){ .pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1 };
	return cred;
}

static size_t clients_of(const struct ir_lircd *s, uid_t uid)
{
	size_t n = 0;

	for (size_t i = 0; i < s->client_count; i++)
		n += s->clients[i].uid == uid;
	return n;
}

/* The server is full and `uid` connects: the user other than `uid` with the
 * most connections beyond IR_LIRCD_MAX_CLIENTS_PER_UID loses its least
 * recently active one, so one user's idle connections cannot lock every
 * other user out.  False if no other user is over the quota. */
static bool evict_for(struct ir_lircd *s, uid_t uid)
{
	size_t most = IR_LIRCD_MAX_CLIENTS_PER_UID, victim = SIZE_MAX;
	uid_t over = uid;

	for (size_t i = 0; i < s->client_count; i++) {
		size_t n = s->clients[i].uid == uid ? 0 : clients_of(s, s->clients[i].uid);

		if (n > most) {
			most = n;
			over = s->clients[i].uid;
		}
	}
	if (over == uid)
		return false;
	for (size_t i = 0; i < s->client_count; i++)
		if (s->clients[i].uid == over &&
		    (victim == SIZE_MAX || s->clients[i].active_us < s->clients[victim].active_us))
			victim = i;
	drop_client(s, victim);
	s->evicted++;
	return true;
}

/* True when the client has hung up and nothing of it is left to serve:
 * its input all read and run (not in the middle of a command: a client
 * that shut its side down after asking still gets its reply), no reply
 * waiting. */
static bool hung_up(const struct client *c)
{
	char b;

	return !c->dead && !c->in_len && c->raw_pos == c->raw_len && !c->out_len && !c->list.active &&
	       recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* Marks the clients that have hung up since the loop last read them: the
 * count (STATUS) and the client limit are the connections there now,
 * whenever the loop last ran.  Only marks: it may run inside a command,
 * while the loop holds a client. */
static void mark_hung_up(struct ir_lircd *s)
{
	for (size_t i = 0; i < s->client_count; i++)
		if (hung_up(&s->clients[i]))
			s->clients[i].dead = true;
}

/* Closes the dead clients (outside the loop over them only). */
static void drop_dead(struct ir_lircd *s)
{
	for (size_t i = s->client_count; i-- > 0;) {
		if (!s->clients[i].dead)
			continue;
		s->overflowed += s->clients[i].overflowed;
		drop_client(s, i);
	}
}

static void accept_clients(struct ir_lircd *s, int listen_fd)
{
	for (;;) {
		int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct ucred cred;

		if (fd < 0)
			return;
		cred = peer_cred(fd);
		if (s->client_count == IR_LIRCD_MAX_CLIENTS) {
			mark_hung_up(s);
			drop_dead(s);
		}
		if (s->client_count == IR_LIRCD_MAX_CLIENTS && !evict_for(s, cred.uid)) {
			/* lircd refuses too: the client sees the connection end */
			close(fd);
			s->refused++;
			continue;
		}
		s->clients[s->client_count++] =
			(struct client){ .fd = fd, .uid = cred.uid, .pid = cred.pid,
					 .active_us = ir_monotonic_us() };
	}
}

/* One byte of a client's input: a line end runs the command. */
static void take_byte(struct ir_lircd *s, struct client *c, char ch)
{
	static const char too_long[] = "BEGIN\n\nERROR\nDATA\n1\nline too long\nEND\n";
	static const char binary[] = "BEGIN\n\nERROR\nDATA\n1\nNUL byte in command\nEND\n";

	if (ch == '\n') {
		if (c->discarding) {
			if (c->binary)
				queue(c, binary, sizeof(binary) - 1);
			else
				queue(c, too_long, sizeof(too_long) - 1);
			c->discarding = false;
			c->binary = false;
		} else {
			size_t len;

			c->in[c->in_len] = '\0';
			s->asking = c;
			len = run_command(s, c, c->in, s->reply, IR_LIRCD_CLIENT_BUFFER, &c->list);
			s->asking = NULL;
			queue(c, s->reply, len);
			stream_list(s, c);
		}
		c->in_len = 0;
	} else if (!c->discarding) {
		if (c->in_len == IR_LIRCD_LINE_MAX || ch == '\0') {
			c->discarding = true;
			c->binary = ch == '\0';
			c->in_len = 0;
		} else {
			c->in[c->in_len++] = ch;
		}
	}
}

/*
 * Runs a client's commands while the kernel takes their replies.  Once a
 * reply waits in our buffer, the client's input is left unread (and its
 * descriptor is polled for output only) until the reply is gone: a client
 * that sends commands faster than it reads is slowed down, not dropped,
 * and cannot hold the loop.  Only broadcasts can then overflow its buffer.
 */
static void read_client(struct ir_lircd *s, struct client *c)
{
	/* 16 KiB per pass: a client that reads as fast as it writes must not
	 * hold the loop either */
	unsigned reads = 16;

	while (!c->dead && !c->out_len && !c->list.active) {
		if (c->raw_pos == c->raw_len) {
			if (!reads--)
				return;
			ssize_t n = recv(c->fd, c->raw, sizeof(c->raw), MSG_DONTWAIT);

			if (n == 0) {
				c->dead = true;
				return;
			}
			if (n < 0) {
				if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
					c->dead = true;
				return;
			}
			c->raw_len = (size_t)n;
			c->raw_pos = 0;
			c->active_us = ir_monotonic_us();
		}
		while (c->raw_pos < c->raw_len && !c->dead && !c->out_len && !c->list.active)
			take_byte(s, c, c->raw[c->raw_pos++]);
		flush_client(c);
	}
}

uint64_t ir_lircd_due_us(const struct ir_lircd *s)
{
	return s->refused || s->evicted ? s->logged_us + LOG_EVERY_US : UINT64_MAX;
}

void ir_lircd_process(struct ir_lircd *s)
{
	accept_clients(s, s->listen_fd);
	if (s->tcp_fd >= 0)
		accept_clients(s, s->tcp_fd); /* the same protocol, the same limits */
	for (size_t i = 0; i < s->client_count; i++) {
		flush_client(&s->clients[i]);
		stream_list(s, &s->clients[i]);
		flush_client(&s->clients[i]);
		read_client(s, &s->clients[i]);
	}
	drop_dead(s);
	uint64_t now = ir_monotonic_us();

	if ((s->refused || s->evicted) && now >= ir_lircd_due_us(s)) {
		if (s->refused)
			log_line(s, "lircd: refused %lu client%s: %d connected, the maximum", s->refused,
				 s->refused == 1 ? "" : "s", IR_LIRCD_MAX_CLIENTS);
		if (s->evicted)
			log_line(s, "lircd: closed %lu idle client%s of a user over %d connections to "
				    "let another user in", s->evicted, s->evicted == 1 ? "" : "s",
				 IR_LIRCD_MAX_CLIENTS_PER_UID);
		s->refused = 0;
		s->evicted = 0;
		s->logged_us = now;
	}
	if (s->overflowed)
		log_line(s, "lircd: disconnected %lu client%s not reading (%d bytes of output pending)",
			 s->overflowed, s->overflowed == 1 ? "" : "s", IR_LIRCD_CLIENT_BUFFER);
	s->overflowed = 0;
}
