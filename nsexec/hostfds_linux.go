package nsexec

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// refuseHostDirs is the C stage's omega_refuse_host_dirs: a directory
// among the program's fds (0-2 and the keep preserved ones) is the
// host's, and through /proc/self/fd/N the program would reach the host's
// tree around the mounts (hidden credential stores, host sockets, the
// modes the read-only root keeps).
func refuseHostDirs(keep int) error {
	what := []string{"stdin", "stdout", "stderr"}
	for fd := 0; fd < 3+keep; fd++ {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue
		}
		name := "--preserve-fds"
		if fd < 3 {
			name = what[fd]
		}
		dir, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if err != nil {
			dir = "?"
		}
		return fmt.Errorf("fd %d (%s) is the directory %s: through it the program would reach the host's files "+
			"around the sandbox (hidden credential stores, host sockets, file modes); give it the path instead "+
			"(--allow-write for writes)", fd, name, dir)
	}
	return nil
}

// reachesWritableMount is the C stage's on_writable_mount test over the
// program's fds (0-2 and the keep preserved ones) and, when oldCwd, the
// working directory it stayed in: whether the program reaches a host
// mount that is not read-only, where only Landlock's TRUNCATE stops
// truncate(2) and O_TRUNC (through /proc/self/fd or relative paths), so
// the ruleset must not be narrowed to WritesOnly.
func reachesWritableMount(keep int, oldCwd bool) bool {
	if oldCwd && onWritableMount(unix.AT_FDCWD) {
		return true
	}
	for fd := 0; fd < 3+keep; fd++ {
		if onWritableMount(fd) {
			return true
		}
	}
	return false
}

// onWritableMount is the C stage's on_writable_mount: fd (AT_FDCWD: the
// working directory) leads onto a host mount that is not read-only — a
// directory always (the mounts below it are the host's, whatever its own
// is), a regular file not open for writing when its mount is not.
func onWritableMount(fd int) bool {
	var st unix.Stat_t
	if fd == unix.AT_FDCWD {
		if unix.Stat(".", &st) != nil {
			return false
		}
	} else if unix.Fstat(fd, &st) != nil {
		return false
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return true
	case unix.S_IFREG:
	default:
		return false // truncate(2) takes regular files
	}
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err == nil && fl&unix.O_PATH == 0 && (fl&unix.O_ACCMODE == unix.O_WRONLY || fl&unix.O_ACCMODE == unix.O_RDWR) {
		return false // a written one is the program's anyway
	}
	var fs unix.Statfs_t
	return unix.Fstatfs(fd, &fs) != nil || fs.Flags&unix.ST_RDONLY == 0
}
