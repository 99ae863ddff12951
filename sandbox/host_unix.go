//go:build unix

package sandbox

import (
	"fmt"
	"io/fs"
	"syscall"

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
