package sandbox

import (
	"bytes"
	"os"
	"sync/atomic"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"
)

// crlfFormatter ends the lines of the formatter it wraps in CR LF while
// raw says the caller's terminal, omega-run's stderr, is raw: without
// output processing there a bare LF leaves the next line starting where
// the warning ended (a staircase).
type crlfFormatter struct {
	logrus.Formatter
	raw *atomic.Bool
}

func (f crlfFormatter) Format(e *logrus.Entry) ([]byte, error) {
	b, err := f.Formatter.Format(e)
	if err == nil && f.raw.Load() {
		b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
	}
	return b, err
}

// crlfWhileRaw wraps the standard logger's formatter in a crlfFormatter
// when its lines go to stderr and stderr is the terminal omega-run sets
// raw (a second terminal on stderr stays as it is); the returned func
// puts the formatter back.
func (r *ptyRelay) crlfWhileRaw() func() {
	logger := logrus.StandardLogger()
	if !r.onFD[0] || !r.onFD[2] || (logger.Out != os.Stderr && logger.Out != Stderr) || !sameTerminal(r.term, 2) {
		return func() {}
	}
	prev := logger.Formatter
	logger.SetFormatter(crlfFormatter{prev, &r.rawNow})
	return func() { logger.SetFormatter(prev) }
}

// sameTerminal tells whether fds a and b are the same terminal device.
func sameTerminal(a, b int) bool {
	var sa, sb unix.Stat_t
	return unix.Fstat(a, &sa) == nil && unix.Fstat(b, &sb) == nil && sa.Rdev == sb.Rdev
}
