//go:build linux

package e2e

import (
	"fmt"
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

// TestUnreadableManyFallbackWords: past maxReported directories the scan
// may not read, the list ends "and N more directories the scan may not
// read, read-only in this run". The fallback without namespaces, which
// makes no read-only mounts, drops the list's lines, but said that one:
// the program wrote in them all (chmod first). It says neither now; the
// control, with namespaces, says both, and they hold there.
func TestUnreadableManyFallbackWords(t *testing.T) {
	const more = "and 2 more directories the scan may not read"
	w := newWorld(t, nobody)
	repo := gitRepo(t, w)
	var locked []string
	for i := 0; i < 12; i++ {
		d := filepath.Join(repo, "testdata", fmt.Sprintf("locked%02d", i))
		mustMkdir(t, d)
		locked = append(locked, d)
	}
	chownTree(t, w.home, nobody)
	lock := func() {
		for _, d := range locked {
			os.Chmod(d, 0o000)
		}
	}
	t.Cleanup(func() {
		for _, d := range locked {
			os.Chmod(d, 0o755)
		}
	})
	script := "chmod 755 " + shQuote(locked[11]) + " && echo x > " + shQuote(filepath.Join(locked[11], "f")) + " && echo wrote; echo ran"
	lock()
	r := w.run("--allow-write", repo, "--", "/bin/sh", "-c", script)
	if r.stdout != "ran\n" || !strings.Contains(r.stderr, more+", read-only in this run") {
		t.Fatalf("control: exit %d, stdout %q, stderr %q; want the directories read-only, and the rest counted", r.code, r.stdout, r.stderr)
	}
	lock()
	r = w.runProg(probe, "refuse-userns", "1", bin, "--allow-write", repo, "--", "/bin/sh", "-c", script)
	if r.stdout != "wrote\nran\n" || !strings.Contains(r.stderr, "user namespaces are unavailable") ||
		strings.Contains(r.stderr, "read-only in this run") || strings.Contains(r.stderr, more) {
		t.Errorf("fallback: exit %d, stdout %q, stderr %q; want the write done and no word of directories read-only", r.code, r.stdout, r.stderr)
	}
}
