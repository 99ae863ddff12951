//go:build darwin

package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"

	"github.com/omega-run/omega-run/darwin"
	"github.com/sirupsen/logrus"
)

// command runs the program under /usr/bin/sandbox-exec, or plainly after a
// warning when it is missing (an error with FailClosed).
func command(ctx context.Context, p *plan) (*exec.Cmd, error) {
	if p.policy.Mode == ModeRWX {
		return plainCommand(ctx, p), nil
	}
	if w := homeWritableWarning(p.policy, realPath); w != "" {
		logrus.Warn(w)
	}
	if w := pathWritableWarning(p.policy, os.Getenv("PATH"), launchWorkdir(p), realPath); w != "" {
		logrus.Warn(w)
	}
	if p.policy.LogDenials {
		// Seatbelt reports its denials to the unified log anyway.
		logrus.Warn(`--log-denials is Landlock's (Linux): macOS logs Seatbelt's denials already, see log stream --predicate 'sender == "Sandbox"'`)
	}
	if w, err := ptyInPlace(p); err != nil {
		return nil, err
	} else if w != "" {
		logrus.Warn(w)
	}
	cmd, err := darwin.Command(ctx, seatbeltPolicy(p.policy, launchWorkdir(p)), p.path, p.argv, darwin.Options{Resolve: darwin.HostResolver(), Exists: darwin.HostExists()})
	if errors.Is(err, darwin.ErrNoSandboxExec) {
		plain, warning, ferr := darwin.Fallback(p.policy, err)
		if ferr != nil {
			return nil, ferr
		}
		if plain {
			logrus.Warn(warning)
			return plainCommand(ctx, p), nil
		}
	}
	if err != nil {
		return nil, err
	}
	cmd.Env = append(os.Environ(), programEnv(p.policy)...)
	cmd.Dir = p.workdir
	cmd.ExtraFiles = p.extraFiles // sandbox-exec execs the program with them
	return cmd, nil
}

// Run replaces omega-run with sandbox-exec (or the program), so that
// signals, the terminal and the exit status are the program's own.
func (o Options) Run(program string, args ...string) (int, error) {
	if err := o.refuseExtraFiles(); err != nil {
		return 0, err
	}
	p, err := o.prepare(program, args)
	if err != nil {
		return 0, err
	}
	cmd, err := command(context.Background(), p)
	if err != nil {
		return 0, launcherErr(err)
	}
	if cmd.Dir != "" {
		if err := os.Chdir(cmd.Dir); err != nil {
			return 0, launcherErr(err)
		}
	}
	return 0, execErr(cmd.Path, syscall.Exec(cmd.Path, cmd.Args, cmd.Env))
}

// Start starts cmd; on Linux it also holds signals for PID 1 (see there).
func Start(cmd *exec.Cmd) error {
	if err := checkDir(cmd.Dir); err != nil {
		return err
	}
	return cmd.Start()
}

// Wait is cmd.Wait: cgroup limits are Linux's.
func Wait(cmd *exec.Cmd) error { return cmd.Wait() }
