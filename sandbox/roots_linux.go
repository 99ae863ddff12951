package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// canonicalRoots resolves each writable root (and in sandbox mode the
// private /tmp) to the path without symlinks that the init stage opens
// without following any: a symlink that appears later, while it sets up,
// then fails the launch instead of redirecting a bind or a Landlock rule.
//
// A root reached through a symlink that a confined program could have
// made — one inside the data dir, /tmp or another writable root — is
// refused: `ln -s ~ ~/.omega/tmp` in one run would otherwise make the
// next run's /tmp the whole home, writable. "/tmp" itself maps to itself
// (the sandbox's /tmp is a mount target, not a path to resolve).
func canonicalRoots(pol profiles.Policy) (map[string]string, error) {
	paths := slices.Clone(pol.Writable)
	if pol.Mode == profiles.ModeSandbox {
		paths = append(paths, pol.PrivateTmp())
	}
	// Where a program may have written: every root, resolved as it is now
	// (a planted symlink among them is refused below, so a wrong answer
	// here only ever adds refusals).
	var writable []string
	for _, w := range append(slices.Clone(pol.Writable), "/tmp") {
		if real, err := filepath.EvalSymlinks(w); err == nil {
			writable = append(writable, real)
		}
		writable = append(writable, w)
	}
	canon := map[string]string{"/tmp": "/tmp"}
	for _, p := range paths {
		if p == "/tmp" {
			continue
		}
		what := "writable root " + p
		if p == pol.PrivateTmp() {
			what = "the sandbox's /tmp (" + p + ")"
		}
		real, err := resolveRoot(p, what, writable)
		if errors.Is(err, fs.ErrNotExist) && p != pol.PrivateTmp() {
			continue // a missing ~/.claude or data dir is created or skipped elsewhere
		}
		if err != nil {
			return nil, err
		}
		canon[p] = real
	}
	if tmp, ok := canon[pol.PrivateTmp()]; ok && pol.Mode == profiles.ModeSandbox {
		if err := stickyTmp(tmp); err != nil {
			return nil, err
		}
	}
	return canon, nil
}

// stickyTmp gives the private /tmp a real /tmp's mode, 1777, so that a
// --user other than its owner can use it too (the data dir around it,
// 0700, keeps other host users out). path is canonical: opened without
// following any symlink, so a planted one cannot point the chmod
// elsewhere. A kernel without openat2 keeps the mode.
func stickyTmp(path string) error {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if errors.Is(err, unix.ENOSYS) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	if st.Mode&0o7777 == 0o1777 || int(st.Uid) != os.Geteuid() {
		return nil
	}
	if err := unix.Fchmod(fd, 0o1777); err != nil {
		return fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	return nil
}

// resolveRoot is filepath.EvalSymlinks for a writable root (what names
// it in errors), refusing any symlink on the way that lies inside one of
// writable.
func resolveRoot(path, what string, writable []string) (string, error) {
	todo := strings.Split(strings.Trim(path, "/"), "/")
	resolved := "/"
	for links := 0; len(todo) > 0; {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, name)
		st, err := os.Lstat(next)
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if w := containing(next, writable); w != "" {
			return "", fmt.Errorf("%s leads through the symlink %s, inside the writable %s where a confined program could have made it: remove the link (or, if you made it, name the directory it points to)", what, next, w)
		}
		if links++; links > 40 {
			return "", fmt.Errorf("%s: %w", what, syscall.ELOOP)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return resolved, nil
}

// containing returns the first of roots that path lies in, or "".
func containing(path string, roots []string) string {
	for _, r := range roots {
		if profiles.Within(path, r) {
			return r
		}
	}
	return ""
}

// canonicalAll maps paths through canon, keeping unknown ones.
func canonicalAll(paths []string, canon map[string]string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if c, ok := canon[p]; ok {
			p = c
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// pinDirs lists, shallowest first, the directories between each
// read-only path and the writable root holding it. The init stage binds
// each onto itself: a mount point cannot be renamed, so a program cannot
// move .git aside (and the read-only .git/config with it) and put a new
// one in its place.
func pinDirs(readOnly, roots []string) []string {
	var out []string
	for _, p := range readOnly {
		root := ""
		for _, r := range roots {
			if r != "/tmp" && profiles.Within(p, r) && len(r) > len(root) {
				root = r
			}
		}
		if root == "" || root == p {
			continue
		}
		for d := filepath.Dir(p); d != root && profiles.Within(d, root); d = filepath.Dir(d) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	return out
}
