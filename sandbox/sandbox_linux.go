package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// command builds the unstarted command for the library API.
func command(ctx context.Context, p *plan) (*exec.Cmd, error) {
	p.blockedSignals = uint64(nsexec.BlockedAtStart())
	if p.policy.Mode == ModeRWX && !p.needsInitStage() {
		return plainCommand(ctx, p), nil
	}
	if !nsexec.CInit && !initCalled.Load() {
		return nil, errNoInit
	}
	// rwx: ids, limits and the environment edits are the init stage's
	// to apply, as for the CLI's rwx (plainSpec); it confines nothing.
	var spec *nsexec.Spec
	var ns nsexec.Namespaces
	if p.policy.Mode == ModeRWX {
		spec = plainSpec(p)
	} else {
		var err error
		if spec, ns, err = specAndNamespaces(p); err != nil {
			return nil, err
		}
	}
	if err := limitCommand(p, spec, ns); err != nil {
		return nil, err
	}
	for _, n := range p.nsNotes {
		logrus.Warn(n)
	}
	cmd, err := initCommand(ctx, spec, ns, p.workdir, p.extraFiles)
	if err == nil && !p.cgroup.IsZero() {
		registerLimits(cmd, p.cgroup)
	}
	return cmd, err
}

func initCommand(ctx context.Context, spec *nsexec.Spec, ns nsexec.Namespaces, workdir string, extra []*os.File) (*exec.Cmd, error) {
	cmd, err := nsexec.Command(ctx, spec, ns, extra...)
	if err != nil {
		return nil, err
	}
	cmd.Dir = workdir
	return cmd, nil
}

// needsInitStage: rwx has Process settings or preserved fds that a plain
// exec.Cmd would drop, or cgroup limits, which wait for the go-ahead.
func (p *plan) needsInitStage() bool {
	q := p.process
	return p.ids != nil || len(p.limits) > 0 || p.preserveFDs > 0 || !p.cgroup.IsZero() || q.ClearEnv || len(q.SetEnv) > 0 ||
		len(q.UnsetEnv) > 0 || q.ListenPID || q.WatchdogPID
}

func specAndNamespaces(p *plan) (*nsexec.Spec, nsexec.Namespaces, error) {
	cause := ""
	if p.policy.Mode == ModeSandbox {
		cause = usernsUnavailable()
	}
	return specWith(p, cause)
}

// specWith is the spec and namespaces of p's launch; cause says why user
// namespaces are unavailable, "" when they are expected to work.
func specWith(p *plan, cause string) (*nsexec.Spec, nsexec.Namespaces, error) {
	canon, err := canonicalRoots(p.policy, p.roots)
	if err != nil {
		return nil, nsexec.Namespaces{}, err
	}
	spec, warnings, err := buildSpec(p, canon, p.explicitSeccomp, p.policy.Mode == ModeSandbox && cause == "")
	if err != nil {
		return nil, nsexec.Namespaces{}, err
	}
	if tmp, ok := canon[p.policy.PrivateTmp()]; ok && p.policy.Mode == ModeSandbox {
		w, err := privateTmpMode(tmp, p.programUID())
		if err != nil {
			return nil, nsexec.Namespaces{}, err
		}
		if w != "" && cause == "" { // the fallback's /tmp is the host's
			warnings = append(warnings, w)
		}
	}
	logGrantWarnings(p, canon)
	ns := nsexec.Namespaces{}
	if p.policy.Mode == ModeSandbox {
		var mwarn []string
		if ns, mwarn, err = sandboxMounts(p, spec, canon, cause); err != nil {
			return nil, ns, err
		}
		warnings = append(warnings, mwarn...)
	}
	mounts := p.policy.Mode == ModeSandbox && cause == ""
	logWorkdirWarning(p, spec, mounts)
	if mounts {
		// The fallback found at the clone says none of them (sayPending).
		p.nsOnly = append(p.nsOnly, slices.DeleteFunc(slices.Clone(warnings), func(w string) bool { return !withMountsOnly(w) })...)
	}
	pw := policyWarnings(p.policy, mounts, landlock.EffectiveABI(), p.programUID(), p.limits)
	warnings = append(warnings, pw...)
	if mounts {
		p.nsOnly = append(p.nsOnly, pw...) // the fallback says its own
	}
	if p.deferWarnings {
		p.pending = warnings
		return spec, ns, nil
	}
	if err := report(p.policy, warnings); err != nil {
		return nil, ns, err
	}
	logLaunch(p, ns.Enabled)
	return spec, ns, nil
}

