package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/omega-run/omega-run/profiles"
)

// Explanation is the effective policy, as omega-run explain shows it.
type Explanation struct {
	// Inside is the mode of the omega-run sandbox explain itself runs in
	// (OMEGA_SANDBOX, backed by no_new_privs), if any: what follows is
	// what a launch from there would add, not that confinement.
	Inside  Mode   `json:"inside,omitempty"`
	Mode    Mode   `json:"mode"`
	OS      string `json:"os"`
	DataDir string `json:"data_dir"`
	// Program is the resolved program, when one was given.
	Program string   `json:"program,omitempty"`
	Args    []string `json:"args,omitempty"`
	// Writable lists the roots the program may write below (/tmp and
	// /dev/shm included; "/" in rwx).
	Writable []string `json:"writable"`
	// Workdir is the program's working directory; WorkdirWritable says
	// whether the program may write in it, WorkdirFix how to let it (none
	// for home or what holds it).
	Workdir         string `json:"workdir"`
	WorkdirWritable bool   `json:"workdir_writable"`
	WorkdirFix      string `json:"workdir_fix,omitempty"`
	// PrivateTmp is where the sandbox's own /tmp is kept, when it has one.
	PrivateTmp string  `json:"private_tmp,omitempty"`
	Network    Network `json:"network"`
	// Namespaces lists the namespaces a launch creates; none in rx and
	// rwx, or where user namespaces are unavailable.
	Namespaces []string `json:"namespaces"`
	// Landlock is the ruleset: the kernel's ABI, the trees readable and
	// executable, the device files writable, the rights enforced.
	Landlock struct {
		ABI      int      `json:"abi"`
		ReadExec []string `json:"read_exec"`
		Devices  []string `json:"devices"`
		Rights   []string `json:"rights"`
		DenyTCP  bool     `json:"deny_tcp"`
		// LogDenials: the kernel's audit log records what Landlock denies.
		LogDenials bool `json:"log_denials,omitempty"`
	} `json:"landlock"`
	// Hidden are the paths sandbox mode masks (credential stores, --hide,
	// host sockets outside /run and /tmp), ReadOnly the files and trees
	// kept read-only inside writable roots (config files, .git/config and
	// hooks, .envrc, --read-only).
	Hidden   []string `json:"hidden,omitempty"`
	ReadOnly []string `json:"read_only,omitempty"`
	// UnixSockets says what keeps the program from host unix sockets;
	// AllowedSockets are the ones it may reach on purpose (--allow-socket).
	UnixSockets    string   `json:"unix_sockets,omitempty"`
	AllowedSockets []string `json:"allowed_sockets,omitempty"`
	// PreservedFDs counts the fds from 3 on passed to the program.
	PreservedFDs int `json:"preserved_fds,omitempty"`
	// Service says what a service manager gave the launcher that it
	// passes on (socket activation, readiness).
	Service []string `json:"service,omitempty"`
	// Seccomp is the profile's name or file; SeccompRules its rules in
	// full, the launch's own guards included.
	Seccomp      string `json:"seccomp"`
	SeccompRules string `json:"seccomp_rules,omitempty"`
	// SeccompSummary is SeccompRules in a few lines, for explain's
	// default text; JSON has the rules in full.
	SeccompSummary string `json:"-"`
	// Env is what omega-run sets in the program's environment.
	Env []string `json:"env"`
	// Sources says where each setting came from (flag, env, config FILE,
	// default); the CLI fills it in.
	Sources []string `json:"sources,omitempty"`
	// RefusedState names, per well-known tool (claude, codex, gemini, git, npm, pip, go, cargo, mvn),
	// where it keeps state that this policy will not let it write.
	RefusedState []string `json:"refused_state,omitempty"`
	// Warnings are the fallbacks and gaps that would apply here.
	Warnings []string `json:"warnings,omitempty"`
}

