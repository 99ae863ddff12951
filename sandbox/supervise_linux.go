package sandbox

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/nsexec"
	"golang.org/x/sys/unix"
)

// prepareFunc computes the spec the init stage runs, and the tool state
// to copy back once the program is done.
type prepareFunc func() (*nsexec.Spec, []*stateSync, error)

// ready is a prepareFunc for a spec computed already.
func ready(spec *nsexec.Spec, syncs []*stateSync) prepareFunc {
	return func() (*nsexec.Spec, []*stateSync, error) { return spec, syncs, nil }
}

// runSupervised starts the init stage as a child, hands it the spec,
// forwards signals and waits. The start (clone, id maps, the init stage's
// exec) runs on another thread while prepare computes the spec, and the
// init stage waits for its spec on a pipe; in the CLI, the init stage has
// most often been started before the Go runtime even began
// (nsexec/cinit_early.c; bench/PROFILE.md).
func runSupervised(p *plan, ns nsexec.Namespaces, prepare prepareFunc) (int, error) {
	sigs := forwardedSignals(p)
	started := make(chan *launch, 1)
	if pid, pipe, ok := nsexec.Prestarted(ns, p.preserveFDs, p.cgroup.IsZero() && !p.changedDir && p.term == nil); ok {
		// Started by the CLI's constructor before the Go runtime.
		started <- &launch{pipe: pipe, proc: &child{pid: pid}}
	} else {
		go func() { started <- startInit(p, ns) }()
	}
	p.waitSignals = sigs.C()
	spec, syncs, err := prepare()
	// The state goes back on every way out, failures too (syncOut runs
	// once: a second call finds nothing to do).
	defer syncOut(syncs)
	l := <-started
	if ie := (*interruptedError)(nil); errors.As(err, &ie) {
		return l.interrupted(sigs, ie), nil
	}
	if err == nil {
		err = l.err
	}
	if err != nil {
		sigs.stop()
		l.abandon()
		p.sayHeld()
		return 0, launcherErr(err)
	}
	if l.startErr != nil {
		sigs.stop()
		l.abandon()
		if !ns.Enabled {
			return 0, launcherErr(l.startErr) // not about user namespaces
		}
		return fallback(p, spec, syncs, l.startErr)
	}
	if err := p.sayPending(nil); err != nil {
		sigs.stop()
		l.abandon()
		return 0, launcherErr(err)
	}
	for _, n := range p.nsNotes {
		logrus.Warn(n)
	}
	spec.Terminal = p.term != nil
	spec.Foreground = p.term == nil && inForeground()
	if ie := interruptedBeforeSpec(sigs); ie != nil {
		return l.interrupted(sigs, ie), nil
	}
	p.term.start()
	relay := startNotifyRelay(p, spec, ns.Enabled)
	var left *orphans
	if !ns.Enabled && p.exitAfterRun {
		// No pid namespace ends them. Only for the CLI: an embedder's
		// other children (os/exec's, a concurrent launch's program)
		// would be reaped and killed with them.
		left = adoptOrphans(l.proc.pid, p.term.guardPid())
	}
	status, err := l.run(p, ns.Enabled, spec, sigs)
	if n := left.end(); n > 0 {
		logrus.Debugf("ended %d processes the program left running", n)
	}
	p.term.finish() // the program's last output first, then the terminal's settings
	defer resetBeforeNextLine()()
	relay.close()
	// The program may have left the terminal to another process group
	// with TOSTOP set: the warnings below must not stop omega-run.
	if p.exitAfterRun {
		signal.Ignore(unix.SIGTTOU)
	}
	// A signal that comes from now on ends omega-run as it would any
	// program (the state sync writes by rename: nothing half-written),
	// rather than going to a program that has exited; with nothing left
	// to do but exit, it is dropped, as one that comes while the program
	// exits always was.
	if !p.exitAfterRun || syncs != nil || l.cg != nil {
		sigs.stop()
	}
	afterRun(p, l, syncs)
	return status, err
}

// afterRun is what follows the program's end: its cgroup emptied, the
// warnings about what it left, its state copied back and reported.
func afterRun(p *plan, l *launch, syncs []*stateSync) {
	// Leftover processes end first: what they would write after the
	// checks and the copy back would go unseen, or be lost.
	l.cg.finish()
	for _, w := range p.gitScan.changes() {
		logrus.Warn(w)
	}
	syncOut(syncs) // now, for the report to name what goes home
	reportClaude(p.claude, syncs)
}

