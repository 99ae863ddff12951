package nsexec

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// procFlags mount the fresh /proc read-only: Landlock already refuses the
// program every write there, but where Landlock is missing a root-run
// sandbox would otherwise reach the host's sysctls (core_pattern).
const procFlags = unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC

// setupMounts runs inside the new mount namespace. The host root stays the
// root (no pivot_root); the order matters: paths to keep are held by fd
// before anything covers them, the root goes read-only before /proc and
// /dev are mounted on it, and masks come last so nothing mounts over them.
// hostProc (true) is all but a fresh /proc: see freshProc.
func setupMounts(p *MountPlan, failClosed bool) (hostProc bool, err error) {
	// Nothing mounted here may propagate back to the host.
	if err := mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return false, untouchedError{err}
	}
	kept, err := holdPaths(p.Keep)
	if err != nil {
		return false, err
	}
	defer closeAll(kept)
	steps := []func() error{
		func() error { return readOnlyRoot(p) },
		func() error { return freshRun(p) },
		func() error { return rebind(kept) },
		func() error { return writableRun(p.Writable) },
		func() (err error) { hostProc, err = freshProc(failClosed); return err },
		setupDev,
		func() error { return hide(p.HideDirs, p.HideFiles) },
		func() error { return readOnlyBinds(p.Pin, p.ReadOnly) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return false, err
		}
	}
	return hostProc, nil
}

// untouchedError is a mount setup refused before it changed anything:
// the only failure after which the program may run in the host's tree.
type untouchedError struct{ error }

func (e untouchedError) Unwrap() error { return e.error }

// freshProc mounts the sandbox's /proc, hiding what the one omega-run was
// given hides (procOptions). A kernel refuses a new proc
// (EPERM) where the host's has parts covered, as in a container; then the
// host's stays, read-only with the root (true), unless failClosed.
func freshProc(failClosed bool) (bool, error) {
	if err := ownOOM.hold(); err != nil {
		return false, err
	}
	err := mount("proc", "/proc", "proc", procFlags, procOptions())
	switch {
	case errors.Is(err, unix.EPERM) && failClosed: // cinit_mounts.c's words
		return false, fmt.Errorf("--fail-closed: a fresh /proc could not be mounted (%w): the sandbox would see "+
			"the host's /proc, which lists every process", err)
	case errors.Is(err, unix.EPERM):
		return true, nil
	}
	return false, err
}

// filterMountHint is said where a seccomp filter around omega-run may be
// what refused the mount (a unit's SystemCallFilter=@system-service);
// cinit_mounts.c's FILTER_MOUNT_HINT.
const filterMountHint = "a seccomp filter around omega-run may refuse mount (systemd's SystemCallFilter= without @mount: add it), or "

// hostProcWarning is said where freshProc kept the host's /proc, with
// hostProcOOM where PID 1 got no proc of its own either (ownOOM.raise's
// warning follows), and hostProcRest: "everything else" is the rest
// (cinit_mounts.c's HOST_PROC…).
const (
	hostProcWarning = "a fresh /proc could not be mounted (the host's has parts covered, as in a container): the sandbox " +
		"sees the host's /proc, read-only, which lists every process"
	hostProcOOM  = ", and the program keeps PID 1's OOM score (below)"
	hostProcRest = "; everything else is in place"
)