// sandboxMounts adds sandbox mode's mount plan to spec and returns the
// namespaces to create (none when cause says user namespaces are
// unavailable) and the warnings that go through report.
func sandboxMounts(p *plan, spec *nsexec.Spec, canon map[string]string, cause string) (nsexec.Namespaces, []string, error) {
	ns := nsexec.Namespaces{}
	plan, scan, warnings, err := mountPlan(p.policy, canon, launchWorkdir(p), p.programUID())
	if err != nil {
		return ns, nil, err
	}
	p.gitScan = scan
	others := slices.DeleteFunc(slices.Clone(warnings), func(w string) bool { return !otherSockets(w) })
	kept := slices.DeleteFunc(slices.Clone(warnings), func(w string) bool { return !keptWorkdir(w) })
	warnings = slices.DeleteFunc(warnings, func(w string) bool { return otherSockets(w) || keptWorkdir(w) })
	if err := visibleWorkdir(p, plan); err != nil {
		return ns, nil, err
	}
	spec.Mounts = plan
	// Refused mounts leave Landlock alone, as in rx (tmpdirEnv).
	plan.TmpdirIfRefused = tmpdirEnv(p, false) != nil
	spec.Unsetenv = append(spec.Unsetenv, droppedEnv(p.policy)...)
	if cause != "" {
		if plan.Required {
			return ns, nil, launcherErr(requiredMounts(cause))
		}
		warnings = slices.DeleteFunc(warnings, withMountsOnly)
		warnings = append(warnings, usernsWarning(cause, p.policy), notHidden(plan))
		if p.pty { // the program's own terminal does not keep it from the caller's (TestPtyFallbackSaid)
			warnings = append(warnings, ptyFallback())
		}
		return ns, warnings, nil
	}
	// Said once the namespaces exist: without them (the
	// fallback) /tmp and /run are the host's and the grant holds, and
	// no socket is masked.
	moved := envHidden(p.policy, launchWorkdir(p))
	p.nsNotes = slices.Concat(p.nsNotes, ownDirWarnings(p.policy, moved), socketWarnings(p.policy, moved, plan.TmpFrom != ""), others)
	if stderrTerminal() { // usability, not enforcement: an agent's every command from /tmp is not told
		p.nsNotes = append(p.nsNotes, kept...) // nor is it a --fail-closed error
		if n := ownWorkdirNote(plan, realPath(launchWorkdir(p)), p.policy.PrivateTmp()); n != "" {
			p.nsNotes = append(p.nsNotes, n)
		}
	}
	ns = sandboxNamespaces(p)
	spec.UserCounts = true // in the user namespace the init stage owns
	// The built-in profiles refuse keyctl to the program.
	spec.OwnKeyring = spec.Seccomp == nil || (p.policy.Seccomp != profiles.SeccompDefault && p.policy.Seccomp != profiles.SeccompStrict)
	broker, bwarn := connectBroker(spec, p.policy)
	spec.Broker = broker
	if bwarn != "" {
		warnings = append(warnings, bwarn)
		p.nsOnly = append(p.nsOnly, bwarn)
	}
	return ns, warnings, nil
}

// logLaunch is the launch's one line at --log-level info: what an
// operator checks in a service's log.
func logLaunch(p *plan, namespaces bool) {
	if !logrus.IsLevelEnabled(logrus.InfoLevel) {
		return // no fields computed on a launch that prints nothing
	}
	logrus.WithFields(logrus.Fields{
		"mode": string(p.policy.Mode), "program": p.path, "pid": os.Getpid(), "uid": p.programUID(),
		"writable": strings.Join(p.policy.Writable, ":"), "net": string(p.policy.Net), "seccomp": p.policy.Seccomp,
		"namespaces": namespaces, "limits": p.cgroup.String(),
	}).Info("launching")
}

