package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

// validate checks everything about o that can be checked without creating
// anything, and returns the plan still without its program. A launch runs
// it before it creates the data dir, so that a refused launch leaves
// nothing behind, and explain runs it so that it refuses what a launch
// would.
func (o Options) validate(pol profiles.Policy) (*plan, error) {
	if err := o.checkFlags(pol); err != nil {
		return nil, err
	}
	if o.Workdir != "" {
		o.Workdir = o.workdir()
		if st, err := os.Stat(o.Workdir); err != nil {
			return nil, fmt.Errorf("--workdir %s: %w", o.Workdir, errors.Unwrap(err))
		} else if !st.IsDir() {
			return nil, fmt.Errorf("--workdir %s: not a directory", o.Workdir)
		}
	}
	ids, err := o.Process.resolveIDs()
	if err != nil {
		return nil, err
	}
	limits, err := rlimits.Parse(o.Process.Rlimits)
	if err != nil {
		return nil, fmt.Errorf("--rlimit: %w", err)
	}
	cg, err := o.Process.cgroupLimits(pol.Mode, o.command)
	if err != nil {
		return nil, err
	}
	if err := checkDataDir(pol); err != nil {
		return nil, err
	}
	if err := checkPaths(pol); err != nil {
		return nil, err
	}
	prof, err := readSeccompFile(pol)
	if err != nil {
		return nil, err
	}
	return &plan{
		policy: pol, workdir: o.Workdir, pwd: o.Workdir, explicitSeccomp: o.Seccomp != "", seccompProfile: prof, preserveFDs: o.PreserveFDs, extraFiles: o.ExtraFiles,
		process: o.Process, ids: ids, limits: limits, cgroup: cg, exitAfterRun: o.exitAfterRun, pty: o.PTY,
	}, nil
}

// checkFlags checks the flags that need nothing looked up: the
// environment, the fds to pass on, and what only sandbox mode has.
func (o Options) checkFlags(pol profiles.Policy) error {
	if err := o.Process.checkEnv(); err != nil {
		return err
	}
	if o.PreserveFDs < 0 {
		return fmt.Errorf("--preserve-fds %d: want 0 or more", o.PreserveFDs)
	}
	if err := checkPreservedFDs(o.PreserveFDs); err != nil {
		return err
	}
	if err := checkExtraFiles(o.ExtraFiles); err != nil {
		return err
	}
	if o.Process.Hostname != "" && pol.Mode != ModeSandbox {
		return fmt.Errorf("--hostname needs --mode sandbox (%s mode has no uts namespace)", pol.Mode)
	}
	if o.PTY && pol.Mode != ModeSandbox {
		return fmt.Errorf("--pty needs --mode sandbox (%s mode runs the program in place of omega-run, which is then not there to relay a terminal)", pol.Mode)
	}
	if h := o.Process.Hostname; len(h) > 64 || strings.ContainsFunc(h, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("--hostname %q: at most 64 bytes, without spaces or control characters", h)
	}
	return nil
}

// cgroupLimits parses the cgroup limits, which rwx (mode) cannot have
// but in a command (CommandContext's caller outlives the program).
func (p Process) cgroupLimits(mode Mode, command bool) (cgroups.Limits, error) {
	cg, err := cgroups.ParseLimits(p.Memory, p.Pids, p.CPUs)
	if le := (*cgroups.LimitError)(nil); errors.As(err, &le) {
		// Named by its flag, as the other settings are.
		return cg, fmt.Errorf("--%s %q: %s", le.Limit, le.Value, le.Reason)
	} else if err != nil {
		return cg, err
	}
	if !cg.IsZero() && mode == ModeRWX && !command {
		flag, value := "memory", p.Memory
		if value == "" {
			flag, value = "pids", p.Pids
		}
		if value == "" {
			flag, value = "cpus", p.CPUs
		}
		// Named first, so that the caller can say where it came from.
		return cg, fmt.Errorf("--%s %s: --mode rwx runs the program with nothing in between to remove its cgroup afterwards (drop it, or use --mode sandbox or rx)", flag, value)
	}
	return cg, nil
}

// checkExtraFiles refuses what the start would fail on, or pass on as
// nothing: nil (exec.Cmd's own ExtraFiles would close that fd for the
// program) and closed files ("fork/exec /proc/self/exe: bad file
// descriptor").
func checkExtraFiles(files []*os.File) error {
	for i, f := range files {
		switch {
		case f == nil:
			return fmt.Errorf("Options.ExtraFiles[%d] is nil", i)
		case f.Fd() == ^uintptr(0):
			return fmt.Errorf("Options.ExtraFiles[%d] (%s) is closed", i, f.Name())
		}
	}
	return nil
}

