package nsexec

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"

	"github.com/omega-run/omega-run/internal/secureexec"
	"github.com/omega-run/omega-run/internal/stderr"
	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/landlock"
	"golang.org/x/sys/unix"
)

// Init runs the init stage and never returns. The caller checks
// os.Args[1] == InitArg first.
func Init() {
	// Elevated (a setuid embedder, or its init stage run by hand): the
	// constructors did nothing, and this stage would mount as told.
	if err := secureexec.Check(); err != nil {
		fmt.Fprintln(stderr.Writer, "omega-run: init: "+termsafe.String(err.Error()))
		os.Exit(125)
	}
	if CInit {
		// A cgo build's constructor runs the C init stage before Go
		// starts; getting here means it found no argv (cinit_args.c).
		// The Go init stage would run instead of the one this build
		// was made and tested with: refuse rather than confine differently.
		fmt.Fprintln(stderr.Writer, "omega-run: init: the C init stage did not start (its constructor found no argv)")
		os.Exit(125)
	}
	// Every restriction below is applied to this thread only and reaches
	// the program through execve or fork from this very thread.
	runtime.LockOSThread()
	var w warner // in the parent's log format once the spec says which
	err := runInit(&w)
	code := 125
	var ee *ExecError
	if errors.As(err, &ee) {
		code = ee.Code
	}
	w.fatal(err)
	os.Exit(code)
}

// runInit returns only on failure.
func runInit(w *warner) error {
	// ps and /proc/1/comm name it as the C init stage's (rename_self),
	// not "exe" (/proc/self/exe): the leader's name, whatever thread
	// this is, while it is dumpable (/proc/self is its user's).
	_ = os.WriteFile("/proc/self/comm", []byte("omega-run-init"), 0)
	// Nobody inside may open this process's memory, fds or exe through
	// /proc: it holds capabilities in the namespace until confine().
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return &os.SyscallError{Syscall: "prctl(PR_SET_DUMPABLE)", Err: err}
	}
	s, err := readSpec()
	if err != nil {
		return err
	}
	if err := refuseChangedCmd(s); err != nil {
		return err
	}
	if err := waitGoAhead(s); err != nil {
		return err
	}
	if err := shiftFDs(s.KeepFDs); err != nil {
		return err
	}
	w.json = s.LogJSON
	if err := userCounts(s, *w); err != nil {
		return err
	}
	if s.User != nil {
		initParent = watchParent() // before the mounts cover the host's /proc
	}
	if s.Mounts == nil {
		s.Landlock.WritesOnly = false // only a read-only root makes it safe
	} else if err := refuseHostDirs(s.KeepFDs); err != nil {
		return err
	} else if err := enterMounts(s, w); err != nil {
		return err
	} else if s.OwnKeyring {
		newSessionKeyring(*w)
	}
	if s.Hostname != "" {
		if err := unix.Sethostname([]byte(s.Hostname)); err != nil {
			return &os.SyscallError{Syscall: "sethostname", Err: err}
		}
	}
	if s.Loopback {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("loopback: %w", err)
		}
	}
	if s.Probe {
		os.Exit(0)
	}
	env := programEnv(inheritedEnv(s), s.Env, s.Unsetenv)
	switch {
	case s.Terminal: // PID 1's session, or without PID 1 the program's
		if err := takeTerminal(); err != nil {
			return err
		}
	case s.NewSession && !s.PID1: // no PID 1 to start it in a session of its own
		if err := leaveTerminal(); err != nil {
			return err
		}
	}
	if s.PID1 { // before its limits count its tasks (confine)
		capProcs()
		if warmWanted() {
			warmThreads(spareThreads)
		}
	}
	if err := confineInit(s, *w); err != nil {
		return err
	}
	if !s.PID1 { // its limits set (confine)
		if s.ListenPID { // an exec in place: this is the program's pid
			setPIDVar(env, "LISTEN_PID", os.Getpid())
		}
		if s.WatchdogPID {
			setPIDVar(env, "WATCHDOG_PID", os.Getpid())
		}
		ignoreSignals(s.IgnoredSignals)
		return execProgram(s, env)
	}
	warnPIDVarsKept(s, env, w)
	return supervise(s, env)
}

