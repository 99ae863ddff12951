//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// othersCanWrite refuses, like sshd's StrictModes, a regular file or FIFO
// that its group or every user may write, or that they may replace
// through a directory on its resolved path, up to /, or one holding a
// symlink on the way (which they could re-point): one they may write
// without the sticky bit, or one of a user other than root, the file's
// owner and the caller (a team's group-writable /srv/team lets any member
// rename omega/ under /srv/team/omega/config.toml and put their own in
// its place). The file decides how the next launch runs, a root's one
// (mode = "rwx") too. Devices (/dev/null), a pipe's /dev/stdin and
// unlinked files have no directory to judge. A DataDir
// file's directory may be anyone's.
func othersCanWrite(path string, fi os.FileInfo, kind Kind) error {
	if t := fi.Mode().Type(); t != 0 && t != os.ModeNamedPipe {
		return nil
	}
	if w := groupOnly(path, fi, fi.Mode().Perm()&0o022); w != 0 {
		return writersError(path, fi, w, "", ", and it decides what a launch may do", "")
	}
	real, links, err := resolve(path)
	if err != nil {
		// A linked regular file has a path to judge. Unlinked ones (a
		// memfd, a deleted file as stdin) have none anyone could swap.
		if fi.Mode().IsRegular() && linkCount(fi) > 0 {
			return unresolvedError(path, err)
		}
		return nil
	}
	if now, err := os.Stat(real); err != nil || !os.SameFile(fi, now) {
		return &os.PathError{Op: "open", Path: path, Err: errors.New("replaced while it was read")}
	}
	owner, _ := ownerIDs(fi)
	dataDir := ""
	if kind == DataDir {
		dataDir, _ = filepath.EvalSymlinks(filepath.Dir(path))
	}
	seen := map[string]bool{}
	judge := func(file string, link bool) error {
		for dir := filepath.Dir(file); !seen[dir]; dir = filepath.Dir(dir) {
			seen[dir] = true
			if err := dirReplaces(dir, file, link, owner, dir == dataDir); err != nil {
				return err
			}
		}
		return nil
	}
	if err := judge(real, false); err != nil {
		return err
	}
	for _, l := range links {
		if err := judge(l, true); err != nil {
			return err
		}
	}
	return nil
}

// resolve is ResolveLinks of path made absolute. Not filepath.Abs: its
// Clean takes link/.. lexically, where the kernel goes up from the
// link's target.
func resolve(path string) (real string, links []string, err error) {
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", nil, err
		}
		path = wd + "/" + path
	}
	return ResolveLinks(path, false, nil)
}

// dirReplaces judges dir, a directory on file's resolved path (file may
// be a symlink on the way): it must be owner's, root's or the caller's
// (unless anyOwner), and writable by no one else unless it is sticky
// (/tmp), where only an entry's owner may rename it.
func dirReplaces(dir, file string, link bool, owner uint32, anyOwner bool) error {
	di, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("%s: judging who may replace it: %w", file, err)
	}
	a, why := "", ", who could replace the file, which decides what a launch may do"
	if link {
		a, why = "the symlink ", ", who could re-point it at another file, which would decide what a launch may do"
	}
	what := ", a directory above " + a + file + ","
	if dir == filepath.Dir(file) {
		what = ", the directory holding " + a + filepath.Base(file) + ","
	}
	if uid, _ := ownerIDs(di); !anyOwner && !trustedOwner(uid, owner) {
		return fmt.Errorf("%s (owner %s, mode %04o)%s belongs to a user other than root and the file's owner (%s)%s: chown root %s, or keep the file elsewhere",
			dir, userName(uid), fileMode(di), what, userName(owner), why, dir)
	}
	if w := groupOnly(dir, di, di.Mode().Perm()&0o022); w != 0 && di.Mode()&os.ModeSticky == 0 {
		return writersError(dir, di, w, what, why, " (or chmod +t "+dir+")")
	}
	return nil
}

// trustedOwner says whether a directory of uid's on the way to a file of
// owner's is fine: root's, owner's (who may rewrite the file anyway), the
// caller's (who would only fool themselves), or, in a user namespace,
// one of a user outside it (unmapped: /, /usr and /var are root's of the
// host, shown as nobody, under unshare -Ur or in a rootless container).
func trustedOwner(uid, owner uint32) bool {
	return uid == 0 || uid == owner || int(uid) == os.Geteuid() || unmapped(uid)
}

// unresolvedError refuses a linked regular file whose path does not
// resolve now: moved away while it was read (a writer of a directory
// above could race that to skip the check), or, for one handed over open
// (--config /dev/stdin < FILE under sudo -u), beyond a directory the
// caller may not search.
func unresolvedError(path string, err error) error {
	why := "its path changed while it was read"
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		why = "its path cannot be followed from here"
	}
	return fmt.Errorf("%s: cannot judge who may replace it, as %s: %w", path, why, err)
}

// linkCount is fi's number of hard links (1 where unknown).
func linkCount(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// ownerIDs is fi's owner and group.
func ownerIDs(fi os.FileInfo) (uid, gid uint32) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Uid, st.Gid
	}
	return 0, 0
}

// userName is uid's name, or the number.
func userName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil {
		return u.Username
	}
	return id
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
