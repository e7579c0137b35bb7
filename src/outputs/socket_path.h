/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * socket_path.h - one server per UNIX socket path.
 *
 * A daemon that simply unlinks its socket path before bind() takes the
 * path over from a daemon still running there: that one keeps running,
 * unreachable, and removes the newcomer's socket when it stops.  lircd
 * refuses to start instead ("there seems to already be a lircd process");
 * so do we, by asking the path itself: a connect() that is answered means
 * a live server, a refused one means a socket file left by a server that
 * died, which is the only thing ever removed.
 *
 * Who calls: a server about to bind (ir_socket_path_claim(), bind, listen,
 * ir_socket_path_unlock()), and the same server when it stops
 * (ir_socket_path_release() with the identity it recorded after bind).
 */
#ifndef IRJACK_SOCKET_PATH_H
#define IRJACK_SOCKET_PATH_H

#include <stdbool.h>
#include <sys/types.h>

/* Connects a non-blocking, close-on-exec stream socket to the UNIX socket
 * at `path`.  Returns the descriptor (the caller closes it) or a negative
 * errno: -ENAMETOOLONG, or what socket()/connect() said (-ENOENT,
 * -ECONNREFUSED: no server; -EAGAIN: a live server whose backlog is full). */
int ir_socket_connect_unix(const char *path);

/* Which file a path named when it was recorded (a socket we bound). */
struct ir_socket_path_id {
	dev_t dev;
	ino_t ino;
	bool valid;
};

/*
 * Makes `path` free for bind(): nothing there, or a stale socket, which is
 * removed.  Two servers starting at once are serialised by an flock() on
 * the path's directory, held until ir_socket_path_unlock(*lock) (call it
 * after listen(), or on failure; *lock is -1 when none could be taken, in
 * a directory we cannot open).
 *
 * Returns 0, or a negative errno: -EADDRINUSE when a server answers on
 * the path, -ENOTSOCK when the path is something other than a socket
 * (never removed), or what lstat()/connect()/unlink() said (-EACCES...).
 */
int ir_socket_path_claim(const char *path, int *lock);
void ir_socket_path_unlock(int lock);

/* Records which file `path` names now (after bind()).  Returns 0 or a
 * negative errno (id->valid false). */
int ir_socket_path_record(const char *path, struct ir_socket_path_id *id);

/* Removes `path` if it still names the socket `id` recorded: a path that
 * another server has taken since (or that was deleted) is left alone. */
void ir_socket_path_release(const char *path, const struct ir_socket_path_id *id);

#endif
