package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

// Options is everything the CLI can set. The zero value is the default
// sandbox with the data dir in ~/.omega.
type Options struct {
	// Mode is the confinement; "" means ModeSandbox.
	Mode Mode
	// DataDir is the writable data dir; "" means Home/.omega.
	DataDir string
	// Home is the invoking user's home; "" means $HOME, else the user
	// database.
	Home string
	// AllowWrite adds writable roots; each must be an existing directory.
	AllowWrite []string
	// Hide adds paths that sandbox mode hides, like the credential stores.
	Hide []string
	// ReadOnly keeps subtrees of writable roots read-only (sandbox mode).
	ReadOnly []string
	// AllowSocket exposes unix sockets the sandbox would hide.
	AllowSocket []string
	// WritableGitConfig leaves .git/hooks and .git/config writable.
	WritableGitConfig bool
	// PreserveFDs passes fds 3…3+N-1 on to the program.
	PreserveFDs int
	// ExtraFiles are passed to the program after the preserved fds, as
	// fds 3+PreserveFDs, 4+PreserveFDs, …, like exec.Cmd.ExtraFiles: the
	// returned command's own ExtraFiles carry the launch and must not be
	// changed. A program embedding this package has no fds 3 and up of
	// its own to preserve (the Go runtime holds some). Only
	// CommandContext takes them.
	ExtraFiles []*os.File
	// Workdir is the program's working directory; "" keeps the caller's.
	Workdir string
	// Net is NetHost or NetNone; "" means NetHost.
	Net Network
	// Seccomp is a built-in profile name ("default", "strict", "none") or
	// the path of a Docker/OCI JSON profile; "" means "default".
	Seccomp string
	// FailClosed turns every "not enforced" warning into an error.
	FailClosed bool
	// LogDenials has the kernel's audit log record what Landlock denies
	// the program (Landlock ABI 7; audit must be enabled).
	LogDenials bool
	// Config is a config file the caller read besides <data-dir>/config.toml;
	// sandbox mode keeps it read-only like that one (Policy.ConfigFiles).
	Config string
	// Process is what the program runs as and with.
	Process Process
	// PTY gives the program a pseudo-terminal of its own in place of the
	// caller's terminal, relayed by Run (sandbox mode; nothing changes
	// when none of stdin, stdout and stderr is a terminal).
	PTY bool
	// exitAfterRun: see RunAndExit.
	exitAfterRun bool
	// command: CommandContext's, whose caller outlives the program.
	command bool
}

// plan is a validated request: the policy plus the resolved program.
type plan struct {
	policy  profiles.Policy
	path    string   // resolved program
	argv    []string // argv[0] as the user typed it
	workdir string
	// changedDir: Run moved this process to workdir.
	changedDir bool
	// pwd is the absolute --workdir ("" without one), for PWD.
	pwd string
	// explicitSeccomp is set when the caller named a profile, which then
	// must be enforced.
	explicitSeccomp bool
	// seccompProfile is the profile file validate read (nil: none read).
	seccompProfile *seccomp.Profile
	preserveFDs    int
	extraFiles     []*os.File
	// stdioLater: CommandContext's caller sets the program's stdio
	// after the spec is built (handsHostSocket).
	stdioLater   bool
	process      Process
	ids          *ids
	limits       []rlimits.Limit
	cgroup       cgroups.Limits
	exitAfterRun bool
	// waitSignals are the launch's caught signals while it prepares:
	// a wait for the state lock ends on a terminating one (lockWaiter).
	waitSignals chan os.Signal
	// pty: Options.PTY; term is its pseudo-terminal once open (nil: none).
	pty  bool
	term *ptyRelay
	// ignoredSignals (Linux: an nsexec.SignalSet) are the signals this
	// process started with ignored, which Run passes on to the program as
	// an exec in place does; Command leaves it empty, as exec.Cmd would.
	ignoredSignals uint64
	// blockedSignals (Linux: an nsexec.SignalSet) is the signal mask
	// this process started with, the program's as it starts (Run and
	// Command alike: an exec.Cmd's child gets its thread's mask, which the
	// Go runtime derives from it).
	blockedSignals uint64
	// roots are the writable roots checkPlanted resolved.
	roots map[string]string
	// gitScan is sandbox mode's look at the repositories below the
	// writable set, compared after the run (runslater_linux.go).
	gitScan *gitScan
	// claude is Claude Code's settings before the run, compared after
	// it where omega-run stays as the parent (claudewatch.go).
	claude *claudeWatch
	// nsNotes are warnings true only once the namespaces exist, said
	// when they do; fallbackNotes, only without them, said by the
	// fallback found at the clone.
	nsNotes, fallbackNotes []string
	// deferWarnings: specWith leaves its warnings in pending, for a
	// launch whose init stage starts before its spec is ready to say
	// once the start shows whether the namespaces are there; nsOnly are
	// those of pending that hold only with them (sayPending).
	deferWarnings   bool
	pending, nsOnly []string
}

