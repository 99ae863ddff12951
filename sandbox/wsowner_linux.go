package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/profiles"
)

// ownLikeDataDir gives the workspace omega-run has just made the owner of
// the data dir it lies in, when that is another user: root running a
// program with --user in a data dir that user owns made a workspace of
// root's, 0700, where the program could write nothing. It grants nothing
// the data dir's owner could not do itself (make the workspace); a data
// dir of root's (a service's) keeps a workspace of root's. The data dir
// is opened once and the workspace found in it without following a
// link: its owner can move it (it lies in their home), and a link put in
// its place would have root give away another dir named workspace. A
// workspace not root's is not one omega-run made: it is left alone; nor
// is one of root's that holds anything. An empty one is given away
// whenever found, not only when just made: an omega-run killed between
// the mkdir and the chown left it root's for every later launch (the
// program could write nothing there, unsaid), and a dir the owner could
// remove and make again grants nothing more.
func ownLikeDataDir(ws string) error {
	if os.Geteuid() != 0 {
		return nil // only root gives files away, and only root has --user
	}
	dir, err := openDirWalk(filepath.Dir(ws), false)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	var parent, st unix.Stat_t
	if err := unix.Fstat(dir, &parent); err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	if parent.Uid == 0 {
		return nil
	}
	ownerRead()
	fd, err := unix.Openat(dir, filepath.Base(ws), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	if st.Uid != 0 || !emptyDir(fd) {
		return nil
	}
	if err := unix.Fchown(fd, int(parent.Uid), int(parent.Gid)); err != nil {
		return fmt.Errorf("chown: %w", err)
	}
	return nil
}

// ownerRead runs once the data dir's owner is known (tests move the data
// dir there, as its owner could).
var ownerRead = func() {}

// dataDirChecked runs between checkDataDirOwner's look and the data
// dir's creation (tests make it there, as another user could).
var dataDirChecked = func() {}

// checkDataDirOwner refuses, for root, a data dir (or, while it does not
// exist, the nearest directory above it that does) of a user other than
// root and the program's (--user): root makes the workspace, the private
// /tmp (1777 for a --user) and the config file there, and a --user's data
// dir reached through a symlink in its home could lead into a third
// user's directory.
func (p *plan) checkDataDirOwner(dataDir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	if err := noOthersLink(dataDir); err != nil {
		return err
	}
	for d := dataDir; ; d = filepath.Dir(d) {
		var st unix.Stat_t
		err := unix.Stat(d, &st)
		switch {
		case err == nil && (st.Uid == 0 || int(st.Uid) == p.programUID()):
			return nil
		case err == nil:
			return fmt.Errorf("the data dir %s belongs to another user (uid %d, of %s), neither root nor the program's: omega-run as root would make its workspace, /tmp and config file there; use a data dir of root's or of --user's", dataDir, st.Uid, d)
		case d == "/" || !errors.Is(err, fs.ErrNotExist):
			return nil // what cannot be created is said when it is
		}
	}
}

// noOthersLink refuses, for root, a data dir reached through a symlink
// of another user's: its owner may point it anywhere, at /etc too, which
// the program would then get as a writable root (and root its 1777 /tmp).
func noOthersLink(dataDir string) error {
	d := "/"
	for _, part := range strings.Split(filepath.Clean(dataDir), "/") {
		if part == "" {
			continue
		}
		d = filepath.Join(d, part)
		var st unix.Stat_t
		if unix.Lstat(d, &st) != nil {
			return nil // missing: made by root, below what is checked
		}
		if st.Mode&unix.S_IFMT != unix.S_IFLNK {
			continue
		}
		uid, err := linkOwner(&st, lstatDirOf(d))
		if err != nil {
			return &fs.PathError{Op: "lstat", Path: filepath.Dir(d), Err: err}
		}
		if uid != 0 {
			return othersLinkToDataDir(dataDir, d, uid)
		}
	}
	return nil
}

func othersLinkToDataDir(dataDir, link string, uid uint32) error {
	return fmt.Errorf("the data dir %s is reached through %s, %s: name the data dir by its real path", dataDir, link, whoseLink(uid))
}

// dataDirLinkCheck is, for root, resolveRoots' check of each symlink on
// the way to root (a root of the policy's) in the data dir: noOthersLink
// looked before, but a link its owner swapped in since would lead the
// program's writable roots, and the chmod of the private /tmp, wherever
// the owner pointed it.
func dataDirLinkCheck(pol profiles.Policy, root string) func(string) error {
	if os.Geteuid() != 0 || !profiles.Within(root, pol.DataDir) {
		return nil
	}
	return func(link string) error {
		var st unix.Stat_t
		if err := unix.Lstat(link, &st); err != nil {
			return &fs.PathError{Op: "lstat", Path: link, Err: err}
		}
		uid, err := linkOwner(&st, lstatDirOf(link))
		if err != nil {
			return &fs.PathError{Op: "lstat", Path: filepath.Dir(link), Err: err}
		}
		if uid != 0 {
			return othersLinkToDataDir(pol.DataDir, link, uid)
		}
		return nil
	}
}

// confirmWalked is, for root, resolveRoots' second look at a root p in
// the data dir that it resolved by path, to real: both must lead to one
// file by walks of fds that follow root's links only. By path, a name
// lstat'ed as a directory could be gone through as a link its owner
// swapped in just after (the kernel follows it in the next lstat), to a
// root-owned link named like the root (tmp) that dataDirLinkCheck
// passes, and its target (a root-owned directory) would have been the
// program's, and its /tmp's chmod 1777.
func confirmWalked(pol profiles.Policy, p, real string) error {
	if os.Geteuid() != 0 || !profiles.Within(p, pol.DataDir) {
		return nil
	}
	want, err := walkedStat(p)
	if err != nil {
		return err
	}
	got, err := walkedStat(real)
	if err == nil && (got.Dev != want.Dev || got.Ino != want.Ino) {
		err = fmt.Errorf("%s resolved to %s, where it no longer leads: a directory on its way was swapped for a symlink while omega-run looked", p, real)
	}
	return err
}

// walkedStat is the stat of what openWalk reaches at path.
func walkedStat(path string) (unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := openWalk(path, false, true)
	if err != nil {
		return st, err
	}
	defer unix.Close(fd)
	if err := unix.Fstat(fd, &st); err != nil {
		return st, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	return st, nil
}

// emptyDir tells whether the directory open at fd holds no entry (one
// read of its entries; an error counts as not empty).
func emptyDir(fd int) bool {
	buf := make([]byte, 4096)
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return false
		}
		if n <= 0 {
			return true
		}
		_, _, names := unix.ParseDirent(buf[:n], -1, nil)
		if len(names) > 0 { // ParseDirent skips . and ..
			return false
		}
	}
}
