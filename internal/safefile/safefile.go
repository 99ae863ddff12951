// Package safefile reads the files omega-run takes its settings from
// (the data dir's config file, a --config, a seccomp profile), which a
// program confined earlier may have replaced where they lie in its
// writable set (rx mode, a --user's data dir): with a FIFO, which a
// blocking open waits on for ever, or a link to /dev/zero or
// /dev/watchdog, whose reading never ends or whose opening has effects.
// The next launch (a service's restart, as root) must say so and stop,
// not hang, fill its memory or touch the device.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Kind is what a caller accepts besides a regular file.
type Kind int

const (
	// Regular accepts regular files only: a file the caller did not name.
	Regular Kind = iota
	// Named accepts a pipe and /dev/null too, which a caller names
	// (--config /dev/stdin, OMEGA_RUN_CONFIG=/dev/null).
	Named
	// DataDir is Regular for the data dir's own config file, whose
	// directory may be of any user: the launch trusts the data dir's
	// owner with all of it and judges that owner itself (root's or the
	// --user's for root: sandbox's checkDataDirOwner). Its mode and the
	// directories above it are judged as for the others.
	DataDir
)

// pipeWait bounds the wait for what a pipe brings: a FIFO planted with a
// writer that never writes must not hold the launch.
var pipeWait = 10 * time.Second

// ErrUnfit is wrapped by the error about a file of the wrong kind.
var ErrUnfit = errors.New("not a regular file")

// Read reads path, max bytes at most (more is an error), when it is a
// file kind accepts and no one but its owner (and root) could have
// written it (othersCanWrite). Errors name path.
func Read(path string, max int64, kind Kind) ([]byte, error) {
	data, _, err := ReadInfo(path, max, kind)
	return data, err
}

// ReadInfo is Read, with the file's FileInfo as it was opened (its owner
// for a caller that trusts only some).
func ReadInfo(path string, max int64, kind Kind) ([]byte, os.FileInfo, error) {
	f, err := open(path, kind)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if err := othersCanWrite(path, fi, kind); err != nil {
		return nil, nil, err
	}
	data, err := readAll(f, path, max)
	return data, fi, err
}

func readAll(f *os.File, path string, max int64) ([]byte, error) {
	_ = f.SetReadDeadline(time.Now().Add(pipeWait)) // pipes only; files have none
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, max)
	}
	return data, nil
}

// unfit is the error for path, which is a kind of file that kind does not
// accept.
func unfit(path string, kind Kind, what string) error {
	want := "a regular file"
	if kind == Named {
		want = "a regular file, a pipe or /dev/null"
	}
	return fmt.Errorf("%s: %w: it is %s (a program may have left it), and omega-run reads only %s", path, ErrUnfit, what, want)
}