// CommandContext returns an unstarted command running program under o.
// Start it with Start (Linux, sandbox mode: signals sent at once are not
// lost). With cgroup limits (Process.Memory, Pids, CPUs; Linux) Start
// puts the command's whole tree in a cgroup of its own, which goes when
// the command's process exits, and the command runs only when started
// with Start; Wait also waits for the group's removal and reports an
// OOM kill.
func (o Options) CommandContext(ctx context.Context, program string, args ...string) (*exec.Cmd, error) {
	if o.PTY {
		return nil, launcherErr(errors.New("PTY needs Options.Run, which relays the pseudo-terminal; with CommandContext the caller sets the command's stdio"))
	}
	o.command = true
	p, err := o.prepare(program, args)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "linux" && !p.cgroup.IsZero() {
		return nil, launcherErr(cgroups.Probe(p.cgroup))
	}
	p.stdioLater = true
	cmd, err := command(ctx, p)
	return cmd, launcherErr(err)
}

// Policy returns the policy o stands for, without touching the disk.
func (o Options) Policy() (profiles.Policy, error) {
	if o.Mode == "" {
		o.Mode = ModeSandbox
	}
	home, err := o.home()
	if err != nil {
		return profiles.Policy{}, err
	}
	if err := o.checkUnexpanded(home); err != nil {
		return profiles.Policy{}, err
	}
	dataDir, err := absFrom(o.workdir(), o.DataDir)
	if err != nil {
		return profiles.Policy{}, err
	}
	in := profiles.Policy{
		Mode: o.Mode, DataDir: dataDir, Home: home, Net: o.Net,
		Seccomp: o.Seccomp, FailClosed: o.FailClosed, WritableGitConfig: o.WritableGitConfig, LogDenials: o.LogDenials,
		AllowWrite: o.absAll(o.AllowWrite), Hide: o.absAll(o.Hide),
		ReadOnly: o.absAll(o.ReadOnly), AllowSocket: o.absAll(o.AllowSocket),
	}
	if o.Config != "" {
		in.Config = o.absAll([]string{o.Config})[0]
	}
	pol, err := profiles.New(in)
	if err == nil && pol.Seccomp != "" && !profiles.IsBuiltinSeccomp(pol.Seccomp) {
		// Read from here (validate), held read-only after Run has moved
		// to --workdir: the same file both times.
		pol.SeccompPath, _ = filepath.Abs(pol.Seccomp)
	}
	return pol, err
}

// prepare validates everything that can be validated before a process
// exists: the policy, the paths, the program.
func (o Options) prepare(program string, args []string) (*plan, error) {
	pol, err := o.Policy()
	if err != nil {
		return nil, launcherErr(err)
	}
	path, err := resolveProgram(program, o.lookup())
	if err != nil {
		return nil, err
	}
	p, err := o.validate(pol)
	if err != nil {
		return nil, launcherErr(err)
	}
	p.path, p.argv = path, append([]string{program}, args...)
	if pol.Mode != ModeRWX {
		if err := p.checkDataDirOwner(pol.DataDir); err != nil {
			return nil, launcherErr(err)
		}
		if p.roots, err = checkPlanted(pol); err != nil {
			return nil, launcherErr(err)
		}
		dataDirChecked()
		// Looked at again once it exists: another user may have made it
		// since, below a directory anyone may write (/tmp).
		if err := ensureDirs(pol, func() error { return p.checkDataDirOwner(pol.DataDir) }); err != nil {
			return nil, launcherErr(err)
		}
	}
	return p, nil
}

