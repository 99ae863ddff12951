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
// status runs), unreported. Now what it cannot read is held read-only,
// and said: the mode cannot be changed back. Root reads past modes: its
// launches were never fooled.
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
			if !strings.Contains(r.stderr, "not readable to omega-run") || !strings.Contains(r.stderr, "read-only in this run") {
				t.Errorf("exit %d, stderr %q; want it said", r.code, r.stderr)
			}
		})
	}
}

// TestUnreadableFixtureRuns: a directory of the caller's that nobody may
// read is also what test suites leave (a permission test's fixture, one
// a crashed run did not restore): refusing the launch for it stopped
// every later run in the project. It is held read-only instead, with a
// warning: the program can neither read it nor change its mode back,
// and the rest of the project stays writable.
func TestUnreadableFixtureRuns(t *testing.T) {
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	locked := filepath.Join(repo, "testdata", "locked")
	mustMkdir(t, locked)
	chownTree(t, w.home, nobody)
	os.Chmod(locked, 0o000)
	defer os.Chmod(locked, 0o755)
	r := w.sh("sandbox", "chmod 755 "+shQuote(locked)+"; echo x > "+shQuote(filepath.Join(repo, "out"))+" && echo ran", "--allow-write", repo)
	if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "read-only") {
		t.Errorf("exit %d, stdout %q, stderr %q; want it run, the directory said read-only", r.code, r.stdout, r.stderr)
	}
	if fi, err := os.Stat(locked); err != nil || fi.Mode().Perm() != 0 {
		t.Errorf("the program changed the locked directory's mode: %v, %v", fi.Mode(), err)
	}
}
