//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestPtyFallbackSaid: --pty gives the program a terminal of its own so
// that it cannot reach the caller's; without user namespaces the host's
// /dev/pts stays in its reach, and it opened the caller's terminal by
// name (a write to it showed, a read would take the next typed line),
// while the launch said nothing of --pty. Now it says so, and
// --fail-closed refuses.
func TestPtyFallbackSaid(t *testing.T) {
	const said = "--pty: without namespaces"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			args := append(noUserns(t, u.uid), omegaArgs([]string{"--pty"}, "/bin/echo", "ran")...)
			out, code, _, _ := ptyRun(t, w, "", args...)
			if code != 0 || !strings.Contains(out, "ran") || !strings.Contains(out, "user namespaces are unavailable") || !strings.Contains(out, said) {
				t.Errorf("exit %d; want the program run and %q; terminal:\n%s", code, said, out)
			}
			args = append(noUserns(t, u.uid), omegaArgs([]string{"--pty", "--fail-closed"}, "/bin/echo", "ran")...)
			out, code, _, _ = ptyRun(t, w, "", args...)
			if code != 125 || !strings.Contains(out, said) {
				t.Errorf("--fail-closed: exit %d; want 125 and %q; terminal:\n%s", code, said, out)
			}
		})
	}
}
