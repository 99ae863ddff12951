package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// open looks at path through an O_PATH descriptor (following links, as
// the caller named it) and opens it, through that descriptor, only once
// it is of a kind accepted: nothing else is ever opened. Without /proc
// to reopen through, path is opened again and must be the same file.
func open(path string, kind Kind) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "fstat", Path: path, Err: err}
	}
	if err := check(fd, &st, path, kind); err != nil {
		return nil, err
	}
	flags := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY
	f, err := ReopenFD(fd)
	if !errors.Is(err, fs.ErrNotExist) {
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: errors.Unwrap(err)}
		}
		if st.Mode&unix.S_IFMT == unix.S_IFIFO {
			err = awaitWriter(f, path)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	if f, err = os.OpenFile(path, flags, 0); err != nil {
		return nil, err
	}
	var now unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &now); err != nil || now.Dev != st.Dev || now.Ino != st.Ino {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("replaced while it was opened")}
	}
	return f, nil
}

// check says whether the file fd is one kind accepts; the regular files
// of /proc and /sys are not (reading /proc/kmsg takes the kernel log's
// lines from syslog).
func check(fd int, st *unix.Stat_t, path string, kind Kind) error {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if kernel, err := KernelFile(fd); err != nil {
			return &os.PathError{Op: "fstatfs", Path: path, Err: err}
		} else if kernel {
			return unfit(path, kind, "a kernel file")
		}
		return nil
	case unix.S_IFIFO:
		if kind == Named {
			return nil
		}
		return unfit(path, kind, "a FIFO")
	case unix.S_IFCHR:
		if kind == Named && st.Rdev == unix.Mkdev(1, 3) {
			return nil // /dev/null
		}
		return unfit(path, kind, "a device")
	case unix.S_IFDIR:
		return &os.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	return unfit(path, kind, "neither a file nor a pipe")
}

// awaitWriter waits, pipeWait at most, for a named FIFO's writer to
// write or to come and go: opened without blocking, a FIFO that has had
// no writer yet reads as empty, which would make a --config or --seccomp
// FIFO whose writer opens it a moment later an empty file. A FIFO that has
// had no writer reports neither POLLIN nor POLLHUP.
func awaitWriter(f *os.File, path string) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var perr error
	deadline := time.Now().Add(pipeWait)
	cerr := raw.Control(func(fd uintptr) {
		for {
			left := time.Until(deadline)
			if left <= 0 {
				perr = fmt.Errorf("%s: no writer opened the pipe within %s", path, pipeWait)
				return
			}
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(pfd, int(left.Milliseconds())+1)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				perr = &os.PathError{Op: "poll", Path: path, Err: err}
			} else if n == 0 {
				continue // timed out: said above
			}
			return
		}
	})
	if cerr != nil {
		return cerr
	}
	return perr
}

// KernelFile says whether fd, a regular file, lies in /proc, /sys,
// debugfs or tracefs, whose regular files are not to be read as
// settings: reading some has effects (/proc/kmsg takes the kernel log's
// lines from syslog).
func KernelFile(fd int) (bool, error) {
	var sfs unix.Statfs_t
	if err := unix.Fstatfs(fd, &sfs); err != nil {
		return false, err
	}
	switch sfs.Type {
	case unix.PROC_SUPER_MAGIC, unix.SYSFS_MAGIC, unix.DEBUGFS_MAGIC, unix.TRACEFS_MAGIC:
		return true, nil
	}
	return false, nil
}

// ReopenFD opens fd, an O_PATH descriptor whose kind is known, for
// reading without blocking, through /proc/self/fd: the file looked at is
// the file opened. An error that is fs.ErrNotExist: no /proc.
func ReopenFD(fd int) (*os.File, error) {
	return os.OpenFile("/proc/self/fd/"+strconv.Itoa(fd), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
