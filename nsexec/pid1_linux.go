package nsexec

import (
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// Forwarded are the signals PID 1 passes on to the program. SIGURG is
// absent on purpose: it is the Go runtime's preemption signal. SIGABRT
// (kill -ABRT for a hung program's core dump) and SIGALRM would
// otherwise end the launcher itself: the Go runtime crashes on the one
// and ignores the other.
var Forwarded = []os.Signal{
	unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT,
	unix.SIGUSR1, unix.SIGUSR2, unix.SIGWINCH, unix.SIGCONT,
	unix.SIGABRT, unix.SIGALRM,
}

// supervise starts the program as a child of this PID 1, forwards signals
// to it, reaps every zombie and exits with the program's status once it
// is gone; the kernel then kills whatever is left in the namespace.
func supervise(s *Spec, env []string, sigs chan os.Signal) error {
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	for i := 0; i < s.KeepFDs; i++ {
		files = append(files, os.NewFile(uintptr(3+i), "kept"))
	}
	if err := preparePID1(s, sigs); err != nil {
		return err
	}
	// With the connect broker, the program's filter and its listener go
	// on this thread now, after closeFrom, which would close the
	// listener, and before launch counts this process's tasks, which its
	// goroutine's thread is in.
	var b *goBroker
	if brokered(s) {
		var err error
		if b, err = startBroker(s, warner{json: s.LogJSON}); err != nil {
			return err
		}
	}
	proc, early, err := launch(s, env, files, sigs)
	if err != nil {
		return err
	}
	// The program's fork has them ignored now; one that catches them
	// itself gets them from PID 1 as from the C one's, as without it.
	if caught := forwardedOf(s.IgnoredSignals); len(caught) > 0 {
		offThread(func() { signal.Notify(sigs, caught...) })
	}
	// One more thread at most for PID 1 from here on (the Go runtime's,
	// for the wait): its tasks were counted for nproc before the start.
	watch := func() {
		forwardSignals(s, proc, early, sigs)
		exitWith(s, reap(proc.Pid))
	}
	if b == nil {
		offThread(watch)
		return nil
	}
	if err := b.started(s, files[3:]); err != nil {
		return err
	}
	// This thread makes the connects that need its Landlock domain;
	// wait4 reaps the program's children from any thread.
	go watch()
	b.serveDomain()
	return nil
}

// forwardedOf lists the Forwarded signals that s has.
func forwardedOf(s SignalSet) []os.Signal {
	var out []os.Signal
	for _, sig := range Forwarded {
		if s.Has(sig.(syscall.Signal)) {
			out = append(out, sig)
		}
	}
	return out
}

// preparePID1 makes PID 1's own calls, where the program's profile does
// not apply: sigs starts catching the forwarded signals, the ignored ones
// and the faults are set up, and every fd past the kept ones is closed.
func preparePID1(s *Spec, sigs chan os.Signal) error {
	var err error
	offThread(func() {
		signal.Notify(sigs, Forwarded...)
		// The program's fork keeps what this process ignores (Go resets
		// only the handlers it has): PID 1 ignores them until the
		// program runs (supervise). SIGCHLD is never among them.
		ignoreSignals(s.IgnoredSignals)
		if err = ignoreFaultSignals(); err == nil {
			err = closeFrom(3 + s.KeepFDs)
		}
	})
	return err
}

// launch starts the program with env and files, from this locked thread,
// and returns it running; a program killed before it ran ends PID 1 with
// its status. sigs gets leftGroup's mark once PID 1 has left the caller's
// process group; early is what came before the fork (beforeFork).
func launch(s *Spec, env []string, files []*os.File, sigs chan os.Signal) (proc *os.Process, early []os.Signal, err error) {
	var limits []rlimits.Limit
	offThread(func() {
		// Its tasks, counted right before it starts the program, which
		// they leave its nproc whole (--rlimit's too).
		own := ownTasks()
		trimOwnTasks(own)
		limits = ownOnTop(s.Limits, own)
	})
	// The launcher started this process with the forwarded signals
	// blocked (sigmask_linux.go); Notify unblocks them on the runtime's
	// signal thread, and the program inherits this thread's mask: the
	// caller's.
	if err := setProgramMask(s.BlockedSignals); err != nil {
		return nil, nil, err
	}
	// StartProcess forks from this locked thread, so the child inherits
	// the thread's Landlock domain, seccomp filter and empty capabilities.
	// Without a seccomp filter nothing stops TIOCSTI, so the program then
	// gets a session of its own and no controlling terminal to inject into.
	// --rlimit's limits bind the program from its first instruction on,
	// and never PID 1 (rlimitgate_linux.go).
	offThread(func() { ownOOM.raise(warner{json: s.LogJSON}) })
	early = beforeFork(s, sigs)
	prog, err := startProgram(s, limits, &os.ProcAttr{
		Env:   env,
		Files: files,
		Sys:   programSession(s),
	}, func() { offThread(ownOOM.restore) })
	offThread(func() {
		// The program stays in the caller's process group, so keys
		// typed at the terminal reach it directly; PID 1 leaves that
		// group, at once, so that it only sees signals sent to it on
		// purpose and forwards each once (what the terminal sent it
		// until then is dropped: forward). At once: the broker's start
		// after launch is slow enough that a key typed ahead was seen
		// twice (TestCtrlC, TestPID1LeavesCallersGroup).
		_ = unix.Setpgid(0, 0)
		if s.Foreground {
			markLeft(sigs)
		}
		ownOOM.restore() // where the start failed before forked
	})
	if err != nil {
		return nil, nil, err
	}
	if prog.gone != nil { // killed before it ran
		os.Exit(exitStatus(*prog.gone))
	}
	return prog.proc, early, nil
}

// offThread runs f on another OS thread and waits for it. The caller's
// goroutine is locked to this one, the only one the program's profile
// binds (installProfile; with the broker, until b.started puts PID 1's
// own filter on every thread), and the Go runtime starts a thread asked
// for from a locked one from its template thread, which predates the
// profile: f's runs outside it.
func offThread(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// forwardSignals starts forwarding signals to the program once it runs;
// those that came since the start wait in sigs, or in early.
func forwardSignals(s *Spec, proc *os.Process, early []os.Signal, sigs chan os.Signal) {
	go forward(early, sigs, proc.Pid, s.Terminal, s.Foreground)
}

// exitWith exits with the program's status, after the warnings about its
// end.
func exitWith(s *Spec, status int) {
	for i, p := range readOnlyLost() {
		if _, err := unix.IoctlGetTermios(2, unix.TCGETS); i == 0 && err == nil && !s.LogJSON {
			// The program wrote to this terminal last, and could have
			// left it so that the warning is unreadable.
			os.Stderr.WriteString(termsafe.TextReset)
		}
		warner{json: s.LogJSON}.warn(lostWarning(p))
	}
	os.Exit(status)
}

// forward sends each signal to the program; with --pty (terminal) a
// SIGCONT goes to its process group, the job the terminal's stop stopped.
// In the foreground, signals a terminal sends are dropped until markLeft's
// mark: the launcher forwards none of them there. early, from before the
// fork, goes first and whole.
func forward(early []os.Signal, sigs chan os.Signal, pid int, terminal, foreground bool) {
	for _, sig := range early {
		_ = unix.Kill(pid, sig.(syscall.Signal))
	}
	left := !foreground
	for sig := range sigs {
		if sig == leftMark {
			left = true
			continue
		}
		if beforeLeft(sig, left, sigs) {
			continue
		}
		if terminal && sig == unix.SIGCONT {
			_ = unix.Kill(-pid, unix.SIGCONT)
			continue
		}
		_ = unix.Kill(pid, sig.(syscall.Signal))
	}
}

// reap waits for every child and returns the program's status the way a
// shell reports it: the exit code, or 128+N when signal N killed it. The
// program's stops and continues go to the launcher (reportJob).
func reap(pid int) int {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, unix.WUNTRACED|unix.WCONTINUED, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 125
		}
		switch {
		case got != pid:
		case ws.Stopped():
			reportJob('S', ws.StopSignal())
		case ws.Continued():
			reportJob('C', 0)
		default:
			return exitStatus(ws)
		}
	}
}

// reportFD is the launcher's spec socket, kept for reportJob (-1: none).
var reportFD = -1

// keepReportFD keeps the spec fd when it is the launcher's socket, above
// the preserved fds (moved down to 3…) and the go-ahead, close-on-exec.
func keepReportFD(fd, keepFDs int) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return
	}
	if n, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, specFD+2+keepFDs); err == nil {
		reportFD = n
	}
}

// reportJob is cinit_pid1.c's report_job: the program stopped by sig ('S') or
// went on ('C'), for the launcher to stop too. Never blocking.
func reportJob(kind byte, sig syscall.Signal) {
	if reportFD >= 0 {
		_ = unix.Sendto(reportFD, []byte{kind, byte(sig)}, unix.MSG_DONTWAIT|unix.MSG_NOSIGNAL, nil)
	}
}

func exitStatus(ws unix.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
