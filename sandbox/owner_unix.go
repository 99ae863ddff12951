//go:build unix

package sandbox

import (
	"io/fs"
	"syscall"
)

// owner returns a file's uid and gid.
func owner(fi fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, -1, false
	}
	return int(st.Uid), int(st.Gid), true
}
