package sandbox

import (
	"os"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// programState applies a well-known tool's profile: it warns about state
// the policy will refuse, and for tools whose state file needs syncing
// (Claude Code) sets their environment and copies the state in. A non-nil
// result means omega-run must stay as the parent to copy it back.
func programState(p *plan, spec *nsexec.Spec) ([]*stateSync, error) {
	prog := profiles.ProgramFor(p.path)
	if prog == nil && shellSession(p.path, p.argv[1:]) {
		spec.Env = append(shellHistory(p), spec.Env...)
		// A person's shell: claude is as likely to be started in it.
		return syncState(p, spec, profiles.SessionSync())
	}
	if prog == nil {
		return nil, nil
	}
	// State written by hand (git's) is not warned about on every
	// scripted `omega-run -- git status`, only on a terminal; nor is
	// any for a command that writes none (pip --version).
	if w := stateWarning(p.policy, prog, p.path, p.argv[1:], launchWorkdir(p), p.process.getenv); w != "" && (!prog.ByHand || stderrTerminal()) && prog.WritesState(p.argv[1:]) {
		logrus.Warn(w)
	}
	if prog.Name == "claude" {
		cwd, _ := os.Getwd()
		if w := claudeSandboxWarning(p.policy, p.argv[1:], p.process.getenv, cwd); w != "" {
			logrus.Warn(w)
		}
	}
	return syncState(p, spec, prog)
}

// syncState sets prog's environment for its synced state and copies the
// state in (nothing when prog has none, or the user placed it).
func syncState(p *plan, spec *nsexec.Spec, prog *profiles.Program) ([]*stateSync, error) {
	if prog == nil || len(prog.Sync) == 0 {
		return nil, nil
	}
	env, ok := toolEnv(prog, p.policy.Home, p.process.SetEnv)
	if !ok {
		return nil, nil // the user placed the state themselves
	}
	spec.Env = append(env, spec.Env...)
	return syncInUntil(p.waitSignals, p.policy.Home, p.policy.Writable, prog, p.policy.Hide...)
}