func sandboxNamespaces(p *plan) nsexec.Namespaces {
	return nsexec.Namespaces{Enabled: true, Net: p.policy.Net == profiles.NetNone}
}

// Run is the CLI's entry point: rwx and rx replace this process with the
// program and return only on failure; sandbox runs it in the init stage,
// forwards signals, and returns its exit status. It changes this
// process's working directory to Workdir for good, and catches the
// forwarded signals (SIGTERM, SIGINT, …) while the program runs: a
// program that runs several commands uses CommandContext. In rx, where it
// stays the parent (state sync, cgroup limits, a root program's readiness
// relay; rx refuses PTY), processes the program leaves are not ended:
// RunAndExit (the CLI) ends them, as their subreaper, which would take an
// embedder's other children too.
func (o Options) Run(program string, args ...string) (int, error) {
	if err := o.refuseExtraFiles(); err != nil {
		return 0, err
	}
	p, err := o.prepare(program, args)
	if err != nil {
		return 0, err
	}
	if p.policy.Mode != ModeRWX && !nsexec.CInit && !initCalled.Load() {
		return 0, launcherErr(errNoInit)
	}
	p.ignoredSignals = uint64(nsexec.IgnoredAtStart())
	p.blockedSignals = uint64(nsexec.BlockedAtStart())
	if p.workdir != "" {
		if err := os.Chdir(p.workdir); err != nil {
			return 0, launcherErr(err)
		}
		p.workdir, p.changedDir = "", true
	}
	if p.policy.Mode == ModeRWX {
		return 0, runRWX(p)
	}
	if nsexec.CapsetKills() {
		return 0, launcherErr(errCapsetKills)
	}
	if p.pty {
		if p.term, err = openPTY(); err != nil {
			return 0, launcherErr(err)
		}
		defer p.term.close() // the terminal's settings back on every way out
	}
	cause := ""
	if p.policy.Mode == ModeSandbox {
		// A ready early start has answered what usernsUnavailable asks:
		// it made the namespaces, and wrote the id maps through a /proc
		// it checked as this pid namespace's (nsexec/cinit_early.c).
		if !nsexec.PrestartReady() {
			cause = usernsUnavailable()
		}
		if cause == "" {
			if err := initPids(p.cgroup.Pids, true); err != nil {
				return 0, launcherErr(err)
			}
			// The init stage starts now; the spec follows when ready, its
			// warnings once the start shows which launch runs.
			p.deferWarnings = true
			return runSupervised(p, sandboxNamespaces(p), specLater(p))
		}
	}
	spec, ns, err := specWith(p, cause)
	if err != nil {
		return 0, launcherErr(err)
	}
	if err := initPids(p.cgroup.Pids, ns.Enabled); err != nil {
		return 0, launcherErr(err)
	}
	syncs, err := programState(p, spec)
	if err != nil {
		return 0, launcherErr(err)
	}
	if !ns.Enabled && syncs == nil && p.cgroup.IsZero() && p.term == nil && !p.relayForRoot() {
		// Nothing after the run: Claude Code's settings go unchecked
		// (README), as rx's exec in place is kept.
		return 0, inPlace(spec)
	}
	p.claude = watchClaudeFor(p)
	p.gitScan.watchedElsewhere(p.claude)
	return runSupervised(p, ns, ready(spec, syncs))
}

// runRWX replaces this process with the program, plainly.
func runRWX(p *plan) error {
	if w := nprocRootWarning(p.limits, p.programUID()); w != "" {
		logrus.Warn(w) // rwx refuses --fail-closed
	}
	logLaunch(p, false)
	return inPlace(plainSpec(p))
}

