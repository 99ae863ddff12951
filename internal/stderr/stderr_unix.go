//go:build unix

// Package stderr writes a launcher's own lines to stderr without dying
// of SIGPIPE where nobody reads them.
package stderr

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/termsafe"
)

// Writer is where the launcher and its Go init stage send their own lines
// (the CLI points logrus at it): os.Stderr's fd, written through its raw
// connection. os.Stderr's
// own Write ends the process by SIGPIPE when it meets a pipe nobody reads
// any more (the Go runtime does that for fds 1 and 2), so a warning that
// cannot be shown would cost the program its run; here the line is
// dropped instead. Catching SIGPIPE with os/signal would do too, but that
// starts a thread: ≈ 0.65 ms per launch in a paired A/B; and in the Go
// init stage that thread broke its Ctrl-Z and --user id switch.
//
// Every line is made terminal-safe on its way (termsafe.Encoded): the
// lines name what a confined program chose, and a JSON encoder keeps C1
// controls and bidi characters raw. This is the one place all of the
// Go side's lines pass, whichever message and format.
var Writer stderrFD

type stderrFD struct{}

// Write writes all of p (the poller waits where the fd is non-blocking
// and full); a line nobody reads is dropped, unsaid: logrus would report
// the error on os.Stderr, which ends the process.
func (stderrFD) Write(line []byte) (int, error) {
	p := termsafe.Encoded(line)
	rc, err := os.Stderr.SyscallConn()
	if err != nil {
		return 0, err
	}
	n := 0
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for n < len(p) && werr == nil {
			m, e := unix.Write(int(fd), p[n:])
			switch {
			case errors.Is(e, unix.EAGAIN):
				return false
			case errors.Is(e, unix.EINTR):
			case e != nil:
				werr = e
			default:
				n += m
			}
		}
		return true
	})
	if errors.Is(werr, unix.EPIPE) {
		return len(line), nil
	}
	if werr != nil {
		err = werr
	}
	if n == len(p) {
		n = len(line)
	}
	return min(n, len(line)), err
}
