package nsexec

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// oomAdj is cinit_oom.c for the Go init stage: under --memory PID 1 is in
// the program's cgroup, whose OOM killer kills the largest process there,
// and the Go PID 1 (≈ 7 MB) is larger than a shell script's processes: it
// was killed first, ending the whole sandbox and losing its after-run
// checks (TestPID1SparedByOOM). The program gets oom_score_adj PID 1's +
// 1000 (1000 at most): any process may raise its own, and lower it back
// as far as oom_score_adj_min (which only a writer with CAP_SYS_RESOURCE
// moves) with no capability, as restore does: what keeps the program's up
// is that the write goes through a /proc, and the sandbox's is read-only.
type oomAdj struct {
	fd   int // PID 1's oom_score_adj, -1 without
	orig string
	// why fd is -1, for the warning; nil where hold never ran (the
	// mount namespace's fallback).
	why error
}

// unraisedWarning and noOwnProc are cinit_oom.c's UNRAISED and NO_OWN_PROC.
const (
	unraisedWarning = "the program's OOM score could not be raised above PID 1's (%s): the OOM killer (of its --memory cgroup, " +
		"or the host's) may kill PID 1, and the whole sandbox with it, before the program's processes"
	noOwnProc = "no proc of PID 1's own: the mount namespace is unusable"
)

var ownOOM = oomAdj{fd: -1}

// hold opens PID 1's oom_score_adj for writing in a proc instance of its
// own (ownProcOpen): the sandbox's /proc is read-only, and a writable fd
// on it or on the host's would keep the root's read-only remount from
// happening (EBUSY). Dumpable for the open only (its /proc files are
// then its user's): nothing else runs in the namespaces yet. Best
// effort: the program's score stays PID 1's, which raise says.
func (o *oomAdj) hold() error {
	if o.fd >= 0 {
		return nil
	}
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	fd, why, oerr := ownProcOpen("self/oom_score_adj")
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return &os.SyscallError{Syscall: "prctl(PR_SET_DUMPABLE)", Err: err}
	}
	if oerr != nil {
		return oerr
	}
	if fd < 0 {
		o.why = why
		return nil
	}
	var b [16]byte
	n, err := unix.Pread(fd, b[:], 0)
	if err != nil || n <= 0 {
		o.why = fmt.Errorf("read oom_score_adj: %w", cmp.Or(err, error(unix.ENODATA)))
		unix.Close(fd)
		return nil
	}
	o.fd, o.orig = fd, strings.TrimSpace(string(b[:n]))
	return nil
}

// ownProcOpen opens path in a proc instance of PID 1's own that no mount
// table holds (fsopen, fsmount: never attached, gone with its last fd, so
// nothing to unmount, which cost ≈ 140 µs a launch), or, on kernels
// before 5.2 (or under a filter that refuses fsopen), one mounted on
// /proc and unmounted at once. -1 where neither opens it, and why; an
// error only where the mount on /proc stays.
func ownProcOpen(path string) (fd int, why, err error) {
	if fs, err := unix.Fsopen("proc", unix.FSOPEN_CLOEXEC); err == nil {
		fd = -1
		if unix.FsconfigCreate(fs) == nil {
			if m, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC); err == nil {
				fd, _ = unix.Openat(m, path, unix.O_RDWR|unix.O_CLOEXEC, 0)
				unix.Close(m)
			}
		}
		unix.Close(fs)
		if fd >= 0 {
			return fd, nil, nil
		}
	}
	// Where this fails too, its error is why (fsopen's is the same, or
	// only says the kernel predates it).
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return -1, fmt.Errorf("mount proc on /proc: %w", err), nil
	}
	fd, oerr := unix.Open("/proc/"+path, unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err := unix.Unmount("/proc", unix.MNT_DETACH); err != nil {
		if oerr == nil {
			unix.Close(fd)
		}
		return -1, nil, fmt.Errorf("umount2(/proc): PID 1's own proc: %w", err)
	}
	if oerr != nil {
		return -1, fmt.Errorf("open oom_score_adj: %w", oerr), nil
	}
	return fd, nil, nil
}

// raise gives PID 1, and so the program it starts next, the program's
// score, or says with w why it cannot (once: it runs once a launch).
func (o *oomAdj) raise(w warner) {
	if o.fd >= 0 {
		adj, err := strconv.Atoi(o.orig)
		if err == nil {
			_, err = unix.Pwrite(o.fd, []byte(strconv.Itoa(min(adj+1000, 1000))), 0)
		}
		if err == nil {
			return
		}
		o.why = fmt.Errorf("write oom_score_adj: %w", err)
		o.restore() // nothing raised: nothing to put back
	}
	why := noOwnProc
	if o.why != nil {
		why = o.why.Error()
	}
	w.warn(fmt.Sprintf(unraisedWarning, why))
}

// restore puts PID 1's own score back once the program is started (down
// to where it was: no capability needed) and closes the fd. Should the
// write fail, PID 1 keeps the program's score: as before.
func (o *oomAdj) restore() {
	if o.fd < 0 {
		return
	}
	_, _ = unix.Pwrite(o.fd, []byte(o.orig), 0)
	unix.Close(o.fd)
	o.fd = -1
}
