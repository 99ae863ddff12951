//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// owner returns a file's uid and gid.
func owner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, -1, false
	}
	return int(st.Uid), int(st.Gid), true
}

// checkPreservedFDs makes sure the caller really passed fds 3…3+n-1,
// before omega-run opens any descriptor of its own that could take one
// of those numbers.
func checkPreservedFDs(n int) error {
	for fd := 3; fd < 3+n; fd++ {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			return fmt.Errorf("--preserve-fds %d: fd %d is not open", n, fd)
		}
	}
	return nil
}

// readWorkCopy reads a working copy the confined program may have
// replaced: a symlink is not followed (it could point at a credential
// store, whose content would land in home, readable by the next run), a
// FIFO does not block, and only a regular file of sane size is read.
func readWorkCopy(path string) ([]byte, error) { return readRegular(path, true, maxState) }

// readRegular reads path when it is a regular file: opening a FIFO does
// not block, a symlink is followed only without noFollow, and a file
// larger than max is refused (max < 0: no limit).
func readRegular(path string, noFollow bool, max int64) ([]byte, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		if noFollow && errors.Is(err, syscall.ELOOP) {
			return nil, errors.New("it is a symlink")
		}
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, errors.New("it is not a regular file")
	case max >= 0 && fi.Size() > max:
		return nil, fmt.Errorf("it is larger than %d MiB", max>>20)
	case max < 0:
		return io.ReadAll(f)
	}
	return io.ReadAll(io.LimitReader(f, max+1))
}

// nlink is a file's hard link count (1 where unknown).
func nlink(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// lockState locks dir, the directory of working copies that concurrent
// launches share: exclusively when no other launch's program runs
// (alone), else shared, as that launch's program holds it. A launch
// holds it shared while its program runs (stateShare) and copies back
// only when it can take it exclusively again. nil: no lock (the directory
// cannot be opened, or a confined program holds it exclusively itself),
// and the launch syncs as if alone.
func lockState(dir string) (lock *os.File, alone bool) {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, true
	}
	fd := int(f.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		return f, true
	}
	// Another launch syncing in holds it exclusively for a moment: wait
	// a little, not for a lock a confined program may keep.
	for i := 0; i < 50; i++ {
		if syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB) == nil {
			return f, false
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.Close()
	return nil, true
}

// stateShare turns an exclusive lockState into a shared one.
func stateShare(lock *os.File) {
	if lock != nil {
		_ = syscall.Flock(int(lock.Fd()), syscall.LOCK_SH)
	}
}

// lastOut reports whether no other launch's program holds lock: only
// then may the working copy go back home and be removed.
func lastOut(lock *os.File) bool {
	return lock == nil || syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
