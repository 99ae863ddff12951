package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// afterMkdir runs between a directory's mkdir and its chmod: a test's
// way to swap a path in that window.
var afterMkdir = func() {}

// beforeMake runs once mkdirOwnerOnly knows what is missing, before it
// opens anything: a test's way to swap a path component for a symlink
// after the launch's checks.
var beforeMake = func() {}

// mkdirOwnerOnly is os.MkdirAll(d, 0o700) that leaves each directory it
// makes, d and its missing parents (a --data-dir a/b/c), with that mode
// whatever the caller's umask: under 0277 a parent made r-x refused the
// next level. It makes them through fds of one walk from / (openDirWalk),
// not by path: d may lie in the writable set, or in the --user's data
// dir as root, whose owner could swap a directory on the path for a
// symlink once the launch has looked (noOthersLink) and have root make
// a directory of its own where that leads (in /etc). One there already
// is left as it is: made again by path (os.MkdirAll), a directory on
// its way swapped for a link since it was seen had root make it where
// the link led.
func mkdirOwnerOnly(d string) error {
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return nil
	}
	beforeMake()
	fd, err := openDirWalk(d, true)
	if err != nil {
		return err
	}
	return unix.Close(fd)
}

// createEmpty creates the file path, 0600 whatever the umask, failing if
// any file is there (a symlink too), in its directory as openDirWalk finds
// it: as root in a --user's data dir, a directory swapped for a link
// must not have root create the file where it leads.
func createEmpty(path string) error {
	dir, err := openDirWalk(filepath.Dir(path), false)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	fd, err := unix.Openat(dir, filepath.Base(path), unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &fs.PathError{Op: "create", Path: path, Err: err}
	}
	defer unix.Close(fd)
	if err := unix.Fchmod(fd, 0o600); err != nil {
		return &fs.PathError{Op: "chmod", Path: path, Err: err}
	}
	return nil
}

// step is one name openDirWalk goes through; linked: it comes from a
// symlink's target, and is never made (a dangling link stays an error).
type step struct {
	name   string
	linked bool
}

func steps(path string, linked bool) []step {
	var out []step
	for _, name := range strings.Split(path, "/") {
		if name != "" && name != "." {
			out = append(out, step{name, linked})
		}
	}
	return out
}

// openDirWalk opens the directory path (an O_PATH fd) one name at a time
// from /, each opened without following a symlink through the fd of the
// one before: a name swapped for a symlink after the walk went through
// it changes nothing. A symlink met on the way is followed as the
// kernel would, but as root only one of root's (the host's /home ->
// /data/home): another user's could have been put there since the
// launch looked (noOthersLink refuses the data dir through one).
// With create, the missing directories of path are made, 0700.
func openDirWalk(path string, create bool) (int, error) {
	return openWalk(path, create, false)
}

// openWalk is openDirWalk that, with leafAny, also opens a last name that
// is no directory (a writable root may be a file).
func openWalk(path string, create, leafAny bool) (int, error) {
	if !filepath.IsAbs(path) {
		return -1, fmt.Errorf("%s: not an absolute path", path) // the policy's paths all are
	}
	cur, err := openRoot()
	if err != nil {
		return -1, err
	}
	at, links := "/", 0
	for todo := steps(path, false); len(todo) > 0; {
		s := todo[0]
		todo = todo[1:]
		next := filepath.Join(at, s.name)
		fd, st, err := openStep(cur, s, next, create)
		if err != nil {
			unix.Close(cur)
			return -1, err
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			unix.Close(cur)
			cur, at = fd, next
			continue
		case unix.S_IFLNK:
		default:
			if leafAny && len(todo) == 0 {
				unix.Close(cur)
				return fd, nil
			}
			unix.Close(fd)
			unix.Close(cur)
			return -1, &fs.PathError{Op: "open", Path: next, Err: unix.ENOTDIR}
		}
		target, err := followable(cur, fd, next, &st, &links)
		unix.Close(fd)
		if err == nil && filepath.IsAbs(target) {
			unix.Close(cur)
			if cur, err = openRoot(); err != nil {
				return -1, err
			}
			at = "/"
		}
		if err != nil {
			unix.Close(cur)
			return -1, err
		}
		todo = append(steps(target, true), todo...)
	}
	return cur, nil
}

