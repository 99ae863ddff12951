package sandbox

import (
	"io/fs"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// afterMkdir runs between a directory's mkdir and its chmod: a test's
// way to swap a path in that window.
var afterMkdir = func() {}

// mkdirOne makes dir with mode 0700 whatever the caller's umask took
// from it: under umask 0277 it was r-x, and omega-run could make nothing
// in it, on that run or any after. The mkdir and the chmod go through one
// fd of the parent, and the chmod through an fd that followed no symlink:
// dir may lie in the writable set, or in the --user's data dir as root,
// where a program or that user could swap a directory on the path for a
// symlink in between, and have root chmod another directory of that
// name (the host's /tmp).
func mkdirOne(dir string) error {
	parent, err := unix.Open(filepath.Dir(dir), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: filepath.Dir(dir), Err: err}
	}
	defer unix.Close(parent)
	name := filepath.Base(dir)
	if err := unix.Mkdirat(parent, name, 0o700); err != nil {
		return &fs.PathError{Op: "mkdir", Path: dir, Err: err}
	}
	afterMkdir()
	fd, err := unix.Openat(parent, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
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
	// fchmod refuses O_PATH fds (which need no permission on dir itself);
	// the fd's /proc link reaches the same inode.
	if err := unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o700); err != nil {
		return &fs.PathError{Op: "chmod", Path: dir, Err: err}
	}
	return nil
}
