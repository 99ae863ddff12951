//go:build !linux

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// open opens path once os.Stat says it is of a kind accepted, without
// blocking on a FIFO, and checks the file opened is that one.
func open(path string, kind Kind) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(st, path, kind); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if now, err := f.Stat(); err != nil || !os.SameFile(st, now) {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("replaced while it was opened")}
	}
	return f, nil
}

func check(st os.FileInfo, path string, kind Kind) error {
	m := st.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m&os.ModeNamedPipe != 0 && kind == Named:
		return nil
	case m&os.ModeNamedPipe != 0:
		return unfit(path, kind, "a FIFO")
	case m&os.ModeCharDevice != 0 && kind == Named && path == os.DevNull:
		return nil
	case m&os.ModeDevice != 0:
		return unfit(path, kind, "a device")
	case m.IsDir():
		return &os.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	return unfit(path, kind, "neither a file nor a pipe")
}
