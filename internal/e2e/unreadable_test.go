//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreadableHidesFromScan: Landlock has no metadata rights, so a
// program may chmod what lies in its writable set. One run made a
// repository's .git (or the directory holding an .envrc, .vscode) mode
// 000; the next launch, of a caller who is not root, could not read it,
// held nothing there read-only, and that run's program changed the mode
// back and wrote .git/config (core.fsmonitor: code the user's next git
// status runs), unreported. Now the launch refuses (125), naming what it
// cannot read. Root reads past modes: its launches were never fooled.
func TestUnreadableHidesFromScan(t *testing.T) {
	for _, c := range []struct{ hidden, mode string }{{".git", "000"}, {".vscode", "000"}, {".", "000"}, {".", "600"}, {".git/modules", "600"}} {
		hidden := c.hidden
		t.Run(hidden+"/"+c.mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			repo := gitRepo(t, w)
			mustMkdir(t, filepath.Join(repo, ".vscode"))
			sub := filepath.Join(repo, ".git", "modules", "lib")
			mustMkdir(t, sub)
			writeFile(t, filepath.Join(sub, "HEAD"), "ref: refs/heads/main\n")
			writeFile(t, filepath.Join(sub, "config"), "[core]\n")
			writeFile(t, filepath.Join(repo, ".vscode", "tasks.json"), "{}\n")
			chownTree(t, w.home, nobody)
			dir := filepath.Join(repo, hidden)
			if r := w.sh("sandbox", "chmod "+c.mode+" "+shQuote(dir), "--allow-write", repo); r.code != 0 {
				t.Fatalf("chmod: exit %d, stderr %q", r.code, r.stderr)
			}
			attack := "chmod 755 " + shQuote(dir) + " && cd " + shQuote(repo) +
				` && printf '[core]\n\tfsmonitor = evil\n' >> .git/config; echo '{"evil":1}' > .vscode/tasks.json; echo evil >> .git/modules/lib/config; exit 0`
			r := w.sh("sandbox", attack, "--allow-write", repo)
			os.Chmod(dir, 0o755)
			if b, _ := os.ReadFile(filepath.Join(repo, ".git", "config")); strings.Contains(string(b), "evil") {
				t.Errorf(".git/config was rewritten (exit %d, stderr %q)", r.code, r.stderr)
			}
			if b, _ := os.ReadFile(filepath.Join(repo, ".vscode", "tasks.json")); strings.Contains(string(b), "evil") {
				t.Errorf(".vscode/tasks.json was rewritten (exit %d, stderr %q)", r.code, r.stderr)
			}
			if b, _ := os.ReadFile(filepath.Join(sub, "config")); strings.Contains(string(b), "evil") {
				t.Errorf("the submodule's config was rewritten (exit %d, stderr %q)", r.code, r.stderr)
			}
			if r.code != 125 || !strings.Contains(r.stderr, "not readable to omega-run") {
				t.Errorf("exit %d, stderr %q; want 125, said", r.code, r.stderr)
			}
		})
	}
}
