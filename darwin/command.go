package darwin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// SandboxExecPath is where macOS ships sandbox-exec. It is never looked up
// in PATH: a writable PATH entry must not be able to stand in for the
// sandbox.
const SandboxExecPath = "/usr/bin/sandbox-exec"

// ErrNoSandboxExec means sandbox-exec does not exist. DESIGN.md's fallback
// applies: warn and run the program plainly, or refuse (exit 125) with
// --fail-closed. See Fallback.
var ErrNoSandboxExec = errors.New("sandbox-exec not found")

// Options holds what Args and Command take from the machine, so tests can
// inject it. The zero value renders lexically and stats the real
// /usr/bin/sandbox-exec.
type Options struct {
	// SandboxExec is the sandbox-exec binary; "" means SandboxExecPath.
	// It must be absolute.
	SandboxExec string
	// Resolve follows symlinks in profile paths; nil means lexical only.
	// Callers on macOS pass HostResolver().
	Resolve Resolver
	// Exists tells whether a directory exists (nil: assume it does), so
	// that only existing ones are pinned; callers on macOS pass
	// HostExists().
	Exists func(string) bool
	// Stat checks that SandboxExec is usable; nil means an os.Stat for an
	// executable regular file. An error matching fs.ErrNotExist becomes
	// ErrNoSandboxExec; any other error is a launcher error.
	Stat func(string) error
}

func (o Options) sandboxExec() (string, error) {
	if o.SandboxExec == "" {
		return SandboxExecPath, nil
	}
	if !path.IsAbs(o.SandboxExec) {
		return "", fmt.Errorf("darwin: sandbox-exec location %q is not absolute", o.SandboxExec)
	}
	return o.SandboxExec, nil
}

// Args returns the full argv that confines argv under p:
//
//	/usr/bin/sandbox-exec -p PROFILE -DNAME=value... -- argv...
//
// argv[0] is the program sandbox-exec runs (execvp), so pass it resolved.
// Args is pure: it touches the disk only through o.Resolve.
func Args(p profiles.Policy, argv []string, o Options) ([]string, error) {
	_, args, err := build(p, argv, o)
	return args, err
}

func build(p profiles.Policy, argv []string, o Options) (Profile, []string, error) {
	if len(argv) == 0 {
		return Profile{}, nil, errors.New("darwin: no program to run")
	}
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return Profile{}, nil, fmt.Errorf("darwin: argument %q contains a NUL byte", a)
		}
	}
	sbx, err := o.sandboxExec()
	if err != nil {
		return Profile{}, nil, err
	}
	prof, err := render(p, o.Resolve, o.Exists)
	if err != nil {
		return Profile{}, nil, err
	}
	args := append([]string{sbx, "-p", prof.Text}, prof.Defines()...)
	args = append(args, "--")
	return prof, append(args, argv...), nil
}

// Command returns an unstarted sandbox-exec command running program with
// argv[1:] under p. argv is as in exec.Cmd.Args; its argv[0] is replaced
// by program (the resolved path) because sandbox-exec cannot set a separate argv[0]. Bad input
// is reported before sandbox-exec is looked at; a missing sandbox-exec
// gives an error matching ErrNoSandboxExec.
func Command(ctx context.Context, p profiles.Policy, program string, argv []string, o Options) (*exec.Cmd, error) {
	run := []string{program}
	if len(argv) > 0 {
		run = append(run, argv[1:]...)
	}
	args, err := Args(p, run, o)
	if err != nil {
		return nil, err
	}
	if err := checkSandboxExec(args[0], o.Stat); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, args[0])
	cmd.Args = args
	return cmd, nil
}

func checkSandboxExec(sbx string, stat func(string) error) error {
	if stat == nil {
		stat = statExecutable
	}
	err := stat(sbx)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("darwin: %w at %s", ErrNoSandboxExec, sbx)
	default:
		return fmt.Errorf("darwin: sandbox-exec at %s is unusable: %w", sbx, err)
	}
}

func statExecutable(name string) error {
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
		return errors.New("not an executable file")
	}
	return nil
}

// Fallback decides what the caller does after Command returned err.
// plain is true only when sandbox-exec is missing and p is not
// fail-closed: the caller prints warning and runs the program unconfined.
// Otherwise the returned error (nil when err was nil) stands and maps to
// exit 125; with --fail-closed it says why nothing ran.
func Fallback(p profiles.Policy, err error) (plain bool, warning string, _ error) {
	switch {
	case err == nil:
		return false, "", nil
	case !errors.Is(err, ErrNoSandboxExec):
		return false, "", err
	case p.FailClosed:
		return false, "", fmt.Errorf("%w; --fail-closed refuses to run the program unconfined", err)
	}
	return true, fmt.Sprintf("%v; running the program without the %s sandbox (--fail-closed refuses instead)", err, p.Mode), nil
}

// Explain returns the exact profile text that -p receives, followed by a
// "command: " line with the whole sandbox-exec argv shell-quoted, for
// `omega-run explain --os darwin`. It looks at nothing on this machine:
// paths are canonicalised lexically and sandbox-exec is not checked.
func Explain(p profiles.Policy, argv []string) (string, error) {
	prof, args, err := build(p, argv, Options{})
	if err != nil {
		return "", err
	}
	// The profile, omega-run's own text of constants (FuzzRenderPath), is
	// quoted as it reads, lines and all; the paths are in the -D words.
	words := []string{ShellJoin(args[:2]), "'" + strings.ReplaceAll(prof.Text, "'", `'\''`) + "'"}
	for _, a := range args[3:] {
		words = append(words, ShellQuote(a))
	}
	return prof.Text + "command: " + strings.Join(words, " ") + "\n", nil
}
