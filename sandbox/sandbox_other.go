//go:build !linux && !darwin

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"github.com/sirupsen/logrus"
)

// command warns and runs the program plainly: omega-run has no sandbox
// for this OS. FailClosed refuses instead.
func command(ctx context.Context, p *plan) (*exec.Cmd, error) {
	// Every mode warns, rwx too: on this OS no mode means anything.
	if p.policy.FailClosed {
		return nil, fmt.Errorf("--fail-closed: %w (%s)", ErrUnsupported, runtime.GOOS)
	}
	logrus.Warnf("no sandbox on %s: running %s without any confinement", runtime.GOOS, p.argv[0])
	return plainCommand(ctx, p), nil
}

// Run runs the program as a child (not every OS has exec) and returns
// its exit status.
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
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		return xe.ExitCode(), nil
	}
	if err != nil {
		return 0, execErr(p.path, err)
	}
	return 0, nil
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
