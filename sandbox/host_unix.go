//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/termsafe"
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
// FIFO does not block, and only a regular file of sane size
// (workCopyMax) is read.
func readWorkCopy(path string, homeSize int) ([]byte, error) {
	return readRegular(path, true, workCopyMax(homeSize))
}

// readRegular reads path when it is a regular file: opening a FIFO does
// not block, a symlink is followed only without noFollow, and a file
// larger than max is refused (max < 0: no limit).
func readRegular(path string, noFollow bool, max int64) ([]byte, error) {
	f, err := openRegular(path, noFollow)
	if err != nil {
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
		if max < 1<<20 {
			return nil, fmt.Errorf("it is larger than %d bytes", max)
		}
		return nil, fmt.Errorf("it is larger than %d MiB", max>>20)
	case max < 0:
		return io.ReadAll(f)
	}
	return io.ReadAll(io.LimitReader(f, max+1))
}

// checkRegular tells whether path is a regular file, not a symlink, as
// readRegular would find it, without reading it.
func checkRegular(path string) error {
	f, err := openRegular(path, true)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return errors.New("it is not a regular file")
	}
	return nil
}

// openDirect opens path without blocking (a FIFO), not following a
// final symlink with noFollow.
func openDirect(path string, noFollow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil && noFollow && errors.Is(err, syscall.ELOOP) {
		return nil, errors.New("it is a symlink")
	}
	return f, err
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
// (syncAlone), shared when one does (syncShared, as that launch holds
// it). A launch holds it shared while its program runs and copies back
// only when it can take it exclusively again (lastOut). syncContested:
// nothing could be taken within stateLockWait, and what holds it is not
// another launch (launchHolds) but a program; the launch then shares the
// working copy as it is, unlocked. A directory that cannot be opened: syncAlone,
// unlocked, as before locks. A terminating signal on stop ends the wait
// (*interruptedError).
func lockState(dir string, stop chan os.Signal) (*os.File, syncMode, error) {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, syncAlone, nil
	}
	w := lockWaiter{stop: stop}
	defer w.recatch()
	fd, deadline, said := int(f.Fd()), time.Now().Add(stateLockWait), false
	for {
		// Exclusive first, every time: a launch that held it to copy
		// back has removed the working copy once it lets go.
		if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			return f, syncAlone, nil
		}
		if syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB) == nil {
			return f, syncShared, nil
		}
		if time.Now().After(deadline) {
			if pids := launchHolds(f); pids != nil {
				// Another launch is copying: a state of hundreds
				// of MB under load takes longer than the wait,
				// and sharing the copy unlocked meanwhile lost it
				// (TestStateLockWaitsForLaunch). Said once: the
				// wait has no end, and a holder stopped (Ctrl-Z)
				// or stuck would leave this launch silent for good.
				if !said {
					logrus.Warnf("state sync: waiting for process %d, which holds the lock on %s (another launch copying a large state?); this launch goes on once it lets go", pids[0], termsafe.String(dir))
					said = true
				}
				deadline = time.Now().Add(stateLockWait)
				continue
			}
			f.Close()
			return nil, syncContested, nil
		}
		if err := w.pause(10 * time.Millisecond); err != nil {
			f.Close()
			return nil, syncAlone, err
		}
	}
}

// stateLockWait bounds the wait for another launch's sync (copying a
// state file of hundreds of MB takes a second).
const stateLockWait = 5 * time.Second

// stateShare turns an exclusive lockState into a shared one; nil when
// that fails within stateLockWait (the conversion lets go first, and
// something else may take it meanwhile).
func stateShare(lock *os.File) *os.File {
	if lock == nil {
		return nil
	}
	for deadline := time.Now().Add(stateLockWait); ; time.Sleep(10 * time.Millisecond) {
		if syscall.Flock(int(lock.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) == nil {
			return lock
		}
		if time.Now().After(deadline) {
			lock.Close()
			return nil
		}
	}
}

// lastOut reports whether no other launch's program holds lock: only
// then may the working copy go back home and be removed. Two launches
// ending together would each see the other's shared lock: each lets go of
// its own and tries once more, and the later one gets it.
func lastOut(lock *os.File) bool {
	if lock == nil {
		return true
	}
	fd := int(lock.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		return true
	}
	_ = syscall.Flock(fd, syscall.LOCK_UN)
	return syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// lockAlone takes dir's lock exclusively if nothing holds it now, for a
// launch that shared the working copy unlocked: it is the last one out
// only then. nil: held (or dir cannot be opened).
func lockAlone(dir string) *os.File {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		f.Close()
		return nil
	}
	return f
}

// mayExecute is execve's permission check for as: the kernel's own for
// the caller as it is (an ACL, a noexec mount), else the mode bits for
// as's uid and groups, without capabilities, and noexec mounts. Where
// the mode bits refuse but a POSIX ACL may grant it, execve decides.
func mayExecute(path string, st fs.FileInfo, as runner) error {
	if as.caller {
		if err := unix.Faccessat(unix.AT_FDCWD, path, unix.X_OK, unix.AT_EACCESS); err != nil {
			return &fs.PathError{Op: "access", Path: path, Err: err}
		}
		return nil
	}
	if !modeGrantsX(st, as) && !hasAccessACL(path) || noexecMount(path) {
		return &fs.PathError{Op: "access", Path: path, Err: fs.ErrPermission}
	}
	return nil
}

// modeGrantsX tells whether st's mode bits give as's uid and groups the x
// permission (execute, or search for a directory) without capabilities:
// the owner's bits for the owner, the group's for a member, else
// other's.
func modeGrantsX(st fs.FileInfo, as runner) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	perm := st.Mode().Perm()
	switch {
	case sys.Uid == as.uid:
		perm >>= 6
	case slices.Contains(as.gids, sys.Gid):
		perm >>= 3
	}
	return perm&1 != 0
}
