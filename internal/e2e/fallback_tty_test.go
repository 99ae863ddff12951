//go:build linux

package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestFallbackSeccompNoneTerminal: without user namespaces there is no
// PID 1 to start the program in a session of its own, and --seccomp none
// has no filter to refuse TIOCSTI. The warning says the program "cannot
// inject keystrokes into yours", yet it typed into the caller's terminal;
// it now leaves its controlling terminal first (TIOCNOTTY), in place and
// as the supervised init stage's program (a cgroup limit, root only).
func TestFallbackSeccompNoneTerminal(t *testing.T) {
	for _, u := range users {
		for _, flags := range [][]string{nil, {"--pids", "100"}} {
			if len(flags) > 0 && u.uid != 0 {
				continue // cgroups need root here
			}
			t.Run(u.name+strings.Join(flags, ""), func(t *testing.T) {
				w := newWorld(t, u)
				args := append(append([]string{"job-shell"}, noUserns(t, u.uid)...), bin, "--seccomp", "none")
				args = append(append(args, flags...), "--", probe, "tiocsti", "@")
				out, _ := onNewPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd { return w.cmdOf(ctx, probe, args...) })
				if !strings.Contains(out, "user namespaces are unavailable") || !strings.Contains(out, "cannot inject keystrokes") {
					t.Fatalf("not the fallback with --seccomp none's warning; terminal:\n%s", out)
				}
				if strings.Contains(out, "@") || !strings.Contains(out, "operation not permitted") {
					t.Errorf("the program pushed a key into the caller's terminal; terminal:\n%s", out)
				}
			})
		}
	}
}
