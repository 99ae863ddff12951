//go:build linux

package e2e

import (
	"errors"
	"io/fs"
	"os"
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

// TestAgentHomesHiddenElsewhere: an agent's login is hidden wherever the
// agent may have left it, as the credential stores are: ~/.codex where
// CODEX_HOME now points elsewhere (a login from before the move), and the
// account's ~/.codex where $HOME names another directory (CI's
// HOME=$PWD/.home; root only, as TestAccountHomeStores: /root/.codex is
// made only where there is none, and removed), and ~/.codex where the
// writable root is home (--allow-write ~), which hides ~/.ssh. All three
// were read before.
// rwx is the control.
func TestAgentHomesHiddenElsewhere(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			old := secretAt(t, w, ".codex/auth.json")
			env := []string{"CODEX_HOME=" + filepath.Join(w.home, "codex2")}
			for _, mode := range []string{"rwx", "sandbox"} {
				r := w.runEnv(env, "--mode", mode, "--", probe, "read", old)
				if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
					t.Errorf("%s: read %s with CODEX_HOME elsewhere: %v (exit %d, stderr %.300q)", mode, old, got, r.code, r.stderr)
				}
				// Home writable is no grant of the login, as it is
				// none of ~/.ssh: a grant names the agent's home.
				r = w.run("--mode", mode, "--allow-write", w.home, "--", probe, "read", old)
				if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
					t.Errorf("%s: read %s with home writable: %v (exit %d, stderr %.300q)", mode, old, got, r.code, r.stderr)
				}
			}
		})
	}
	t.Run("account-home", func(t *testing.T) {
		const dir = "/root/.codex"
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			t.Skipf("%s is there already: not the test's to replace", dir)
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Skipf("cannot make %s: %v", dir, err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		login := filepath.Join(dir, "auth.json")
		if err := os.WriteFile(login, []byte("SECRET-ACCOUNT-HOME\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		w := newWorld(t, rootUser) // HOME is the world's home, not /root
		for _, mode := range []string{"rwx", "sandbox"} {
			r := w.run("--mode", mode, "--", probe, "read", login)
			if got := strings.Contains(r.stdout, "SECRET"); got != (mode == "rwx") {
				t.Errorf("%s: read %s with HOME elsewhere: %v (exit %d, stderr %.300q)", mode, login, got, r.code, r.stderr)
			}
		}
	})
}