// specLater computes the spec and copies the program's state in, while
// the init stage starts (runSupervised).
func specLater(p *plan) prepareFunc {
	return func() (*nsexec.Spec, []*stateSync, error) {
		spec, _, err := specWith(p, "")
		if err != nil {
			return nil, nil, err
		}
		p.claude = watchClaudeFor(p)
		p.gitScan.watchedElsewhere(p.claude)
		syncs, err := programState(p, spec)
		return spec, syncs, err
	}
}

func inPlace(spec *nsexec.Spec) error {
	err := nsexec.ExecInPlace(spec)
	var ee *nsexec.ExecError
	if errors.As(err, &ee) {
		return &Error{Code: ee.Code, Err: err}
	}
	return launcherErr(err)
}

// plainSpec is rwx: the program with its ids, limits and environment, and
// no confinement.
func plainSpec(p *plan) *nsexec.Spec {
	return &nsexec.Spec{
		Path: p.path, Argv: p.argv, Plain: true, KeepFDs: p.keptFDs(), Limits: p.limits,
		Env:      append(p.setEnv(), programEnv(p.policy)...),
		ClearEnv: p.process.ClearEnv, Unsetenv: p.process.UnsetEnv, User: p.credentials(),
		IgnoredSignals: nsexec.SignalSet(p.ignoredSignals), BlockedSignals: nsexec.SignalSet(p.blockedSignals),
		ListenPID: p.process.ListenPID, WatchdogPID: p.process.WatchdogPID,
	}
}

// visibleWorkdir refuses a working directory the sandbox hides: the
// program would start in the host directory itself (its cwd survives
// the mounts), holding the very store the mask is there to hide.
func visibleWorkdir(p *plan, m *nsexec.MountPlan) error {
	wd := launchWorkdir(p)
	// By its real path too: a cd through a symlink into ~/.ssh names it
	// otherwise (the init stages check the kernel's path again).
	real, _ := filepath.EvalSymlinks(wd)
	for _, h := range m.HideDirs {
		for _, d := range []string{wd, real} {
			if d != "" && profiles.Within(d, h) {
				return fmt.Errorf("working directory %s is inside %s, which the sandbox hides: run from another directory (or give --workdir)", wd, h)
			}
		}
	}
	return nil
}

// Start starts cmd (from Command or CommandContext) with the signals that
// PID 1 forwards held until it can take them, and closes the spec's fd in
// this process. In sandbox mode a signal sent (cmd.Process.Signal) in the
// first milliseconds, before PID 1 of the new pid namespace has its
// handlers, is otherwise dropped by the kernel. Cancelling the context
// kills the same processes either way: the whole tree in sandbox mode,
// the program alone in rx and rwx.
func Start(cmd *exec.Cmd) error {
	if cmd.Process != nil {
		// As cmd.Start says it, before the checks below, which a started
		// command's closed spec and forgotten files would fail.
		return errors.New("exec: already started")
	}
	if cmd.Path != "/proc/self/exe" || len(cmd.Args) < 2 || cmd.Args[1] != InitArg {
		if err := checkDir(cmd.Dir); err != nil {
			return err
		}
		return cmd.Start() // rwx's plain command (plainCommand): its program must not start with signals blocked
	}
	if len(cmd.ExtraFiles) == 0 || !nsexec.IsSpec(cmd.ExtraFiles[0]) {
		return &Error{Code: ExitLauncher, Err: errors.New("cmd.ExtraFiles was replaced, and with it the spec it carries " +
			"first: pass files as Options.ExtraFiles instead")}
	}
	// The spec (nsexec.Command's memfd) is the child's once started, and
	// of no use once refused: closed now, not when the garbage collector
	// gets to it.
	defer cmd.ExtraFiles[0].Close()
	if err := checkDir(cmd.Dir); err != nil {
		return err
	}
	if !nsexec.OwnFiles(cmd) {
		// The init stage closes them before the program runs.
		return &Error{Code: ExitLauncher, Err: errors.New(nsexec.AppendedFilesHint)}
	}
	if l, ok := takeLimits(cmd); ok {
		return startLimited(cmd, l)
	}
	return nsexec.StartFailure(cmd, nsexec.StartBlocked(cmd.Start))
}
