package sandbox

import (
	"io/fs"
	"strconv"

	"golang.org/x/sys/unix"
)

// ownerOnly gives dir, a directory ensureDirs has just made with mode
// 0700, that mode whatever the caller's umask took from it: under umask
// 0277 it was r-x, and omega-run could make nothing in it, on that run
// or any after. Through an O_PATH fd that followed no symlink (which
// needs no permission on dir itself): dir may lie in the writable set,
// where a running program could swap it for a symlink meanwhile.
func ownerOnly(dir string) error {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return &fs.PathError{Op: "fstat", Path: dir, Err: err}
	}
	if st.Mode&0o7777 == 0o700 {
		return nil
	}
	// fchmod refuses O_PATH fds; the fd's /proc link reaches the same inode.
	if err := unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o700); err != nil {
		return &fs.PathError{Op: "chmod", Path: dir, Err: err}
	}
	return nil
}
