//go:build linux

package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestPtyTypedAhead: what was typed before omega-run set the caller's
// terminal raw reaches the program as typed, an end of file (Ctrl-D, or
// script(1)'s when its input ends: script -qc 'omega-run --pty -- cat'
// </dev/null) too: the kernel turns one left in the cooked line into a
// NUL byte once the terminal is raw, and cat waited for ever.
func TestPtyTypedAhead(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			out, ps := onNewPtyTyped(t, 24, 80, "hello\n\x04", nil, func(ctx context.Context) *exec.Cmd {
				return w.cmd(ctx, "--pty", "--", "/bin/sh", "-c", `x=$(timeout --foreground 5 cat); echo "got [$x] $?"`)
			}, nil)
			if code := shellStatus(ps); code != 0 || !strings.Contains(out, "got [hello] 0") {
				t.Errorf("exit %d; want the typed line, then end of file (cat's status 0, not timeout's 124); terminal:\n%q", code, out)
			}
		})
	}
}
