/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lircd_net.h - the network side of the lircd socket protocol: lircd's
 * `--listen[=[ADDR:]PORT]` (a TCP port speaking exactly what the UNIX
 * socket speaks) and `--connect HOST[:PORT]` (reading another lircd's
 * broadcasts), as addresses and non-blocking sockets.
 *
 * Who calls: out_lircd.c (the listening side), lircd_peer.c (the
 * connecting side) and the configuration (to check an address at load).
 * Errors are negative errno values; nothing here prints.
 */
#ifndef IRJACK_LIRCD_NET_H
#define IRJACK_LIRCD_NET_H

#include <stddef.h>

/* lircd's default TCP port (lircd --listen without a port). */
#define IR_LIRCD_TCP_PORT 8765

/*
 * Splits "[ADDR:]PORT", "ADDR" (when `port_optional`: the port is
 * IR_LIRCD_TCP_PORT), or "[V6ADDR]:PORT" into a host (copied into `host`,
 * "" when left out) and a port (1..65535).  Returns 0, -EINVAL for a
 * malformed address or port, -ENAMETOOLONG when the host does not fit.
 */
int ir_lircd_net_parse(const char *text, int port_optional, char *host, size_t host_size,
		       unsigned *port);

/* True when `text` names a TCP peer (HOST:PORT or [V6]:PORT) rather than a
 * UNIX socket path (one with a '/'). */
int ir_lircd_net_is_tcp(const char *text);

/*
 * A listening TCP socket (non-blocking, close-on-exec, SO_REUSEADDR) on
 * `host` ("": every address, as lircd) and `port`.  Returns the
 * descriptor (the caller closes it), or a negative errno (-EADDRINUSE,
 * -EADDRNOTAVAIL, -ENOENT when the host does not resolve...).
 */
int ir_lircd_net_listen(const char *host, unsigned port);

/*
 * Starts connecting to `target`: a UNIX socket path, or HOST:PORT
 * (ir_lircd_net_parse(), port optional; the name is resolved here, which
 * may take as long as the resolver does).  The socket is non-blocking: a
 * TCP connect still under way is returned as is, and the caller waits for
 * POLLOUT and asks ir_lircd_net_connect_result(), so an unreachable peer
 * never holds the caller.  Returns the descriptor or a negative errno.
 */
int ir_lircd_net_connect(const char *target);

/* On a connecting socket: 0 when it is connected, -EINPROGRESS while it
 * is still trying, else the negative errno the connect ended with. */
int ir_lircd_net_connect_result(int fd);

#endif
