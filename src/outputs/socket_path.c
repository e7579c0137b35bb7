/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * socket_path.c - probe a UNIX socket path before taking it, remove only
 * what we made.
 */
#include "socket_path.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* An flock() on the directory that holds `path`: the window between the
 * probe and bind() is otherwise open to a second server doing the same. */
static int lock_directory(const char *path)
{
	char copy[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

void ir_socket_path_unlock(int lock)
{
	if (lock >= 0)
		close(lock); /* releases the flock */
}

int ir_socket_connect_unix(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, ret;

	if (strlen(path) >= sizeof(addr.sun_path))
		return -ENAMETOOLONG;
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* a UNIX connect either completes or fails at once (EAGAIN: backlog full) */
	if (connect(fd, (const struct sockaddr *)&addr, sizeof(addr)) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

/* Does a server answer on `path`?  1: yes, 0: no (stale), negative errno. */
static int probe(const char *path)
{
	int fd = ir_socket_connect_unix(path);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	/* a listener whose backlog is full is alive too */
	if (fd == -EAGAIN || fd == -EINPROGRESS)
		return 1;
	return fd == -ECONNREFUSED || fd == -ENOENT ? 0 : fd;
}

int ir_socket_path_claim(const char *path, int *lock)
{
	struct stat st;
	int ret;

	*lock = lock_directory(path);
	if (lstat(path, &st) < 0) {
		ret = errno == ENOENT ? 0 : -errno;
		goto out;
	}
	if (!S_ISSOCK(st.st_mode)) {
		ret = -ENOTSOCK;
		goto out;
	}
	ret = probe(path);
	if (ret > 0) {
		ret = -EADDRINUSE;
	} else if (ret == 0) {
		/* a socket left by a server that died (lircd replaces it too) */
		if (unlink(path) < 0 && errno != ENOENT)
			ret = -errno;
	}
out:
	if (ret < 0) {
		ir_socket_path_unlock(*lock);
		*lock = -1;
	}
	return ret;
}

int ir_socket_path_record(const char *path, struct ir_socket_path_id *id)
{
	struct stat st;

	id->valid = false;
	if (lstat(path, &st) < 0)
		return -errno;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->valid = true;
	return 0;
}

void ir_socket_path_release(const char *path, const struct ir_socket_path_id *id)
{
	struct stat st;

	if (!id->valid || lstat(path, &st) < 0)
		return;
	if (st.st_dev == id->dev && st.st_ino == id->ino && S_ISSOCK(st.st_mode))
		unlink(path);
}