// readOnlyRoot makes every mount read-only except the writable roots.
// Landlock already confines writes; this adds what Landlock has no rights
// for (chmod, chown, utimes, xattrs) and a second wall behind it. Roots
// are held by fd first, because the private /tmp may cover one (a data
// dir under /tmp), which is then bound back on top of it.
func readOnlyRoot(p *MountPlan) error {
	var sources []string
	for _, w := range p.Writable {
		if w == "/tmp" && p.TmpFrom != "" {
			sources = append(sources, p.TmpFrom)
		} else {
			sources = append(sources, w)
		}
	}
	held, err := holdPaths(sources)
	if err != nil {
		return err
	}
	defer closeAll(held)
	// A gone writable root is only less to write; a gone private /tmp
	// would leave the host's /tmp in sight.
	if p.TmpFrom != "" && !slices.ContainsFunc(held, func(h heldPath) bool { return h.path == p.TmpFrom }) {
		return fmt.Errorf("the sandbox's /tmp, %s, is gone (moved by another run?): %w", p.TmpFrom, unix.ENOENT)
	}
	// /tmp first, so that roots below it land on top of the private one.
	slices.SortStableFunc(held, func(a, b heldPath) int { return len(targetOf(p, a.path)) - len(targetOf(p, b.path)) })
	// Everything read-only first, while no bind covers a mount yet (the
	// remount fallback reaches mounts by path). nodev and nosuid as
	// bubblewrap's --ro-bind: a device node outside /dev (a chroot, an
	// image) would let a root-run sandbox read a disk past --hide; only
	// the private /dev's own nodes work.
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if err := mountSetattr(-1, "/", unix.AT_RECURSIVE, ro); err != nil {
		return &os.SyscallError{Syscall: "mount_setattr(/, RDONLY|NOSUID|NODEV)", Err: err}
	}
	for _, h := range held {
		// Below /tmp the mount point is in the private /tmp, which a
		// program may have filled with symlinks: none is followed. It
		// is writable by then: /tmp comes first.
		target := targetOf(p, h.path)
		at, err := mountPoint(target, h.dir)
		if err != nil {
			if p.TmpFrom != "" && strings.HasPrefix(target, "/tmp/") {
				// The culprit is in the private /tmp on the host.
				return fmt.Errorf("mount point %s (%s): %w", target, p.TmpFrom+strings.TrimPrefix(target, "/tmp"), err)
			}
			return fmt.Errorf("mount point %s: %w", target, err)
		}
		err = mount(fmt.Sprintf("/proc/self/fd/%d", h.fd), fmt.Sprintf("/proc/self/fd/%d", at), "", unix.MS_BIND|unix.MS_REC, "")
		unix.Close(at)
		if err != nil {
			return fmt.Errorf("bind %s: %w", target, err) // the path, not the fds
		}
		if err := setAttrAt(target, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}, "rw"); err != nil {
			return err
		}
	}
	return nil
}

// setAttrAt is mount_setattr on the mount at canonical path p, reached
// without following symlinks.
func setAttrAt(p string, flags uint, attr *unix.MountAttr, how string) error {
	fd, err := openNoFollow(p)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := mountSetattr(fd, p, flags, attr); err != nil {
		return &os.SyscallError{Syscall: "mount_setattr(" + p + ", " + how + ")", Err: err}
	}
	return nil
}

// openNoFollow opens a canonical path (O_PATH) without following any
// symlink on the way: the parent resolved every path it sends, so a
// symlink found now appeared since — in a directory a confined program
// can write — and must not redirect a mount. It walks one component at a
// time: the C stage's openat2 first (nsexec/cinit_mount_util.c) measured
// nothing in rx here (a few roots), and would be rx's only openat2.
func openNoFollow(path string) (int, error) {
	fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	for _, name := range strings.Split(strings.Trim(path, "/"), "/") {
		if name == "" {
			continue
		}
		next, err := unix.Openat(fd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
		var st unix.Stat_t
		if err := unix.Fstat(next, &st); err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			unix.Close(next)
			return -1, fmt.Errorf("%s: a symlink appeared on its path after omega-run checked it (a confined program may have made it): %w", path, unix.ELOOP)
		}
		fd = next
	}
	return fd, nil
}

// targetOf maps a bind source back to where it appears inside.
func targetOf(p *MountPlan, source string) string {
	if p.TmpFrom != "" && source == p.TmpFrom {
		return "/tmp"
	}
	return source
}

