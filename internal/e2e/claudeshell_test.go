//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// claudeSaves keeps its state as Claude Code does: in
// $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json, written to a
// temporary file beside it and renamed.
const claudeSaves = `f=${CLAUDE_CONFIG_DIR:-$HOME}/.claude.json
printf '{"userID": "u", "saved": 1}\n' >"$f.tmp.$$" && mv "$f.tmp.$$" "$f" && echo claude-saved`

// shellSessionWorld is u's world with a fake claude (claudeSaves) and
// ~/.claude.json, and the command of a confined bash session in mode.
func shellSessionWorld(t *testing.T, u user, mode string) (w *world, claude, state string, shell func(context.Context) *exec.Cmd) {
	w = newWorld(t, u)
	claude, state = fakeClaude(t, w, claudeSaves)
	chownTree(t, w.home, u)
	shell = func(ctx context.Context) *exec.Cmd {
		return w.cmdOf(ctx, bin, "--mode", mode, "--", "/bin/bash", "--norc", "--noprofile")
	}
	return w, claude, state, shell
}

// TestClaudeInShellSession: claude started in a confined shell that a
// person types into keeps its state, as `omega-run -- claude` does (the
// shell gets CLAUDE_CONFIG_DIR and the sync); before, its writes to
// ~/.claude.json failed with nothing to say why. `bash -c` and a piped
// shell get no sync (an agent's every command would pay for it): the
// control, where the state stays as it was.
func TestClaudeInShellSession(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, claude, state, shell := shellSessionWorld(t, u, mode)
				out, ps := onNewPtyTyped(t, 24, 80, claude+"\nexit\n", nil, shell, nil)
				if b, _ := os.ReadFile(state); !strings.Contains(string(b), `"saved": 1`) || !strings.Contains(out, "claude-saved") {
					t.Fatalf("claude in a confined shell session: ~/.claude.json %q after, want it saved; exit %d, terminal:\n%s", b, shellStatus(ps), out)
				}
				if r := w.run("--mode", mode, "--", "/bin/bash", "-c", claude); strings.Contains(r.stdout, "claude-saved") {
					t.Errorf("bash -c got the state sync (CLAUDE_CONFIG_DIR): %+v", r)
				}
				if b, _ := os.ReadFile(state); !strings.Contains(string(b), `"saved": 1`) {
					t.Errorf("bash -c changed ~/.claude.json: %q", b)
				}
			})
		}
	}
}

// TestShellSessionStateUntouchedQuiet: a shell session where claude never
// ran leaves ~/.claude.json as it found it, so a change to it outside
// while the session lasted (an unconfined claude in another terminal, the
// usual case) is the user's alone: no warning that it "changed while the
// program ran", no working copy kept, and the outside change stays.
func TestShellSessionStateUntouchedQuiet(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, _, state, shell := shellSessionWorld(t, u, mode)
				outside := func(*os.File) {
					writeFile(t, state, `{"userID": "u", "outside": 1}`)
				}
				out, ps := onNewPtyTyped(t, 24, 80, "echo re''ady; sleep 1; exit\n", outside, shell, nil)
				if strings.Contains(out, "changed while the program ran") || strings.Contains(out, "state stays in") {
					t.Errorf("a session that left ~/.claude.json alone warned (exit %d):\n%s", shellStatus(ps), out)
				}
				if b, _ := os.ReadFile(state); !strings.Contains(string(b), `"outside": 1`) {
					t.Errorf("the outside change is gone: %q", b)
				}
				if _, err := os.Stat(filepath.Join(w.home, ".claude", ".claude.json")); err == nil {
					t.Errorf("the unchanged working copy was kept")
				}
			})
		}
	}
}
