package sandbox

import "golang.org/x/sys/unix"

// handsInetSocket tells whether the program is handed an internet socket
// (stdin, stdout, stderr, a preserved fd, an extra file): a socket-
// activated listener, inetd's connection. It lives in the host's network
// namespace, not --net none's own, and once disconnected (connect to
// AF_UNSPEC) TCP Fast Open's send connects it past Landlock's TCP rule,
// as rx's sockets would: sandbox mode then takes rx's host guard. An
// embedder's command (stdioLater) may get one as cmd.Stdin, set after the
// filter is built: it takes the guard always.
func (p *plan) handsInetSocket() bool {
	if p.stdioLater {
		return true
	}
	fds := inheritedFDs(p.preserveFDs)
	for _, f := range p.extraFiles {
		fds = append(fds, int(f.Fd()))
	}
	for _, fd := range fds {
		d, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_DOMAIN)
		if err == nil && (d == unix.AF_INET || d == unix.AF_INET6) {
			return true
		}
	}
	return false
}
