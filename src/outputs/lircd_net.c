/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lircd_net.c - TCP addresses and sockets for the lircd protocol.
 */
#include "lircd_net.h"
#include "socket_path.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int parse_port(const char *text, unsigned *port)
{
	char *end;
	unsigned long n;

	if (*text < '0' || *text > '9')
		return -EINVAL;
	n = strtoul(text, &end, 10);
	if (*end || n < 1 || n > 65535)
		return -EINVAL;
	*port = (unsigned)n;
	return 0;
}

static int copy_host(const char *from, size_t len, char *host, size_t host_size)
{
	if (len >= host_size)
		return -ENAMETOOLONG;
	memcpy(host, from, len);
	host[len] = '\0';
	return 0;
}

int ir_lircd_net_parse(const char *text, int port_optional, char *host, size_t host_size,
		       unsigned *port)
{
	const char *colon, *close;
	int ret;

	if (!text || !*text || !host_size)
		return -EINVAL;
	*port = IR_LIRCD_TCP_PORT;
	if (text[0] == '[') { /* [v6]:port or [v6] */
		close = strchr(text, ']');
		if (!close || close == text + 1)
			return -EINVAL;
		ret = copy_host(text + 1, (size_t)(close - text - 1), host, host_size);
		if (ret < 0)
			return ret;
		if (close[1] == '\0')
			return port_optional ? 0 : -EINVAL;
		return close[1] == ':' ? parse_port(close + 2, port) : -EINVAL;
	}
	colon = strrchr(text, ':');
	if (colon && strchr(text, ':') != colon)
		return -EINVAL; /* a bare IPv6 address: its port would be ambiguous */
	if (!colon) {
		/* "PORT" alone (listen), or "HOST" alone (connect) */
		if (parse_port(text, port) == 0)
			return copy_host("", 0, host, host_size);
		if (!port_optional)
			return -EINVAL;
		return copy_host(text, strlen(text), host, host_size);
	}
	ret = copy_host(text, (size_t)(colon - text), host, host_size);
	return ret < 0 ? ret : parse_port(colon + 1, port);
}

int ir_lircd_net_is_tcp(const char *text)
{
	return text && *text && !strchr(text, '/');
}

static int resolve(const char *host, unsigned port, int passive, struct addrinfo **out)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0) };
	char service[8];
	int ret;

	snprintf(service, sizeof(service), "%u", port);
	ret = getaddrinfo(host[0] ? host : NULL, service, &hints, out);
	if (ret == EAI_SYSTEM)
		return -errno;
	if (ret == EAI_MEMORY)
		return -ENOMEM;
	return ret ? -ENOENT : 0;
}

int ir_lircd_net_listen(const char *host, unsigned port)
{
	struct addrinfo *ai, *a;
	int fd = -1, ret = resolve(host, port, 1, &ai), one = 1;

	if (ret < 0)
		return ret;
	/* lircd binds 0.0.0.0 without an address: prefer IPv4 for "" so a
	 * host without IPv6 behaves the same */
	for (a = ai; a; a = a->ai_next)
		if (!host[0] && a->ai_family == AF_INET)
			break;
	if (!a)
		a = ai;
	fd = socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		freeaddrinfo(ai);
		return ret;
	}
	/* a restart must not wait out the old connections' TIME_WAIT */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, a->ai_addr, a->ai_addrlen) < 0 || listen(fd, 16) < 0) {
		ret = -errno;
		close(fd);
		fd = ret;
	}
	freeaddrinfo(ai);
	return fd;
}

int ir_lircd_net_connect(const char *target)
{
	char host[256];
	unsigned port;
	struct addrinfo *ai;
	int fd, ret;

	if (!ir_lircd_net_is_tcp(target))
		return target && *target ? ir_socket_connect_unix(target) : -EINVAL;
	ret = ir_lircd_net_parse(target, 1, host, sizeof(host), &port);
	if (ret == 0 && !host[0])
		ret = -EINVAL;
	if (ret == 0)
		ret = resolve(host, port, 0, &ai);
	if (ret < 0)
		return ret;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
	} else if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS) {
		ret = -errno;
		close(fd);
	} else {
		ret = fd;
	}
	freeaddrinfo(ai);
	return ret;
}

int ir_lircd_net_connect_result(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	struct sockaddr_storage peer;
	socklen_t peer_len = sizeof(peer);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return -errno;
	if (err)
		return -err;
	/* no error yet: connected, or still trying (no peer address yet) */
	if (getpeername(fd, (struct sockaddr *)&peer, &peer_len) < 0)
		return errno == ENOTCONN ? -EINPROGRESS : -errno;
	return 0;
}
