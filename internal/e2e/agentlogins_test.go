//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentHomesHidden: Codex CLI's and Gemini CLI's own directories hold
// their logins (~/.codex/auth.json: an OpenAI API key or ChatGPT tokens;
// ~/.gemini/oauth_creds.json: a Google refresh token), which a confined
// program that is not that agent (claude, an npm install script) has no
// use for. sandbox mode hides them as it hides the credential stores —
// also where CODEX_HOME moves one — unless the launch grants the
// directory (--allow-write ~/.codex, as codex's launch is told to: the
// agent then needs its login); rwx is the control. Before, any sandboxed
// program read both.
func TestAgentHomesHidden(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			for _, mode := range []string{"sandbox", "rwx"} {
				w := newWorld(t, u)
				codex := secretAt(t, w, ".codex/auth.json")
				gemini := secretAt(t, w, ".gemini/oauth_creds.json")
				moved := secretAt(t, w, "codex2/auth.json")
				for _, c := range []struct {
					file string
					env  []string
				}{{codex, nil}, {gemini, nil}, {moved, []string{"CODEX_HOME=" + filepath.Dir(moved)}}} {
					r := w.runEnv(c.env, "--mode", mode, "--", probe, "read", c.file)
					if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
						t.Errorf("%s: read %s (%q): %v (exit %d, stderr %.300q)", mode, c.file, c.env, got, r.code, r.stderr)
					}
				}
				// Granted: the agent's own launch, which needs its login.
				r := w.run("--mode", mode, "--allow-write", filepath.Dir(codex), "--", probe, "read", codex)
				if !strings.Contains(r.stdout, "SECRET") {
					t.Errorf("%s: with ~/.codex granted, its login unread (exit %d, stderr %.300q)", mode, r.code, r.stderr)
				}
			}
		})
	}
}
