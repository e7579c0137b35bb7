/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_activation.c - systemd socket activation (irjackd.socket): the
 * listening sockets systemd made before starting us, as lircd.socket does
 * for lircd.  A UNIX stream socket becomes the lircd socket (instead of
 * binding [output lircd] path), a TCP one its TCP port (instead of
 * listen).  systemd owns them: they are never unlinked, and stay open for
 * the process's life, so an output made anew on reload finds them again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>
#ifdef IRJACK_HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "irjackd.h"
#include "irjackd_service.h"

#ifdef IRJACK_HAVE_LIBSYSTEMD
/* The path a listening UNIX socket is bound to ("" if unnamed). */
static void socket_path_of(int fd, char *path, size_t size)
{
	struct sockaddr_un addr;
	socklen_t len = sizeof(addr);

	path[0] = '\0';
	memset(&addr, 0, sizeof(addr));
	if (getsockname(fd, (struct sockaddr *)&addr, &len) == 0 && addr.sun_path[0])
		snprintf(path, size, "%.*s", (int)sizeof(addr.sun_path), addr.sun_path);
}

/* Takes one passed descriptor; false when it is not one we can use. */
static bool take_fd(struct service *sv, int fd)
{
	if (sd_is_socket(fd, AF_UNIX, SOCK_STREAM, 1) > 0 && !sv->activated_unix_fd) {
		sv->activated_unix_fd = fd;
		socket_path_of(fd, sv->activated_path, sizeof(sv->activated_path));
		return true;
	}
	if ((sd_is_socket(fd, AF_INET, SOCK_STREAM, 1) > 0 ||
	     sd_is_socket(fd, AF_INET6, SOCK_STREAM, 1) > 0) &&
	    !sv->activated_tcp_fd) {
		sv->activated_tcp_fd = fd;
		return true;
	}
	return false;
}

void activation_take(struct service *sv)
{
	int n = sd_listen_fds(1); /* 1: children (none) do not inherit them */

	if (n < 0) {
		irjackd_log(LOG_WARNING, "systemd socket activation: %s", strerror(-n));
		return;
	}
	for (int i = 0; i < n; i++) {
		int fd = SD_LISTEN_FDS_START + i;

		if (!take_fd(sv, fd)) {
			irjackd_log(LOG_WARNING,
				    "systemd socket activation: descriptor %d is not a listening "
				    "stream socket irjackd can use (one UNIX, one TCP); closed", fd);
			close(fd);
		}
	}
	if (sv->activated_unix_fd)
		irjackd_log(LOG_INFO, "lircd socket %s from systemd", sv->activated_path);
	if (sv->activated_tcp_fd)
		irjackd_log(LOG_INFO, "lircd TCP port from systemd (descriptor %d)",
			    sv->activated_tcp_fd);
}
#else
void activation_take(struct service *sv)
{
	(void)sv;
	if (getenv("LISTEN_FDS"))
		irjackd_log(LOG_WARNING, "systemd passed sockets, but irjackd was built without "
			    "libsystemd: they are not used");
}
#endif

void activation_close(struct service *sv)
{
	if (sv->activated_unix_fd)
		close(sv->activated_unix_fd);
	if (sv->activated_tcp_fd)
		close(sv->activated_tcp_fd);
	sv->activated_unix_fd = 0;
	sv->activated_tcp_fd = 0;
}
