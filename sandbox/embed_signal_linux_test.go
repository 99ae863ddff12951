package sandbox_test

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/sandbox"
)

// TestSignalRightAfterStart: with sandbox.Start, a signal sent at once
// reaches the program (its trap exits 42, or it dies of it, 143, if
// the trap is not set yet) instead of being dropped while PID 1 has no
// handlers yet, which left the program to run its 5 s.
func TestSignalRightAfterStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real sandbox")
	}
	if !nsexec.CInit {
		t.Skip("the Go init stage's runtime unblocks SIGINT/SIGTERM/SIGHUP/SIGQUIT at start, before it can catch them (README: Limitations)")
	}
	for i := 0; i < 10; i++ {
		cmd, err := sandbox.Command("sh", sandbox.ModeSandbox, t.TempDir(), "-c", "trap 'exit 42' TERM; sleep 5 & wait")
		if err != nil {
			t.Fatal(err)
		}
		if err := sandbox.Start(cmd); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		cmd.Process.Signal(syscall.SIGTERM)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || (ee.ExitCode() != 42 && ee.ExitCode() != 143) || time.Since(start) > 4*time.Second {
			t.Fatalf("run %d: %v after %v; want exit 42 or 143 at once (the signal lost?)", i, err, time.Since(start))
		}
	}
}