// freshRun hides the host's service sockets behind an empty /run (and
// /var/run where that is a directory rather than the usual symlink).
func freshRun(p *MountPlan) error {
	if !p.FreshRun {
		return nil
	}
	for _, dir := range []string{"/run", "/var/run"} {
		st, err := os.Lstat(dir)
		if err != nil || !st.IsDir() {
			continue
		}
		if err := mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m"); err != nil {
			return err
		}
	}
	return nil
}

// heldPath is a host path kept open across the mounts that cover it.
type heldPath struct {
	path string
	fd   int
	dir  bool
}

func holdPaths(paths []string) ([]heldPath, error) {
	var held []heldPath
	for _, p := range paths {
		fd, err := openNoFollow(p)
		if errors.Is(err, unix.ENOENT) {
			continue // gone since the parent looked: nothing to keep
		}
		if err != nil {
			closeAll(held)
			return nil, fmt.Errorf("hold %w", err)
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
			return nil, &os.SyscallError{Syscall: "fstat " + p, Err: err}
		}
		held = append(held, heldPath{path: p, fd: fd, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR})
	}
	return held, nil
}

func closeAll(held []heldPath) {
	for _, h := range held {
		unix.Close(h.fd)
	}
}

// rebind puts each held path back at its place in the new /run or /tmp.
func rebind(held []heldPath) error {
	for _, h := range held {
		at, err := mountPoint(h.path, h.dir)
		if err != nil {
			return fmt.Errorf("keep %s: %w", h.path, err)
		}
		err = mount(fmt.Sprintf("/proc/self/fd/%d", h.fd), fmt.Sprintf("/proc/self/fd/%d", at), "", unix.MS_BIND, "")
		unix.Close(at)
		if err != nil {
			return fmt.Errorf("keep %s: %w", h.path, err)
		}
	}
	return nil
}

// writableRun clears the read-only flag that the writable roots below /run
// took over from the root when rebind brought them back.
func writableRun(writable []string) error {
	for _, w := range writable {
		if RunWritable(w) {
			err := setAttrAt(w, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}, "rw")
			if err != nil && !errors.Is(err, unix.ENOENT) { // gone since the plan: only less to write
				return err
			}
		}
	}
	return nil
}

// mountPoint creates path's missing directories and the path itself (an
// empty file, or a directory) without following any symlink, and returns
// an O_PATH fd of it to mount onto: the private /tmp persists between
// runs, and a symlink a program left there must not redirect a bind.
// path is canonical (the parent resolved it on the host).
func mountPoint(path string, dir bool) (int, error) {
	// Modes whatever the caller's umask (the program's, restored after):
	// under 0777 the directories were 0000, kept in the private /tmp, and
	// the program could not reach what was bound below them.
	defer unix.Umask(unix.Umask(0))
	fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i, name := range parts {
		wantDir := dir || i < len(parts)-1
		if wantDir {
			err = unix.Mkdirat(fd, name, 0o755)
		} else {
			var f int
			if f, err = unix.Openat(fd, name, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644); err == nil {
				unix.Close(f)
			}
		}
		if err != nil && err != unix.EEXIST {
			unix.Close(fd)
			return -1, &os.PathError{Op: "create", Path: path, Err: err}
		}
		next, err := unix.Openat(fd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
		var st unix.Stat_t
		if err := unix.Fstat(next, &st); err != nil {
			unix.Close(next)
			return -1, &os.PathError{Op: "fstat", Path: path, Err: err}
		}
		isDir, isLink := st.Mode&unix.S_IFMT == unix.S_IFDIR, st.Mode&unix.S_IFMT == unix.S_IFLNK
		if isLink || isDir != wantDir {
			unix.Close(next)
			return -1, fmt.Errorf("a symlink or another kind of file is in the way at %s (left by an earlier run?)", name)
		}
		fd = next
	}
	return fd, nil
}

func mount(source, target, fstype string, flags uintptr, data string) error {
	if err := unix.Mount(source, target, fstype, flags, data); err != nil {
		return fmt.Errorf("mount %s on %s: %w", source, target, err)
	}
	return nil
}
