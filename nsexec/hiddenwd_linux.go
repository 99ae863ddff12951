package nsexec

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// refuseHiddenWorkdir is cinit_hiddenwd.c's omega_refuse_hidden_wd: a working
// directory at or below a hidden one would be kept open and read
// through; compared by identity (each hidden dir as it resolves now
// against the working directory and each one above it), so no name for
// it gets past.
func refuseHiddenWorkdir(hidden []string) error {
	type id struct{ dev, ino uint64 }
	var hid []id
	for _, h := range hidden {
		var st unix.Stat_t
		if unix.Stat(h, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			hid = append(hid, id{st.Dev, st.Ino})
		}
	}
	if len(hid) == 0 {
		return nil
	}
	// Up to the root, where .. is the directory itself; a walk that stops
	// short could not tell, and refuses; but ENOENT (the directory moved
	// out of a bind-mounted subtree) leaves it in no tree the program
	// could climb either.
	var st, up unix.Stat_t
	fd, err := unix.Open(".", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == nil {
		if err = unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
		}
	}
	for err == nil {
		if slices.Contains(hid, id{st.Dev, st.Ino}) {
			unix.Close(fd)
			wd, _ := os.Getwd()
			return fmt.Errorf("working directory %s is inside a directory the sandbox hides: run from another directory", wd)
		}
		parent, perr := unix.Openat(fd, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err = perr; err == nil {
			if err = unix.Fstat(parent, &up); err != nil {
				unix.Close(parent)
				break
			}
		} else {
			break
		}
		fd = parent
		if up.Dev == st.Dev && up.Ino == st.Ino {
			unix.Close(fd)
			return nil // the root
		}
		st = up
	}
	if err == unix.EACCES {
		err = hiddenWorkdirByPath(hidden) // a parent the user may not search
		if _, ok := err.(*hiddenWorkdirError); ok {
			return err
		}
	}
	if err != nil && err != unix.ENOENT {
		wd, _ := os.Getwd()
		return fmt.Errorf("working directory %s: cannot tell whether it is inside a directory the sandbox hides (%w): run from another directory", wd, err)
	}
	return nil
}

type hiddenWorkdirError struct{ wd string }

func (e *hiddenWorkdirError) Error() string {
	return "working directory " + e.wd + " is inside a directory the sandbox hides: run from another directory"
}

// hiddenWorkdirByPath is cinit_hiddenwd.c's hidden_wd_by_path: where the
// walk up meets a directory the user may not search, the kernel's path of
// the working directory (getcwd needs no permissions) against each hidden
// directory's real path.
func hiddenWorkdirByPath(hidden []string) error {
	real, err := unix.Getwd()
	if err != nil {
		return err
	}
	if !filepath.IsAbs(real) {
		return unix.EACCES // "(unreachable)": not in this tree
	}
	for _, h := range hidden {
		r, err := filepath.EvalSymlinks(h)
		if err != nil {
			continue // absent: nothing to hide there
		}
		if rel, err := filepath.Rel(r, real); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return &hiddenWorkdirError{real}
		}
	}
	return nil
}

// privateTree tells a working directory in a tree the sandbox replaces
// with its own (the private /tmp, the fresh /run and a /var/run
// directory, /dev/shm, /dev, /proc): 2 for the tree itself, 1 below it,
// else 0.
// The host's sockets there are not masked, so a program left in the
// host's directory would reach those below it by relative paths (a
// datagram: the broker sees only connect; the launcher keeps a
// directory below /tmp or /run in the sandbox instead where it can:
// sandbox/keepwd_linux.go), and in the host's /proc every host process.
// cinit_mount_util.c's omega_private_tree.
func privateTree(s *Spec, wd string) int {
	for _, t := range []struct {
		dir string
		on  bool
	}{{"/tmp", s.Mounts.TmpFrom != ""}, {"/run", s.Mounts.FreshRun}, {"/var/run", s.Mounts.FreshRun}, {"/dev/shm", true}, {"/dev", true}, {"/proc", true}} {
		switch {
		case !t.on:
		case wd == t.dir:
			return 2
		case strings.HasPrefix(wd, t.dir+"/"):
			return 1
		}
	}
	return 0
}

// workdirGone handles a working directory that the new mount tree does
// not show (cwdErr says why): the program stays in the old one, or starts
// in / where that could not be made read-only or lies below a tree the
// sandbox replaces, and a warning says which; or, where it is that tree
// (privateTree), it starts in the sandbox's own, as a user started in
// /tmp expects, which the launcher says on a terminal only
// (sandbox/ownworkdir_linux.go): a warning on every launch from /tmp was
// noise.
// mounted: the sandbox's mounts are all there.
func workdirGone(s *Spec, w *warner, wd string, cwdErr error, mounted bool) error {
	if wd == "" {
		wd = "(deleted or unmounted on the host)"
	}
	// Read-only, as every mount is now: but a mount that no path
	// reached (covered on the host) stays as it was where the kernel
	// has no mount_setattr, and the program must not start in it.
	stay := "staying in it read-only"
	var st unix.Statfs_t
	priv := 0
	if mounted {
		priv = privateTree(s, wd)
	}
	switch rw := mounted && unix.Statfs(".", &st) == nil && st.Flags&unix.ST_RDONLY == 0; {
	case priv == 2 && !rw && os.Chdir(wd) == nil:
		return nil
	case priv != 0 || rw:
		if err := os.Chdir("/"); err != nil {
			return err
		}
		stay = "starting in / (the host's sockets there would be in reach)"
		if rw {
			stay = "starting in / (its mount could not be made read-only)"
		}
	}
	if s.Mounts.TmpFrom != "" && strings.HasPrefix(wd, "/tmp/") { // no grant brings /tmp itself in
		stay += tmpWorkdirHint
	}
	w.warn("working directory " + wd + " is not visible in the sandbox (" + cwdErr.Error() + "); " + stay)
	return nil
}