// warnPIDVarsKept says that LISTEN_PID and WATCHDOG_PID, where env has
// them, go on naming this process: os.StartProcess runs no code in the
// child before its execve.
func warnPIDVarsKept(s *Spec, env []string, w *warner) {
	if s.ListenPID && setPIDVar(slices.Clone(env), "LISTEN_PID", 0) {
		w.warn("socket activation: LISTEN_PID keeps naming omega-run's pid in this build (its init stage is the Go one), so sd_listen_fds(3) in the program ignores the fds; use --mode rx without cgroup limits")
	}
	if s.WatchdogPID && setPIDVar(slices.Clone(env), "WATCHDOG_PID", 0) {
		w.warn("watchdog: WATCHDOG_PID keeps naming omega-run's pid in this build (its init stage is the Go one), so sd_watchdog_enabled(3) in the program says no watchdog; use --mode rx without cgroup limits")
	}
}

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
		w.warn(hostProcWarning)
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

// ExecError carries the exit code for a failed execve (126/127).
type ExecError struct {
	Code int
	Err  error
}

func (e *ExecError) Error() string { return e.Err.Error() }
func (e *ExecError) Unwrap() error { return e.Err }

func execFailure(path string, err error) error {
	code := 126
	if errors.Is(err, unix.ENOENT) {
		code = 127
	}
	return &ExecError{Code: code, Err: fmt.Errorf("exec %s: %w%s", path, err, execHint(path, err))}
}

// waitGoAhead blocks until the parent has placed this process in its
// cgroup, then enters a cgroup namespace rooted there.
func waitGoAhead(s *Spec) error {
	if !s.GoAhead {
		return nil
	}
	fd := specFD + 1 + s.KeepFDs
	var b [1]byte
	n, err := unix.Read(fd, b[:])
	unix.Close(fd)
	if n != 1 {
		return fmt.Errorf("waiting for the parent: %d bytes, %v", n, err)
	}
	if s.CgroupNS {
		if err := unix.Unshare(unix.CLONE_NEWCGROUP); err != nil {
			return &os.SyscallError{Syscall: "unshare(CLONE_NEWCGROUP)", Err: err}
		}
	}
	return nil
}

// execProgram replaces this process with s's program, with env. Only fds
// 0-2 and the keep fds after them survive.
func execProgram(s *Spec, env []string) error {
	if err := closeFrom(3 + s.KeepFDs); err != nil {
		return err
	}
	if err := setProgramMask(s.BlockedSignals); err != nil { // see sigmask_linux.go
		return err
	}
	return execFailure(s.Path, unix.Exec(s.Path, s.Argv, env))
}

// closeFrom marks every fd from first on close-on-exec: the init stage's
// own spec and anything the caller leaked must not reach the program.
// A kernel without close_range (before 5.9) or its CLOEXEC flag (before
// 5.11), or a filter refusing it, gets each fd in /proc/self/fd marked.
func closeFrom(first int) error {
	if unix.CloseRange(uint(first), ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return nil
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("close_range fallback: %w", err)
	}
	for _, e := range entries {
		// The directory's own fd is closed by now: EBADF.
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= first {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && err != unix.EBADF {
				return fmt.Errorf("close_range fallback: fd %d: %w", fd, err)
			}
		}
	}
	return nil
}

// shiftFDs moves the n preserved fds, which follow the spec fd, down to
// 3…3+n-1 where the program expects them (the spec fd is closed by now).
func shiftFDs(n int) error {
	for i := 0; i < n; i++ {
		if err := unix.Dup3(specFD+1+i, specFD+i, 0); err != nil {
			return &os.SyscallError{Syscall: "dup3", Err: err}
		}
	}
	if n > 0 {
		return closeFrom(specFD + n)
	}
	return nil
}

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