// openStep opens s in the directory cur (at next, for errors) without
// following a symlink, making it first, with create, when it is missing
// and no link's target named it.
func openStep(cur int, s step, next string, create bool) (int, unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := unix.Openat(cur, s.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) && create && !s.linked {
		fd, err = mkdirAt(cur, s.name, next)
	} else if err != nil {
		err = &fs.PathError{Op: "open", Path: next, Err: err}
	}
	if err != nil {
		return -1, st, err
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, st, &fs.PathError{Op: "fstat", Path: next, Err: err}
	}
	return fd, st, nil
}

func openRoot() (int, error) {
	fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: "/", Err: err}
	}
	return fd, nil
}

// followable reads the symlink fd (at link, st, in the directory dir)
// that openDirWalk may follow, the 41st being a loop.
func followable(dir, fd int, link string, st *unix.Stat_t, links *int) (string, error) {
	if os.Geteuid() == 0 {
		uid, err := linkOwner(st, func(d *unix.Stat_t) error { return unix.Fstat(dir, d) })
		if err != nil {
			return "", &fs.PathError{Op: "fstat", Path: filepath.Dir(link), Err: err}
		}
		if uid != 0 {
			return "", othersLinkError{link, uid}
		}
	}
	if *links++; *links > 40 {
		return "", &fs.PathError{Op: "open", Path: link, Err: unix.ELOOP}
	}
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(fd, "", buf)
	if err == nil && n == len(buf) {
		err = unix.ENAMETOOLONG
	}
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: link, Err: err}
	}
	return string(buf[:n]), nil
}

// linkOwner is whose the symlink st counts as where root follows only
// root's: its owner's, but a link of root's with another name too
// (st_nlink > 1) in a directory of another user's (statDir) is that
// user's, and in one of root's that others may write (/var/tmp)
// anyone's. Where fs.protected_hardlinks is 0, the kernel's default,
// anyone can give a link of root's on their filesystem (/var/run ->
// /run) a name of their choosing in a directory they may write.
func linkOwner(st *unix.Stat_t, statDir func(*unix.Stat_t) error) (uint32, error) {
	if st.Uid != 0 || st.Nlink <= 1 {
		return st.Uid, nil
	}
	var dir unix.Stat_t
	if err := statDir(&dir); err != nil {
		return 0, err
	}
	if dir.Uid == 0 && dir.Mode&0o022 != 0 {
		return anyone, nil
	}
	return dir.Uid, nil
}

// anyone is linkOwner's owner of a link anyone may have made.
const anyone = ^uint32(0)

// whoseLink says whose a symlink that root does not follow is.
func whoseLink(uid uint32) string {
	if uid == anyone {
		return "a second name of a symlink of root's in a directory others may write, which anyone could have made"
	}
	return fmt.Sprintf("a symlink of another user (uid %d), who could point it anywhere (at /etc)", uid)
}

// lstatDirOf is linkOwner's statDir for a link named by path.
func lstatDirOf(link string) func(*unix.Stat_t) error {
	return func(st *unix.Stat_t) error { return unix.Lstat(filepath.Dir(link), st) }
}

// othersLinkError is a symlink of another user's met by root on the way
// to what it makes. It is a permission error: ~/.claude is then left out
// with a warning, as when root may not make it.
type othersLinkError struct {
	link string
	uid  uint32
}

func (e othersLinkError) Error() string {
	return fmt.Sprintf("it is reached through %s, %s: omega-run as root makes nothing through it; name the real path", e.link, whoseLink(e.uid))
}

func (othersLinkError) Is(target error) bool { return target == fs.ErrPermission }

// mkdirAt makes name in the directory parent (at path, for errors), 0700
// whatever the caller's umask took from it, and returns an O_PATH fd of
// it. The chmod goes through that fd, opened without following a
// symlink: the directory's owner (a --user's data dir) could swap the
// new one for a link to another directory of that name (the host's
// /tmp) in between. One made meanwhile, not by this launch, is opened
// as found.
func mkdirAt(parent int, name, path string) (int, error) {
	err := unix.Mkdirat(parent, name, 0o700)
	if errors.Is(err, unix.EEXIST) {
		fd, err := unix.Openat(parent, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
	if err != nil {
		return -1, &fs.PathError{Op: "mkdir", Path: path, Err: err}
	}
	afterMkdir()
	fd, err := unix.Openat(parent, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("%s was replaced while omega-run made it: %w", path, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&0o7777 != 0o700 {
		// fchmod refuses O_PATH fds (which need no permission on the
		// directory itself); the fd's /proc link reaches the same inode.
		if err := unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o700); err != nil {
			unix.Close(fd)
			return -1, &fs.PathError{Op: "chmod", Path: path, Err: err}
		}
	}
	return fd, nil
}
