package sandbox

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/safefile"
)

// openRegular opens path for reading only once it is known to be a
// regular file: it is looked at through an O_PATH descriptor first, so a
// device node or FIFO a program planted (or a link to one) is never
// opened — opening some has effects (a watchdog, a tape) — nor a file
// of /proc or /sys, though regular (/proc/kmsg).
// Without /proc to reopen through, it is opened as before and checked
// after.
func openRegular(path string, noFollow bool) (*os.File, error) {
	flags := unix.O_PATH | unix.O_CLOEXEC
	if noFollow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	f, _, err := reopenRegular(fd, path)
	if errors.Is(err, fs.ErrNotExist) {
		return openDirect(path, noFollow)
	}
	return f, err
}

// reopenRegular opens fd, an O_PATH descriptor of path, for reading
// through /proc/self/fd once fstat says it is a regular file (an error
// that is fs.ErrNotExist: no /proc to reopen through), with its size.
func reopenRegular(fd int, path string) (*os.File, int64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, 0, &os.PathError{Op: "fstat", Path: path, Err: err}
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFLNK:
		return nil, 0, errors.New("it is a symlink")
	default:
		return nil, 0, errors.New("it is not a regular file")
	}
	// The files of /proc and /sys are regular too (safefile.KernelFile).
	if kernel, err := safefile.KernelFile(fd); err != nil {
		return nil, 0, &os.PathError{Op: "fstatfs", Path: path, Err: err}
	} else if kernel {
		return nil, 0, errors.New("it is a kernel file, not a regular file")
	}
	f, err := safefile.ReopenFD(fd)
	return f, st.Size, err
}
