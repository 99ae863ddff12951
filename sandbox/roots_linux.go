package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
// known are the roots checkPlanted resolved already (nil: none).
func canonicalRoots(pol profiles.Policy, known map[string]string) (map[string]string, error) {
	return resolveRoots(pol, true, known)
}

// openDirNoSymlinks opens the directory path without following a symlink
// anywhere in it (openat2 RESOLVE_NO_SYMLINKS; ENOSYS before Linux 5.6).
func openDirNoSymlinks(path string) (int, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err == nil && fd <= 2 {
		// A filter answering openat2 with errno 0 "returns" fd 0: the
		// Go runtime keeps 0-2 open, so this is no file of ours.
		return -1, unix.ENOSYS
	}
	return fd, err
}

// privateTmpMode gives sandbox mode's private /tmp at path (canonical:
// opened without following any symlink, so a planted one cannot point
// the chmod elsewhere) the mode its program needs: 1777, as a real
// /tmp's, where a --user other than its owner runs (uid), which the data
// dir around it must keep other host users out of (a data dir of that
// user's gets a /tmp of theirs, 0700: giveTmpToUser): one they may enter
// (a unit's StateDirectory=, 0755) would make the sandbox's /tmp theirs
// too, to read what the program leaves there and plant links in, which
// the returned warning says. Without such a --user, where others may
// enter, 0700: the caller's alone. A kernel without openat2, or a
// filter around omega-run that refuses it (ENOSYS, EPERM), keeps the
// mode.
func privateTmpMode(path string, uid int) (string, error) {
	fd, err := openDirNoSymlinks(path)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return "", fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	if int(st.Uid) != os.Geteuid() {
		return "", nil // not the launcher's to change
	}
	if uid != int(st.Uid) && uid != 0 {
		if given, err := giveTmpToUser(fd, path, uid); err != nil || given {
			return "", err
		}
	}
	open := othersMayEnter(filepath.Dir(path))
	want, warning := uint32(0o1777), ""
	switch {
	case open && uid != int(st.Uid):
		warning = privateTmpWords + path + ", is 1777 for --user, and other users of this machine may enter its data dir " +
			filepath.Dir(path) + ": they can read what the program leaves in /tmp and plant links there; " +
			"chmod 700 the data dir (systemd: StateDirectoryMode=0700), or use a data dir of its own"
	case uid != int(st.Uid):
	case open:
		want = 0o700
	case st.Mode&0o7777 == 0o700:
		want = 0o700 // made private earlier: kept so
	}
	if st.Mode&0o7777 == want {
		return warning, nil
	}
	// On a read-only mount the sandbox gets the host's /tmp instead
	// (dropReadOnlyMounts).
	if err := unix.Fchmod(fd, want); err != nil && !errors.Is(err, unix.EROFS) {
		return "", fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	return warning, nil
}

// giveTmpToUser makes the private /tmp (fd, at path) the --user's (uid),
// 0700, when the data dir holding it is that user's (README's way to run
// a --user): as with its workspace (ownLikeDataDir), this grants nothing
// the data dir's owner could not do itself, and it keeps the 1777 a
// --user needs out of a data dir others may enter (install -d makes it
// 0755). A data dir of a third user's is refused: checkDataDirOwner
// looked before anything was made, through the links its owner may
// re-point since. The data dir is opened without following a symlink
// and must hold fd itself as tmp.
func giveTmpToUser(fd int, path string, uid int) (bool, error) {
	dir, err := openDirNoSymlinks(filepath.Dir(path))
	if err != nil {
		return false, fmt.Errorf("the sandbox's /tmp (%s): data dir: %w", path, err)
	}
	defer unix.Close(dir)
	var parent, there, st unix.Stat_t
	if err := unix.Fstat(dir, &parent); err != nil {
		return false, fmt.Errorf("the sandbox's /tmp (%s): data dir: %w", path, err)
	}
	if unix.Fstatat(dir, filepath.Base(path), &there, unix.AT_SYMLINK_NOFOLLOW) != nil ||
		unix.Fstat(fd, &st) != nil || there.Dev != st.Dev || there.Ino != st.Ino {
		return false, fmt.Errorf("the sandbox's /tmp (%s) was moved while the launch made it", path)
	}
	switch {
	case parent.Uid == 0:
		return false, nil // root's: 1777, and a warning where others may enter
	case int(parent.Uid) != uid:
		return false, fmt.Errorf("the sandbox's /tmp (%s) lies in a directory of another user's (uid %d), neither root's nor the program's: use a data dir of root's or of --user's", path, parent.Uid)
	}
	// A read-only mount, or a root without CAP_CHOWN (a unit's
	// CapabilityBoundingSet=), keeps the 1777 and its warning.
	if unix.Fchown(fd, uid, int(parent.Gid)) != nil {
		return false, nil
	}
	if err := unix.Fchmod(fd, 0o700); err != nil {
		return false, fmt.Errorf("the sandbox's /tmp (%s): %w", path, err)
	}
	return true, nil
}

// othersMayEnter says whether users other than dir's owner may reach
// dir: it and every directory above it let a group or others search.
func othersMayEnter(dir string) bool {
	for {
		var st unix.Stat_t
		if unix.Stat(dir, &st) != nil || st.Mode&0o011 == 0 {
			return false
		}
		if dir == "/" {
			return true
		}
		dir = filepath.Dir(dir)
	}
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
// read-only path and the writable root holding it, and between each
// writable root and a root around it (the data dir's workspace between
// ~/.omega and an --allow-write project inside it). The init stage binds
// each onto itself: a mount point cannot be renamed, so a program cannot
// move .git aside (and the read-only .git/config with it), or the
// directory holding a nested root, and put a new one in its place.
func pinDirs(readOnly, roots []string) []string {
	var out []string
	for _, p := range append(slices.Clone(readOnly), roots...) {
		root := ""
		for _, r := range roots {
			if r != "/tmp" && r != p && profiles.Within(p, r) && len(r) > len(root) {
				root = r
			}
		}
		if root == "" {
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
