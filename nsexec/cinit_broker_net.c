//go:build linux && cgo && !omega_goinit

// cinit_broker_net.c: with --net none the connect broker refuses a
// connect() on a socket of another network namespace than the sandbox's:
// the host's, handed over (socket activation) or passed in at run time
// (SCM_RIGHTS). Landlock's TCP rules do not cover MPTCP, SCTP or UDP,
// so such a socket, disconnected (connect to AF_UNSPEC) and connected
// again, would lead out of the sandbox's loopback-only namespace.

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cinit_internal.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

// own_net is the cookie of the sandbox's own network namespace, 0 where
// it has none (--net host) or the kernel (before 5.14) cannot tell.
static uint64_t own_net;

static uint64_t net_cookie(int sock) {
	uint64_t cookie = 0;
	socklen_t len = sizeof cookie;
	if (getsockopt(sock, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) < 0)
		return 0;
	return cookie;
}

// omega_broker_net_prepare notes PID 1's network namespace, where the
// sandbox has one of its own.
void omega_broker_net_prepare(const struct spec *s) {
	if (!(s->flags & F_LOOPBACK))
		return;
	int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return;
	own_net = net_cookie(sock);
	close(sock);
}

// omega_broker_other_net tells whether sock, not a unix one, belongs to
// another network namespace than the sandbox's own; the first time it
// says so.
int omega_broker_other_net(int sock) {
	int family;
	socklen_t len = sizeof family;
	if (!own_net || getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &family, &len) < 0 || family == AF_UNIX)
		return 0;
	uint64_t cookie = net_cookie(sock);
	if (!cookie || cookie == own_net)
		return 0;
	static int said;
	if (!__atomic_fetch_add(&said, 1, __ATOMIC_RELAXED))
		omega_warn(OMEGA_OTHER_NET_REFUSED);
	return 1;
}
