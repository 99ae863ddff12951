package sandbox

import (
	"slices"

	"golang.org/x/sys/unix"
)

// handsHostSocket tells whether the program is handed (stdin, stdout,
// stderr, a preserved fd, an extra file) a socket that leads into the
// host's network namespace. An internet socket (a socket-activated
// listener, inetd's connection) lives there, not in --net none's own,
// and once disconnected (connect to AF_UNSPEC) TCP Fast Open's send
// connects it past Landlock's TCP rule, as rx's sockets would; a unix
// socket's host peer may pass the program one at run time (SCM_RIGHTS),
// after this look. Sandbox mode then takes rx's host guard. An
// embedder's command (stdioLater) may get one as cmd.Stdin, set after
// the filter is built: it takes the guard always.
func (p *plan) handsHostSocket() bool {
	if p.stdioLater {
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
