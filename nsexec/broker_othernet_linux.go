//go:build linux && (!cgo || omega_goinit)

package nsexec

import "golang.org/x/sys/unix"

// ownNetCookie is the cookie of PID 1's network namespace where the
// sandbox has one of its own (--net none), else 0, as it is where the
// kernel (before 5.14) cannot tell.
func ownNetCookie(s *Spec) uint64 {
	if !s.Loopback {
		return 0
	}
	sock, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	defer unix.Close(sock)
	return netCookie(sock)
}

func netCookie(sock int) uint64 {
	c, err := unix.GetsockoptUint64(sock, unix.SOL_SOCKET, unix.SO_NETNS_COOKIE)
	if err != nil {
		return 0
	}
	return c
}

// otherNet tells whether sock, not a unix one, belongs to another network
// namespace than the sandbox's own: the host's, handed over (socket
// activation) or passed in at run time (SCM_RIGHTS). Landlock's TCP
// rules do not cover MPTCP, SCTP or UDP, so such a socket, disconnected
// (connect to AF_UNSPEC) and connected again, would lead out of the
// sandbox's loopback-only namespace. The first time it says so.
func (b *goBroker) otherNet(sock int) bool {
	if b.netCookie == 0 {
		return false
	}
	family, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if err != nil || family == unix.AF_UNIX {
		return false
	}
	if c := netCookie(sock); c == 0 || c == b.netCookie {
		return false
	}
	if b.saidOtherNet.Add(1) == 1 {
		b.w.warn(OtherNetRefused)
	}
	return true
}
