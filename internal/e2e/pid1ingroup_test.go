//go:build linux

package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestCtrlCBeforePID1LeavesGroup: a Ctrl-C typed while PID 1 is still in
// the caller's process group (on a busy machine the program can be ready
// before PID 1 leaves it) reaches the program once. strace holds PID 1's
// setpgid for half a second so the key lands in that window every time;
// before, the program saw it twice, from the terminal and forwarded (the
// C stage, and the Go one without strace 1 run in 6 on a loaded machine).
// Both stages, root and nobody.
func TestCtrlCBeforePID1LeavesGroup(t *testing.T) {
	strace := needStrace(t)
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				out, ps := onNewPty(t, 24, 80, "\x03", func(ctx context.Context) *exec.Cmd {
					return w.cmdOf(ctx, strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=setpgid",
						"-e", "inject=setpgid:delay_enter=500000", b, "--", probe, "sigint-count")
				})
				if n := strings.Count(out, "GOT-INT"); n != 1 || shellStatus(ps) != 0 {
					t.Errorf("SIGINT seen %d times (exit %d), want once (exit 0); output:\n%s", n, shellStatus(ps), out)
				}
			})
		}
	}
}