func syncOut(syncs []*stateSync) {
	for _, st := range syncs {
		if warning, err := st.syncOut(); err != nil {
			logrus.Warn(err.Error())
		} else if warning != "" {
			logrus.Warn(warning)
		}
	}
}

// fallback runs spec without namespaces after the kernel refused them
// (disabled, exhausted, or an LSM said no), unless --fail-closed.
func fallback(p *plan, spec *nsexec.Spec, syncs []*stateSync, err error) (int, error) {
	err = startErr(err)
	cause := cloneFailure(err)
	if cause == "" {
		p.sayHeld()
		return 0, launcherErr(err)
	}
	if spec.Mounts != nil && spec.Mounts.Required {
		return 0, launcherErr(requiredMounts(cause))
	}
	warnings := []string{usernsWarning(cause, p.policy)} // report refuses them with --fail-closed
	if spec.Mounts != nil {
		warnings = append(warnings, notHidden(spec.Mounts))
		if landlock.ABI() < 1 { // the Landlock warning counted on the mounts
			warnings = append(warnings, "without Landlock or a mount namespace, writes outside the writable set are NOT prevented")
		}
	}
	// The spec was made for mounts, a network namespace, a read-only
	// bind of omega-run: the gaps of a launch without them.
	warnings = append(warnings, policyWarnings(p.policy, false, landlock.EffectiveABI(), p.programUID(), p.limits)...)
	if p.pty {
		warnings = append(warnings, ptyFallback()) // and for its own /dev/pts
	}
	if err := p.sayPending(warnings); err != nil {
		return 0, launcherErr(err)
	}
	for _, n := range p.fallbackNotes {
		logrus.Warn(n)
	}
	// The spec was made for pid and network namespaces, too; the broker
	// tells the writable set by the mounts there are none of.
	spec.Broker = nil
	// Landlock alone now, as in rx: access(2) says /var/tmp is writable.
	spec.Env = append(tmpdirEnv(p, false), spec.Env...)
	if spec.Seccomp, err = hostGuard(spec.Seccomp, p.policy); err != nil {
		return 0, launcherErr(err)
	}
	if syncs != nil || !p.cgroup.IsZero() || p.term != nil || p.relayForRoot() {
		return runSupervised(p, nsexec.Namespaces{}, ready(spec, syncs))
	}
	return 0, inPlace(spec)
}

// sayPending says specWith's warnings that it left pending (all of them
// where the namespaces are there; fallback: those that hold without them,
// after its own) through report, and the launch's info line; with none
// pending (specWith said them), fallback's alone.
func (p *plan) sayPending(fallback []string) error {
	warnings := p.pending
	if fallback != nil {
		kept := slices.DeleteFunc(slices.Clone(p.pending), func(w string) bool { return slices.Contains(p.nsOnly, w) })
		warnings = append(fallback, kept...)
	}
	if err := report(p.policy, warnings); err != nil {
		return err
	}
	if p.deferWarnings {
		logLaunch(p, fallback == nil)
	}
	p.pending, p.deferWarnings = nil, false
	return nil
}

// sayHeld says the warnings held for a launch that failed before either
// launch ran (125): they may tell why (a limit, a directory kept
// read-only) and would otherwise be lost. Warnings even under
// --fail-closed, whose refusal they would have been: the failure is the
// one error.
func (p *plan) sayHeld() {
	if !p.deferWarnings {
		return
	}
	for _, w := range p.pending {
		logrus.Warn(w)
	}
	p.pending, p.deferWarnings = nil, false
}

// launch is an init stage started before its spec was ready.
type launch struct {
	cg       *cgroupRun
	pipe     *nsexec.SpecPipe
	proc     *child
	err      error // setting up the cgroup or the pipe failed
	startErr error // the clone or exec failed
}

