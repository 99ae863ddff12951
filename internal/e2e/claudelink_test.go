//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeState is the state ~/.claude.json holds in the link tests.
const claudeState = `{"numStartups":1}`

// linkedClaudeHome gives w a ~/.claude.json that is a symlink to target
// (relative to home), holding claudeState, and a hidden ~/.ssh key.
func linkedClaudeHome(t *testing.T, w *world, target string) {
	t.Helper()
	mustMkdir(t, filepath.Join(w.home, ".claude"))
	mustMkdir(t, filepath.Join(w.home, ".ssh"))
	mustMkdir(t, filepath.Dir(filepath.Join(w.home, target)))
	writeFile(t, filepath.Join(w.home, ".ssh", "id_ed25519"), "KEY-SECRET-1234")
	writeFile(t, filepath.Join(w.home, target), claudeState)
	if err := os.Symlink(target, filepath.Join(w.home, ".claude.json")); err != nil {
		t.Fatal(err)
	}
	chownTree(t, w.home, w.u)
}

// repoint is a script that makes ~/.claude/real.json a link to $1's
// target, as a program confined with ~/.claude writable can.
func repoint(target string) string {
	return `ln -sf "` + target + `" "$HOME/.claude/real.json.new" && mv -T "$HOME/.claude/real.json.new" "$HOME/.claude/real.json"` + "\n"
}

// TestClaudeLinkIntoWritableReadsHidden: ~/.claude.json is a link into
// ~/.claude (writable): a first run re-points what it leads to at a
// hidden credential store, and the launcher must not copy that into the
// working copy a second run reads.
func TestClaudeLinkIntoWritableReadsHidden(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			linkedClaudeHome(t, w, ".claude/real.json")
			claude := scriptClaude(t, w)
			r := w.run("--mode", "sandbox", "--", claude, repoint(filepath.Join(w.home, ".ssh", "id_ed25519")))
			if r.code != 0 {
				t.Fatalf("run 1: exit %d, stderr %q", r.code, r.stderr)
			}
			r = w.run("--mode", "sandbox", "--", claude, `cat ~/.ssh/id_ed25519; cat "$CLAUDE_CONFIG_DIR/.claude.json"; cat ~/.claude/.claude.json.omega-kept-* 2>/dev/null; true`)
			if strings.Contains(r.stdout, "KEY-SECRET") {
				t.Errorf("run 2 read the hidden key through the state sync: stdout %q, stderr %q", r.stdout, r.stderr)
			}
			assertNoKeyIn(t, filepath.Join(w.home, ".claude"))
			if !strings.Contains(r.stderr, "is not synced") {
				t.Errorf("no warning that the state is not synced: %q", r.stderr)
			}
		})
	}
}

// assertNoKeyIn checks from outside that no file below dir holds the key.
func assertNoKeyIn(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "KEY-SECRET") {
				t.Errorf("%s holds the hidden key", p)
			}
		}
		return nil
	})
}

// TestClaudeLinkIntoWritableWritesOutside: ~/.claude.json is a link into
// ~/.claude: the program re-points what it leads to at a file outside the
// writable set (with home's content, so the digest check passes) and
// writes the working copy; the launcher must not write that file.
func TestClaudeLinkIntoWritableWritesOutside(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				linkedClaudeHome(t, w, ".claude/real.json")
				target := filepath.Join(w.outside, "target")
				writeFile(t, target, claudeState)
				chownTree(t, w.outside, w.u)
				script := `printf '{"pwned":1}' > "$CLAUDE_CONFIG_DIR/.claude.json"` + "\n" + repoint(target)
				r := w.run("--mode", mode, "--", scriptClaude(t, w), script)
				if r.code != 0 {
					t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
				}
				if b, _ := os.ReadFile(target); string(b) != claudeState {
					t.Errorf("the launcher wrote the program's content outside the writable set: %s holds %q", target, b)
				}
				if !strings.Contains(r.stderr, "is not synced") {
					t.Errorf("no warning that the state is not synced: %q", r.stderr)
				}
			})
		}
	}
}