// checkPaths checks the paths the user named, in every mode (rwx
// ignores them, but a wrong one is still a mistake worth reporting). A
// writable root that the launch itself creates (the data dir, its
// workspace, ~/.claude, the private /tmp) may be missing still.
func checkPaths(p profiles.Policy) error {
	for _, w := range p.AllowWrite {
		st, err := os.Stat(w)
		if errors.Is(err, fs.ErrNotExist) && p.Mode != ModeRWX && createdDir(p, w) {
			continue
		}
		if err != nil {
			return fmt.Errorf("--allow-write %s: %w%s", w, errors.Unwrap(err), mkdirHint(w, err))
		}
		// A writable root is a directory: Landlock's directory rights and
		// the sandbox's bind mount point both fail on a file.
		if !st.IsDir() {
			return fmt.Errorf("--allow-write %s: not a directory", w)
		}
	}
	for _, r := range p.ReadOnly {
		if _, err := os.Stat(r); err != nil {
			return fmt.Errorf("--read-only %s: %w", r, errors.Unwrap(err))
		}
		if p.WritableRootOf(r) == "" {
			return fmt.Errorf("--read-only %s: not inside a writable root (everything else is read-only already)", r)
		}
	}
	for _, s := range p.AllowSocket {
		st, err := os.Stat(s)
		if err != nil {
			return fmt.Errorf("--allow-socket %s: %w", s, errors.Unwrap(err))
		}
		if st.Mode()&fs.ModeSocket == 0 {
			return fmt.Errorf("--allow-socket %s: not a unix socket", s)
		}
	}
	return nil
}

// checkDataDir refuses a data dir that is no directory, or is below a
// file, before anything else trips over it.
func checkDataDir(p profiles.Policy) error {
	if p.Mode == ModeRWX {
		return nil // rwx does not use it
	}
	st, err := os.Stat(p.DataDir)
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("data dir %s: a file is in its path", p.DataDir)
	case err == nil && !st.IsDir():
		return fmt.Errorf("data dir %s is a file, not a directory", p.DataDir)
	}
	return nil
}

// createdDir tells whether ensureDirs creates dir.
func createdDir(p profiles.Policy, dir string) bool {
	return dir == p.DataDir || dir == p.Workspace() || dir == p.ClaudeDir() ||
		(p.Mode == ModeSandbox && dir == p.PrivateTmp())
}

// readSeccompFile reads and parses a profile named by its path, so that
// a bad one is refused before the launch creates anything; the spec uses
// what it read. Built-ins cannot fail, and a pipe or FIFO (<(…)) is left
// for the spec to read: it can be read only once, and it may block.
func readSeccompFile(p profiles.Policy) (*seccomp.Profile, error) {
	switch p.Seccomp {
	case "", profiles.SeccompDefault, profiles.SeccompStrict, profiles.SeccompNone:
		return nil, nil
	}
	if st, err := os.Stat(p.Seccomp); err == nil && !st.Mode().IsRegular() {
		return nil, nil
	}
	prof, err := seccomp.Resolve(p.Seccomp)
	if err != nil {
		return nil, seccompFileError(p.Seccomp, err)
	}
	return prof, nil
}

// seccompFileError names the --seccomp file once: Resolve's errors about
// a file mostly begin with its name ("FILE:2:1: unexpected end of JSON").
func seccompFileError(file string, err error) error {
	if strings.HasPrefix(err.Error(), file+":") {
		return fmt.Errorf("--seccomp %w", err)
	}
	return fmt.Errorf("--seccomp %s: %w", file, err)
}

// mkdirHint says how to create a missing --allow-write directory, which
// Landlock and the sandbox's bind mount both need to exist: a new user's
// --allow-write ./build failed with no word of it. Not for a dangling
// symlink, where mkdir -p fails too.
func mkdirHint(dir string, err error) string {
	if _, lerr := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) || lerr == nil {
		return ""
	}
	if parts := strings.Split(dir, ":"); len(parts) > 1 && !slices.ContainsFunc(parts, notDir) {
		// PATH's colons in OMEGA_RUN_ALLOW_WRITE, which takes commas:
		// mkdir -p would make one directory named with them.
		return " (one path each: repeat --allow-write, or separate them with commas, not colons, in OMEGA_RUN_ALLOW_WRITE=" + strings.Join(parts, ",") + ")"
	}
	return " (mkdir -p " + profiles.ShellWord(dir) + " creates it)"
}

// notDir tells whether p is not an absolute path to a directory.
func notDir(p string) bool {
	st, err := os.Stat(p)
	return !filepath.IsAbs(p) || err != nil || !st.IsDir()
}
