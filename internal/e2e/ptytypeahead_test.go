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
//
// A line ended by Ctrl-D rather than a newline ("hel", Ctrl-D: read(2)
// returns "hel" at once) is ended so for the program too; else the next
// Ctrl-D only ended that line, and cat waited for ever.
func TestPtyTypedAhead(t *testing.T) {
	for _, u := range users {
		for _, c := range []struct{ typed, want string }{
			{"hello\n\x04", "got [hello] 0"},
			{"hel\x04\x04", "got [hel] 0"},
			{"a\nb\x04\x04", "got [a\nb] 0"},
		} {
			t.Run(u.name+"/"+strings.NewReplacer("\n", "NL", "\x04", "EOF").Replace(c.typed), func(t *testing.T) {
				w := newWorld(t, u)
				out, ps := onNewPtyTyped(t, 24, 80, c.typed, nil, func(ctx context.Context) *exec.Cmd {
					return w.cmd(ctx, "--pty", "--", "/bin/sh", "-c", `x=$(timeout --foreground 5 cat); echo "got [$x] $?"`)
				}, nil)
				if code := shellStatus(ps); code != 0 || !strings.Contains(strings.ReplaceAll(out, "\r\n", "\n"), c.want) {
					t.Errorf("exit %d; want %q: the typed lines, then end of file (cat's status 0, not timeout's 124); terminal:\n%q", code, c.want, out)
				}
			})
		}
	}
}