// Explain describes what running program under o would enforce, and
// refuses what a launch would refuse, without running the program or
// creating anything (in sandbox mode it starts the init stage once, as
// Check does, to see whether user namespaces work). program may be empty.
func (o Options) Explain(program string, args ...string) (Explanation, error) {
	pol, err := o.Policy()
	if err != nil {
		return Explanation{}, launcherErr(err)
	}
	// What a launch would refuse, explain refuses too.
	checked, err := o.validate(pol)
	if err != nil {
		return Explanation{}, launcherErr(err)
	}
	e := Explanation{
		Mode: pol.Mode, DataDir: pol.DataDir, Writable: pol.Writable,
		Network: pol.Net, Seccomp: pol.Seccomp, Env: programEnv(pol),
		AllowedSockets: pol.AllowSocket, PreservedFDs: o.PreserveFDs + len(o.ExtraFiles), Service: o.Process.service(),
	}
	if program != "" {
		// Explaining runs nothing, so a missing program is worth a
		// warning, not a failure: the policy is the same either way.
		path, err := resolveProgram(program, o.lookup())
		if err != nil {
			path = program
			e.Warnings = append(e.Warnings, "the program would not start: "+err.Error())
		}
		e.Program, e.Args = path, args
		e.Env = append(e.Env, syncEnv(pol, path, args, o.Process)...)
	}
	e.Workdir = o.workdir()
	if e.WorkdirWritable = workdirWritable(pol, realPath(e.Workdir), realPath); !e.WorkdirWritable {
		e.WorkdirFix = workdirFix(pol, e.Workdir, o.Workdir != "", realPath)
	}
	if pol.Mode == profiles.ModeRWX {
		e.OS = runtime.GOOS
		e.Writable, e.Seccomp = []string{"/"}, profiles.SeccompNone
		return e, nil
	}
	if w := homeWritableWarning(pol, realPath); w != "" {
		e.Warnings = append(e.Warnings, w)
	}
	if w := pathWritableWarning(pol, os.Getenv("PATH"), e.Workdir, realPath); w != "" {
		e.Warnings = append(e.Warnings, w)
	}
	for i := range profiles.Programs {
		prog, path, progArgs := &profiles.Programs[i], "", []string(nil)
		if p := profiles.ProgramFor(e.Program); p != nil && p.Name == prog.Name {
			path, progArgs = e.Program, args // pip in a virtualenv, mvn -Dmaven.repo.local
		}
		if w := stateWarning(pol, prog, path, progArgs, e.Workdir, o.Process.getenv); w != "" {
			e.RefusedState = append(e.RefusedState, w)
		}
	}
	return explainPlatform(o, pol, checked.seccompProfile, e)
}

// syncEnv is what a launch of path adds for a tool's synced state: the
// tool's, or, in a shell a person types into, Claude Code's and the
// sandbox's own HISTFILE (Linux: the sync is Linux's; macOS leaves the
// environment as it is).
func syncEnv(pol profiles.Policy, path string, args []string, proc Process) []string {
	if pol.Mode == profiles.ModeRWX || runtime.GOOS != "linux" {
		return nil
	}
	var hist []string
	prog := profiles.ProgramFor(path)
	if prog == nil && shellSession(path, args) {
		prog = profiles.SessionSync()
		hist, _ = historyEnv(pol, path, args, proc)
	}
	if prog == nil || len(prog.Sync) == 0 {
		return hist
	}
	env, _ := toolEnv(prog, pol.Home, proc.SetEnv)
	return append(hist, env...)
}

// toolEnv is what a launch of a well-known tool whose state is synced
// adds to its environment (Claude Code's CLAUDE_CONFIG_DIR); ok is false
// when the caller set one of those variables: the user placed the state
// themselves, and there is nothing to sync.
func toolEnv(prog *profiles.Program, home string, setEnv []string) (env []string, ok bool) {
	for k, rel := range prog.SetEnv {
		if _, set := os.LookupEnv(k); set || hasEnvKey(setEnv, k) {
			return nil, false
		}
		env = append(env, k+"="+filepath.Join(home, rel))
	}
	slices.Sort(env)
	return env, true
}

// programEnv is what omega-run adds to the program's environment.
func programEnv(p profiles.Policy) []string {
	env := []string{"OMEGA_SANDBOX=" + string(p.Mode)}
	if p.Net == profiles.NetNone {
		env = append(env, "OMEGA_SANDBOX_NETWORK_DISABLED=1")
	}
	return env
}
