//go:build linux

package e2e

import (
	"context"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIgnoredSignalCaughtForwarded: a program started with SIGINT ignored
// (a shell's background job) that catches it again itself gets a SIGINT
// sent to the sandbox's PID 1, as it would without omega-run and as the
// C init stage's PID 1 forwards it; the Go one's kept ignoring it after
// the program's fork, and dropped it.
func TestIgnoredSignalCaughtForwarded(t *testing.T) {
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				c := w.cmdOf(ctx, probe, "with-signals", "2", "", b, "--mode", "sandbox", "--", probe, "sigint-count")
				out := startAndWaitReady(t, c)
				if err := syscall.Kill(initStageOf(t, c.Process.Pid), syscall.SIGINT); err != nil {
					t.Fatal(err)
				}
				rest, _ := io.ReadAll(out)
				c.Wait()
				if n := strings.Count(string(rest), "GOT-INT"); n != 1 || shellStatus(c.ProcessState) != 0 {
					t.Errorf("program saw SIGINT %d times (exit %d, output %q), want once (exit 0)", n, shellStatus(c.ProcessState), rest)
				}
			})
		}
	}
}
