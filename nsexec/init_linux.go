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
	sigs := catchAsPID1() // before the spec: the launch may take a while
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
	if err := enterNamespaces(s, w); err != nil {
		return err
	}
	if s.Probe {
		os.Exit(0)
	}
	env := programEnv(inheritedEnv(s), s.Env, s.Unsetenv)
	if err := setTerminal(s); err != nil {
		return err
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
	return supervise(s, env, sigs)
}

// enterNamespaces sets up the namespaces the program runs in: its mounts
// (and keyring), its hostname and its loopback interface.
func enterNamespaces(s *Spec, w *warner) error {
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
	return nil
}

// setTerminal gives the program the terminal, or takes it away
// from it, as the spec says.
func setTerminal(s *Spec) error {
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
	return nil
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
	if n == 0 {
		return errors.New(NoGoAheadHint)
	}
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
