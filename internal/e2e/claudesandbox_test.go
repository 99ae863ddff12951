//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeSandboxSaid: with Claude Code's own sandbox on in
// ~/.claude/settings.json every command its Bash tool ran inside
// omega-run failed with "bwrap: setting up uid map" (bubblewrap cannot
// start there: TestNestedSandboxRefused), and the launch said nothing.
// A stand-in claude gets one line naming the file and the flag; with the
// flag (settings on the command line) none.
func TestClaudeSandboxSaid(t *testing.T) {
	const line = `Claude Code's own sandbox is on ("sandbox": {"enabled": true} in ~/.claude/settings.json)`
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				prog := filepath.Join(w.extra, "claude")
				writeExec(t, prog, "#!/bin/sh\nexit 0\n")
				mustMkdir(t, filepath.Join(w.home, ".claude"))
				writeFile(t, filepath.Join(w.home, ".claude", "settings.json"), `{"sandbox": {"enabled": true}}`)
				chownTree(t, w.home, u)
				r := w.run("--mode", mode, "--", prog)
				if r.code != 0 || strings.Count(r.stderr, line) != 1 || !strings.Contains(r.stderr, `claude --settings '{"sandbox":{"enabled":false}}'`) {
					t.Errorf("%+v; want one line naming Claude Code's sandbox and the flag", r)
				}
				r = w.run("--mode", mode, "--", prog, "--settings", `{"sandbox":{"enabled":false}}`)
				if r.code != 0 || strings.Contains(r.stderr, "own sandbox") {
					t.Errorf("with --settings: %+v; want no line", r)
				}
			})
		}
	}
}