// TestClaudeLinkToDotfiles: a ~/.claude.json that a dotfile manager links
// to a file outside the writable set is synced as a file there: the
// program's state goes to that file and the link stays. GNU stow makes
// one relative link to a file of the same name; home-manager's
// mkOutOfStoreSymlink a link to a link in the Nix store.
func TestClaudeLinkToDotfiles(t *testing.T) {
	setups := []struct{ name, target string }{
		{"manual", "dotfiles/claude.json"},
		{"stow", "dotfiles/claude/.claude.json"},
		{"home-manager", "dotfiles/claude.json"},
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			for _, s := range setups {
				t.Run(u.name+"/"+mode+"/"+s.name, func(t *testing.T) {
					w := newWorld(t, u)
					linkedClaudeHome(t, w, s.target)
					if s.name == "home-manager" {
						hmLink(t, w, s.target)
					}
					claudeDotfilesSynced(t, w, mode, s.target)
				})
			}
		}
	}
}

// hmLink makes ~/.claude.json a link to a store link to target, as
// home-manager's mkOutOfStoreSymlink does.
func hmLink(t *testing.T, w *world, target string) {
	t.Helper()
	store := filepath.Join(w.outside, "nix", "store", "0abc-hm_.claude.json")
	mustMkdir(t, filepath.Dir(store))
	link := filepath.Join(w.home, ".claude.json")
	os.Remove(link)
	if os.Symlink(filepath.Join(w.home, target), store) != nil || os.Symlink(store, link) != nil {
		t.Fatal("hmLink")
	}
}

// claudeDotfilesSynced runs a Claude that checks home's state was copied
// in and writes its own, which must reach target (relative to home).
func claudeDotfilesSynced(t *testing.T, w *world, mode, target string) {
	t.Helper()
	script := `grep -q numStartups "$CLAUDE_CONFIG_DIR/.claude.json" || exit 3` + "\n" + `printf '{"numStartups":2}' > "$CLAUDE_CONFIG_DIR/.claude.json"`
	r := w.run("--mode", mode, "--", scriptClaude(t, w), script)
	if r.code != 0 {
		t.Fatalf("exit %d (3: home's state was not copied in), stderr %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(w.home, target)); string(b) != `{"numStartups":2}` {
		t.Errorf("%s = %q, want the program's state", target, b)
	}
	if fi, err := os.Lstat(filepath.Join(w.home, ".claude.json")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("~/.claude.json is no longer a link: %v", err)
	}
	if strings.Contains(r.stderr, "not synced") || strings.Contains(r.stderr, "state stays") {
		t.Errorf("the state was not synced: %q", r.stderr)
	}
}

// TestClaudeLinkRepointedEarlier: ~/.claude.json -> dotfiles2/claude.json,
// and a first launch with --allow-write ~/dotfiles2 re-points that at a
// hidden key or at ~/.bashrc. A second, plain launch must neither copy
// the file into the working copy nor write the program's state over it.
func TestClaudeLinkRepointedEarlier(t *testing.T) {
	targets := map[string]string{".ssh/id_test": "KEY-SECRET-1234", ".bashrc": "export KEY-SECRET=1"}
	for _, u := range users {
		for _, mode := range confinedModes {
			for rel, content := range targets {
				t.Run(u.name+"/"+mode+"/"+rel, func(t *testing.T) {
					w := newWorld(t, u)
					linkedClaudeHome(t, w, "dotfiles2/claude.json")
					target := filepath.Join(w.home, rel)
					writeFile(t, target, content)
					chownTree(t, w.home, w.u)
					claude := scriptClaude(t, w)
					repoint := `ln -s "` + target + `" ~/dotfiles2/new && mv -T ~/dotfiles2/new ~/dotfiles2/claude.json` + "\n"
					r := w.run("--mode", mode, "--allow-write", filepath.Join(w.home, "dotfiles2"), "--", claude, repoint)
					if r.code != 0 {
						t.Fatalf("run 1: exit %d, stderr %q", r.code, r.stderr)
					}
					r = w.run("--mode", mode, "--", claude, `cat "$CLAUDE_CONFIG_DIR/.claude.json"; printf '{"x":"$(touch /tmp/pwned)"}' > "$CLAUDE_CONFIG_DIR/.claude.json"`)
					if strings.Contains(r.stdout, "KEY-SECRET") {
						t.Errorf("run 2 read %s through the state sync: stdout %q", rel, r.stdout)
					}
					assertNoKeyIn(t, filepath.Join(w.home, ".claude"))
					if b, _ := os.ReadFile(target); string(b) != content {
						t.Errorf("the launcher wrote the program's state over %s: %q", rel, b)
					}
					if !strings.Contains(r.stderr, "is not synced") {
						t.Errorf("no warning that the state is not synced: %q", r.stderr)
					}
				})
			}
		}
	}
}