// startInit starts the init stage in ns, its spec still to come.
func startInit(p *plan, ns nsexec.Namespaces) *launch {
	l := &launch{}
	if l.cg, l.err = newCgroup(p, ns); l.err != nil {
		return l
	}
	cmd, pipe, err := nsexec.Pending(context.Background(), ns, p.preserveFDs)
	if l.err = err; err != nil {
		return l
	}
	l.pipe = pipe
	if l.cg != nil {
		if l.err = l.cg.place(cmd, ns); l.err != nil {
			return l
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.term.stdio(0, os.Stdin), p.term.stdio(1, os.Stdout), p.term.stdio(2, os.Stderr)
	l.proc, l.startErr = startChild(cmd)
	cmd.ExtraFiles[0].Close() // the spec's read end is the child's now
	return l
}

// interruptedBeforeSpec takes what came while the launch prepared: a
// terminating signal ends it, as in a lock wait. The program does not
// exist yet and nothing else would act on it: an init stage started after
// it came never got it, and the launcher in the terminal's foreground
// forwards no Ctrl-C (the program, once there, got its own). Others stay
// caught for the program.
func interruptedBeforeSpec(sigs signalCatcher) *interruptedError {
	w := lockWaiter{stop: sigs.C()}
	err := w.poll()
	w.recatch()
	ie, _ := err.(*interruptedError)
	return ie
}

// interrupted ends a launch that a signal stopped before the program
// started: as the program would have ended, killed by it, with no word.
func (l *launch) interrupted(sigs signalCatcher, ie *interruptedError) int {
	sigs.stop()
	l.abandon()
	received.Or(1 << uint(ie.sig))
	return 128 + int(ie.sig)
}

// abandon ends a launch that will not run: the init stage, waiting for
// its spec, is killed (and would read an empty one and exit quietly).
func (l *launch) abandon() {
	if l.pipe != nil {
		l.pipe.Close()
	}
	if l.proc != nil {
		l.proc.kill()
		_, _ = l.proc.wait()
	}
	l.cg.finish()
	l.cg = nil
}

// run sends the spec, lets the init stage go on and waits for it.
func (l *launch) run(p *plan, pid1 bool, spec *nsexec.Spec, sigs signalCatcher) (int, error) {
	l.cg.mark(spec)
	err := l.pipe.Send(spec)
	if errors.Is(err, syscall.EPIPE) {
		// The init stage is gone before reading it (killed while it
		// started, an OOM kill in its cgroup): its status tells.
		return l.status(pid1, p.process.Hostname != "")
	}
	if err == nil {
		err = l.cg.started(l.proc.pid)
	}
	if err != nil {
		l.proc.kill()
		_, _ = l.proc.wait()
		return 0, launcherErr(err)
	}
	go forwardSignals(sigs.C(), l.proc, p.term)
	defer l.pipe.Close() // kept after the spec for the program's stops
	done := make(chan struct{})
	defer close(done)
	l.followStops(p, pid1, done)
	return l.status(pid1, p.process.Hostname != "")
}

// status waits for the init stage and returns its exit status; hostname:
// the launch asked for one (the init stage calls sethostname).
func (l *launch) status(pid1, hostname bool) (int, error) {
	ws, err := l.proc.wait()
	if err != nil {
		return 0, launcherErr(err)
	}
	// As PID 1 the init stage exits with the program's status (128+N for
	// its signals), and omega-run's own filters never kill: killed by
	// SIGSYS, it met a filter around omega-run that kills instead of
	// failing. Without namespaces it became the program, whose custom
	// profile may kill (SCMP_ACT_KILL_PROCESS): its status, then.
	if pid1 && ws.Signaled() && ws.Signal() == syscall.SIGSYS {
		calls := "mount and mount_setattr for its mounts (systemd: SystemCallFilter=@mount)"
		if hostname { // @privileged's, which @system-service leaves out too
			calls += ", sethostname for --hostname (systemd: SystemCallFilter=sethostname)"
		}
		// capset (@privileged's) only in a build without cgo, whose check
		// before the Go runtime (cinit_filterkills.c) is missing.
		calls += ", capset for the program's capabilities (systemd: SystemCallFilter=capset)"
		return 0, launcherErr(errors.New("stopped: a seccomp filter around omega-run killed its init stage (SIGSYS) on a system call it needs, such as " + calls + " or keyctl for the program's own session keyring; allow the call in that filter, or let it answer an errno (systemd: SystemCallErrorNumber=EPERM), which falls back"))
	}
	return nsexec.ExitStatus(ws), nil
}

// cloneFailure tells whether the start failed because user namespaces
// are refused (disabled, exhausted, or an LSM said no; EROFS: the uid map
// is on another sandbox's read-only /proc), and why.
func cloneFailure(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return ""
	}
	switch errno {
	case unix.EPERM:
		if by := refusedByUnit(); by != "" {
			return "creating them failed: " + errno.Error() + ": " + by
		}
		return "creating them failed: " + errno.Error()
	case unix.ENOSPC: // not a full disk
		return "creating them failed with ENOSPC: the kernel's limit user.max_user_namespaces is 0 or used up"
	case unix.EUSERS:
		return "creating them failed with EUSERS: user namespaces nest at most 32 deep"
	case unix.EINVAL: // the kernel's answer to an unknown CLONE_NEWUSER
		return noUserNSKernel
	case unix.EACCES, unix.EROFS:
		return "creating them failed: " + errno.Error()
	}
	return ""
}
