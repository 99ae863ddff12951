//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestPtyNestedFallbackWords: --pty inside another omega-run's sandbox
// runs without namespaces, where the /dev/pts in reach is the outer
// sandbox's own, which holds the terminals made inside it (the outer
// one's --pty terminal), not the caller's. The warning said "the host's
// /dev/pts stays in reach: the program can open your terminal by name",
// untrue under an outer launch without --pty.
func TestPtyNestedFallbackWords(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			out, code, _, _ := ptyRun(t, w, "", omegaArgs(nil, bin, "--pty", "--", "/bin/echo", "ran")...)
			if code != 0 || !strings.Contains(out, "ran") || !strings.Contains(out, "--pty: without namespaces the outer sandbox's /dev/pts") ||
				strings.Contains(out, "host's /dev/pts") {
				t.Errorf("exit %d; want the program run and the outer sandbox's /dev/pts named; terminal:\n%s", code, out)
			}
		})
	}
}
