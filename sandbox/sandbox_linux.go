package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// InitArg is argv[1] of the re-executed init stage.
const InitArg = nsexec.InitArg

// Init must be the first statement of main in any binary that uses this
// package on Linux. It returns at once unless this process is the init
// stage, which never returns.
func Init() {
	if len(os.Args) > 1 && os.Args[1] == InitArg {
		nsexec.Init()
	}
}

// command builds the unstarted command for the library API.
func command(ctx context.Context, p *plan) (*exec.Cmd, error) {
	if p.policy.Mode == ModeRWX {
		return plainCommand(ctx, p), nil
	}
	spec, ns, err := specAndNamespaces(p)
	if err != nil {
		return nil, err
	}
	cmd, err := nsexec.Command(ctx, spec, ns)
	if err != nil {
		return nil, err
	}
	cmd.Dir = p.workdir
	return cmd, nil
}

func specAndNamespaces(p *plan) (*nsexec.Spec, nsexec.Namespaces, error) {
	spec, warnings, err := buildSpec(p, p.explicitSeccomp)
	if err != nil {
		return nil, nsexec.Namespaces{}, err
	}
	ns := nsexec.Namespaces{}
	if p.policy.Mode == ModeSandbox {
		plan, mwarn := mountPlan(p.policy)
		spec.Mounts = plan
		spec.Unsetenv = append(spec.Unsetenv, droppedEnv(p.policy)...)
		warnings = append(warnings, mwarn...)
		if cause := usernsUnavailable(); cause != "" {
			warnings = append(warnings, usernsWarning(cause), notHidden(plan))
		} else {
			ns = nsexec.Namespaces{Enabled: true, Net: p.policy.Net == profiles.NetNone}
			broker, bwarn := connectBroker(spec, p.policy)
			spec.Broker = broker
			if bwarn != "" {
				warnings = append(warnings, bwarn)
			}
		}
	}
	if err := report(p.policy, warnings); err != nil {
		return nil, ns, err
	}
	return spec, ns, nil
}

// Run is the CLI's entry point: rwx and rx replace this process with the
// program and return only on failure; sandbox runs it in the init stage,
// forwards signals, and returns its exit status.
func (o Options) Run(program string, args ...string) (int, error) {
	p, err := o.prepare(program, args)
	if err != nil {
		return 0, err
	}
	if p.workdir != "" {
		if err := os.Chdir(p.workdir); err != nil {
			return 0, launcherErr(err)
		}
		p.workdir = ""
	}
	if p.policy.Mode == ModeRWX {
		return 0, inPlace(plainSpec(p))
	}
	spec, ns, err := specAndNamespaces(p)
	if err != nil {
		return 0, launcherErr(err)
	}
	syncs, err := programState(p, spec)
	if err != nil {
		return 0, launcherErr(err)
	}
	if !ns.Enabled && syncs == nil && p.cgroup.IsZero() {
		return 0, inPlace(spec)
	}
	status, err := runSupervised(p, spec, ns, syncs != nil)
	for _, st := range syncs {
		if warning, serr := st.syncOut(); serr != nil {
			logrus.Warn(serr.Error())
		} else if warning != "" {
			logrus.Warn(warning)
		}
	}
	return status, err
}

// programState applies a well-known tool's profile: it warns about state
// the policy will refuse, and for tools whose state file needs syncing
// (Claude Code) sets their environment and copies the state in. A non-nil
// result means omega-run must stay as the parent to copy it back.
func programState(p *plan, spec *nsexec.Spec) ([]*stateSync, error) {
	prog := profiles.ProgramFor(p.path)
	if prog == nil {
		return nil, nil
	}
	if w := stateWarning(p.policy, prog); w != "" {
		logrus.Warn(w)
	}
	if len(prog.Sync) == 0 {
		return nil, nil
	}
	var env []string
	for k, rel := range prog.SetEnv {
		if _, set := os.LookupEnv(k); set || hasEnvKey(p.process.SetEnv, k) {
			return nil, nil // the user placed the state themselves
		}
		env = append(env, k+"="+filepath.Join(p.policy.Home, rel))
	}
	spec.Env = append(env, spec.Env...)
	return syncIn(p.policy.Home, prog)
}

func hasEnvKey(env []string, key string) bool {
	return slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, key+"=") })
}

func inPlace(spec *nsexec.Spec) error {
	err := nsexec.ExecInPlace(spec)
	var ee *nsexec.ExecError
	if errors.As(err, &ee) {
		return &Error{Code: ee.Code, Err: err}
	}
	return launcherErr(err)
}

// runSupervised starts the init stage as a child, forwards signals and
// waits. mustWait keeps omega-run as the parent even when namespaces fail.
func runSupervised(p *plan, spec *nsexec.Spec, ns nsexec.Namespaces, mustWait bool) (int, error) {
	cg, err := newCgroup(p, spec, ns)
	if err != nil {
		return 0, launcherErr(err)
	}
	defer func() { cg.finish() }()
	cmd, err := nsexec.Command(context.Background(), spec, ns)
	if err != nil {
		return 0, launcherErr(err)
	}
	if cg != nil {
		if err := cg.place(cmd, ns); err != nil {
			return 0, launcherErr(err)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := forwardedSignals(p)
	defer func() {
		// With nothing left to do but exit, a signal that comes now is
		// dropped, as one that comes while the program exits always was.
		if !p.exitAfterRun || mustWait || cg != nil {
			sigs.stop()
		}
	}()
	proc, err := startChild(cmd)
	if err != nil {
		sigs.stop()
		if cause := cloneFailure(err); cause != "" && !p.policy.FailClosed {
			if err := report(p.policy, []string{usernsWarning(cause)}); err != nil {
				return 0, launcherErr(err)
			}
			if mustWait || cg != nil {
				cg.finish()
				cg = nil
				return runSupervised(p, spec, nsexec.Namespaces{}, true)
			}
			return 0, inPlace(spec)
		}
		return 0, launcherErr(err)
	}
	cmd.ExtraFiles[0].Close()
	if cg != nil {
		if err := cg.started(proc.pid); err != nil {
			proc.kill()
			_, _ = proc.wait()
			return 0, launcherErr(err)
		}
	}
	go forwardSignals(sigs.C(), proc)
	ws, err := proc.wait()
	if err != nil {
		return 0, launcherErr(err)
	}
	return nsexec.ExitStatus(ws), nil
}

// cloneFailure tells whether Start failed because user namespaces are
// refused (disabled, exhausted, or an LSM said no), and why.
func cloneFailure(err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return ""
	}
	switch errno {
	case unix.EPERM, unix.EACCES, unix.ENOSPC, unix.EUSERS, unix.EINVAL:
		return "creating them failed: " + errno.Error()
	}
	return ""
}

// plainSpec is rwx: the program with its ids, limits and environment, and
// no confinement.
func plainSpec(p *plan) *nsexec.Spec {
	return &nsexec.Spec{
		Path: p.path, Argv: p.argv, Plain: true, KeepFDs: p.preserveFDs, Limits: p.limits,
		Env:      append(slices.Clone(p.process.SetEnv), programEnv(p.policy)...),
		ClearEnv: p.process.ClearEnv, Unsetenv: p.process.UnsetEnv, User: p.credentials(),
	}
}