// workdir is the program's working directory, absolute: a relative
// Workdir is the caller's, as everything else relative on the command
// line is, and the program, the roots and the data dir are found from it.
func (o Options) workdir() string {
	if filepath.IsAbs(o.Workdir) {
		return filepath.Clean(o.Workdir)
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "/"
	}
	return filepath.Join(wd, o.Workdir)
}

func (o Options) home() (string, error) {
	if o.Home != "" {
		return o.Home, nil
	}
	if h := os.Getenv("HOME"); h != "" {
		return h, nil
	}
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		// --data-dir does not spare it: ~/.claude and the credential
		// stores are found from home too.
		return "", fmt.Errorf("cannot find the home directory (for ~/.claude and the credential stores, with --data-dir too): set HOME (%v)", err)
	}
	return u.HomeDir, nil
}

func absFrom(base, p string) (string, error) {
	if p == "" || filepath.IsAbs(p) {
		return p, nil
	}
	return filepath.Join(base, p), nil
}

// absAll makes each path absolute against the working directory.
func (o Options) absAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i], _ = absFrom(o.workdir(), p)
	}
	return out
}

func (noHomeError) Is(target error) bool { return target == fs.ErrNotExist }

// protectableConfig makes sure each config file that sandbox mode keeps
// read-only can be: a regular file, created empty when missing (so that
// the program cannot create one for later launches). A bind mount pins a
// file, not a symlink to it, which the program could replace.
func protectableConfig(p profiles.Policy) error {
	for i, c := range p.ConfigFiles() {
		if i == 0 {
			// 0600 whatever the umask: under 0377 the next launch could
			// not read it. O_EXCL fails on any existing name, a
			// symlink's included.
			var err error
			if _, lerr := os.Lstat(c); errors.Is(lerr, fs.ErrNotExist) {
				err = createEmpty(c)
			}
			switch {
			case errors.Is(err, syscall.EROFS):
				continue // a read-only mount (ProtectHome=read-only): the program cannot create it either
			case err != nil && !errors.Is(err, fs.ErrExist):
				return fmt.Errorf("cannot create %s: %w", c, err)
			}
		}
		st, err := os.Lstat(c)
		switch {
		case err != nil:
			return fmt.Errorf("%s %s: %w", p.ConfigKind(c), c, err)
		case st.Mode()&fs.ModeSymlink != 0:
			hint := "point OMEGA_RUN_CONFIG at the file outside the writable set"
			if p.ConfigKind(c) != "config file" {
				hint = "keep it outside the writable set"
			}
			return fmt.Errorf("%s %s is a symlink, which a program in the sandbox could replace (it may write %s): make it the file itself, or %s", p.ConfigKind(c), c, filepath.Dir(c), hint)
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s %s is not a regular file", p.ConfigKind(c), c)
		}
	}
	return nil
}

// RunAndExit is Run for a caller that exits as soon as it returns (the
// CLI): the forwarded signals then stay caught to the end instead of
// being handed back, which costs a thread hand-off per signal, over a
// millisecond, after the program has already exited. It also stops the
// process when the program stops (the shell waiting for it then takes
// the terminal back) and ignores SIGTTOU once the program is done. A
// library that goes on running after Run must use Run.
func (o Options) RunAndExit(program string, args ...string) (int, error) {
	o.exitAfterRun = true
	return o.Run(program, args...)
}

// refuseExtraFiles: Run passes this process's own fds (PreserveFDs), and
// in rx and rwx it replaces this process, which has no place for others.
func (o Options) refuseExtraFiles() error {
	if len(o.ExtraFiles) > 0 {
		return launcherErr(errors.New("Options.ExtraFiles: Run passes this process's own fds 3 and up (PreserveFDs); use CommandContext to pass files"))
	}
	return nil
}

// kindOf names what a non-directory is, for errors.
func kindOf(fi fs.FileInfo) string {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "symlink"
	}
	return "file"
}
