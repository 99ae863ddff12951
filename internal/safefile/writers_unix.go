//go:build unix

package safefile

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// othersCanWrite refuses, like sshd's StrictModes, a regular file or FIFO
// that its group or every user may write, or whose directory they may
// write without the sticky bit (and so replace the file): the file
// decides how the next launch runs, a root's one (mode = "rwx") too.
// Devices (/dev/null) and a path that no longer resolves (a pipe's
// /dev/stdin) have no directory to judge.
func othersCanWrite(path string, fi os.FileInfo) error {
	if t := fi.Mode().Type(); t != 0 && t != os.ModeNamedPipe {
		return nil
	}
	if w := groupOnly(path, fi, fi.Mode().Perm()&0o022); w != 0 {
		return writersError(path, fi, w, "", ", and it decides what a launch may do", "")
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	dir := filepath.Dir(real)
	di, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	if w := groupOnly(dir, di, di.Mode().Perm()&0o022); w != 0 && di.Mode()&os.ModeSticky == 0 {
		return writersError(dir, di, w, ", the directory holding "+filepath.Base(real)+",",
			", who could replace the file, which decides what a launch may do", " (or chmod +t "+dir+")")
	}
	return nil
}

// writersError names path, its owner and mode, who may write it, and the
// chmod that takes that away.
func writersError(path string, fi os.FileInfo, w os.FileMode, what, why, alt string) error {
	uid, gid := "?", "?"
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		uid, gid = strconv.FormatUint(uint64(st.Uid), 10), strconv.FormatUint(uint64(st.Gid), 10)
	}
	owner := uid
	if u, err := user.LookupId(uid); err == nil {
		owner = u.Username
	}
	group := "gid " + gid
	if g, err := user.LookupGroupId(gid); err == nil {
		group = g.Name
	}
	if extendedACL(path) { // the group bits are the ACL's mask
		group += " or users its ACL names"
	}
	who, arg := "its group ("+group+")", "g-w"
	switch w {
	case 0o002:
		who, arg = "every user", "o-w"
	case 0o022:
		who, arg = "its group ("+group+") and every user", "go-w"
	}
	return fmt.Errorf("%s (owner %s, mode %04o)%s can be written by %s, not only by its owner%s: chmod %s %s%s",
		path, owner, fileMode(fi), what, who, why, arg, path, alt)
}

// fileMode is fi's permission bits with setuid, setgid and sticky, as
// ls and chmod write them.
func fileMode(fi os.FileInfo) uint32 {
	m := uint32(fi.Mode().Perm())
	for bit, v := range map[os.FileMode]uint32{os.ModeSetuid: 0o4000, os.ModeSetgid: 0o2000, os.ModeSticky: 0o1000} {
		if fi.Mode()&bit != 0 {
			m |= v
		}
	}
	return m
}
