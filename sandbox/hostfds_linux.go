package sandbox

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// handsHostSocket tells whether the program is handed (stdin, stdout,
// stderr, a preserved fd, an extra file) a socket that leads into the
// host's network namespace. An internet socket (a socket-activated
// listener, inetd's connection) lives there, not in --net none's own,
// and once disconnected (connect to AF_UNSPEC) TCP Fast Open's send
// connects it past Landlock's TCP rule, as rx's sockets would; a unix
// socket's host peer may pass the program one at run time (SCM_RIGHTS),
// after this look, and so may an --allow-socket's, which the program
// connects to itself. Sandbox mode then takes rx's host guard. An
// embedder's command (stdioLater) may get one as cmd.Stdin, set after
// the filter is built: it takes the guard always.
func (p *plan) handsHostSocket() bool {
	if p.stdioLater || len(p.policy.AllowSocket) > 0 {
		return true
	}
	fds := inheritedFDs(p.preserveFDs)
	for _, f := range p.extraFiles {
		fds = append(fds, int(f.Fd()))
	}
	return slices.ContainsFunc(fds, leadsToHostNet)
}

// leadsToHostNet tells whether fd is an internet or a unix socket.
func leadsToHostNet(fd int) bool {
	d, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_DOMAIN)
	return err == nil && (d == unix.AF_INET || d == unix.AF_INET6 || d == unix.AF_UNIX)
}

// handedSendersWarning names the fds handed over that send past sandbox
// mode's --net none: a datagram or raw internet socket, or a packet one,
// lives in the host's network namespace, and sendto reaches any address
// through it, which neither Landlock (TCP only) nor the filter (the
// address is behind a pointer) sees. A TCP one stays as it came (the
// host guard, the connect broker). The fds are the program's numbers.
func (p *plan) handedSendersWarning() string {
	var fds []string
	for _, fd := range inheritedFDs(p.preserveFDs) {
		if sendsAnywhere(fd) {
			fds = append(fds, strconv.Itoa(fd))
		}
	}
	for i, f := range p.extraFiles {
		if sendsAnywhere(int(f.Fd())) {
			fds = append(fds, strconv.Itoa(3+p.preserveFDs+i))
		}
	}
	if len(fds) == 0 {
		return ""
	}
	what := "fd " + fds[0] + " is a datagram or raw socket"
	if len(fds) > 1 {
		what = "fds " + strings.Join(fds, ", ") + " are datagram or raw sockets"
	}
	return "--net none: " + what + " of the host's network, handed over: the program can send through it to any address (sendto): for no network, hand over none"
}

// sendsAnywhere tells whether fd is an internet socket other than a
// stream one (UDP, raw, SCTP's one-to-many), or a packet socket.
func sendsAnywhere(fd int) bool {
	d, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if err != nil {
		return false
	}
	if d == unix.AF_PACKET {
		return true
	}
	t, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TYPE)
	return err == nil && (d == unix.AF_INET || d == unix.AF_INET6) && t != unix.SOCK_STREAM
}
