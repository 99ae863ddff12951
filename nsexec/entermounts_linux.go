package nsexec

import (
	"errors"
	"fmt"
	"os"

	"github.com/omega-run/omega-run/landlock"
	"golang.org/x/sys/unix"
)

// enterMounts sets up the mount namespace and goes back to the working
// directory in it. A namespace without privilege (EPERM) leaves the
// host's tree with a warning unless the spec says fail closed.
func enterMounts(s *Spec, w *warner) error {
	if err := refuseHiddenWorkdir(s.Mounts.HideDirs); err != nil {
		return err
	}
	// getcwd(2), as the C stage: os.Getwd stats "." first, which fails
	// in a directory the caller may not search, and the warning would
	// say the directory had left the host's tree.
	wd, _ := unix.Getwd()
	oldwd, _ := os.Open(".")
	hostProc, err := setupMounts(s.Mounts, s.FailClosed)
	if hostProc {
		// Landlock keeps its full ruleset: host processes' fds are in sight.
		s.Landlock.WritesOnly = false
		oom := ""
		if ownOOM.fd < 0 {
			oom = hostProcOOM
		}
		w.warn(hostProcWarning + oom + hostProcRest)
	}
	if err != nil {
		// Halfway, the tree is neither the host's nor the sandbox's (a
		// nodev /dev, a read-only /tmp): never run the program in it.
		if !errors.As(err, new(untouchedError)) || !errors.Is(err, unix.EPERM) {
			return fmt.Errorf("mounts: %w", err)
		}
		if s.FailClosed {
			return fmt.Errorf(failClosedMounts, err)
		}
		if s.Mounts.Required {
			return fmt.Errorf("mounts: %w: --hide and --read-only need the sandbox's mounts; on Ubuntu allow user "+
				"namespaces for omega-run with an AppArmor profile (see README), or drop them", err)
		}
		mountsRefused(s, w, err)
	}
	// The cwd still points into the mount tree from before the binds;
	// look the same path up again so it lands on the new mounts — if
	// it is the same directory there: under the private /tmp the path
	// names another one (an empty one an earlier run left, say).
	cwdErr := chdirSame(wd, oldwd)
	if cwdErr != nil {
		if err := workdirGone(s, w, wd, cwdErr, err == nil); err != nil {
			return err
		}
	}
	if s.Landlock.WritesOnly && reachesWritableMount(s.KeepFDs, cwdErr != nil) {
		s.Landlock.WritesOnly = false
	}
	return nil
}

// mountsRefused leaves the program in the host's tree, where a namespace
// without privilege (EPERM) refused the mounts before they changed
// anything, and says what that leaves unprotected.
func mountsRefused(s *Spec, w *warner, err error) {
	// Ubuntu's AppArmor userns restriction: clone worked but the
	// namespace holds no privilege. Landlock, where there is one,
	// still confines writes, with its full ruleset: no read-only root
	// covers truncation.
	s.Landlock.WritesOnly = false
	none := ""
	if landlock.ABI() < 1 {
		none = "; without Landlock either, writes outside the writable set are NOT prevented"
	}
	root := ""
	if programUID(s) == 0 {
		root = rootMetadataGap
	}
	hint := ""
	if v, _ := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); v == 2 {
		hint = filterMountHint
	}
	w.warn("mount namespace unusable (" + err.Error() + "): /proc, /dev, /run, /tmp and host sockets are the host's" + none +
		s.Mounts.Unprotected() + root + "; " + hint + "on Ubuntu allow user namespaces for omega-run with an AppArmor profile (see README)")
	s.Broker = nil                // the broker tells the writable set by its mounts
	if s.Mounts.TmpdirIfRefused { // Landlock alone, as in rx: access(2) says /var/tmp is writable
		s.Env = append([]string{"TMPDIR=/tmp"}, s.Env...)
	}
}

// failClosedMounts is --fail-closed's refusal of the fallback without
// mounts (cinit_mounts.c's FAIL_CLOSED_MOUNTS).
const failClosedMounts = "--fail-closed: mount namespace unusable (%w): /proc, /dev, /run, /tmp and host sockets " +
	"would be the host's, and nothing kept read-only"

// rootMetadataGap is what a root program has without the read-only root
// (cinit_mounts.c's ROOT_METADATA_GAP): Landlock has no rights for
// metadata, and root owns most files.
const rootMetadataGap = "; the program runs as root, and Landlock does not stop chmod, utimes or xattrs: " +
	"it may change the mode of any root-owned file (chmod 666 /etc/shadow); use --user"

// programUID is the uid the program runs with: --user's, else the
// caller's own (mapped one to one).
func programUID(s *Spec) int {
	if s.User != nil {
		return int(s.User.UID)
	}
	return os.Getuid()
}

// tmpWorkdirHint says why a working directory in the host's /tmp is not
// there, and what brings it in (cinit_mounts.c's TMP_WD_HINT).
const tmpWorkdirHint = " (the sandbox's /tmp is its own: --allow-write . brings this directory into it)"

// chdirSame moves to path if it names the directory old is, and stays in
// old otherwise. The error is the bare errno, as the C init stage says
// it: the warning names the path, which is "" once it left the host's
// tree ("chdir : no such file or directory").
func chdirSame(path string, old *os.File) error {
	if old == nil {
		return unix.Chdir(path)
	}
	defer old.Close()
	err := unix.Chdir(path)
	if err == nil {
		before, err1 := old.Stat()
		after, err2 := os.Stat(".")
		if err1 == nil && err2 == nil && os.SameFile(before, after) {
			return nil
		}
		err = errors.New("that path is another directory there")
	}
	if ferr := old.Chdir(); ferr != nil {
		return fmt.Errorf("%w; and back: %w", err, ferr)
	}
	return err
}
