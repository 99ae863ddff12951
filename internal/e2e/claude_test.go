//go:build linux

package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// claudeCache keeps the npm install between runs on the same machine.
const claudeCache = "/var/cache/omega-run-tests/claude-code"

// claudeBinary installs Claude Code from the npm registry once.
func claudeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(claudeCache, "node_modules", ".bin", "claude")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("npm is needed to install Claude Code for this test (apt-get install npm)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	os.MkdirAll(claudeCache, 0o755)
	out, err := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", claudeCache, "@anthropic-ai/claude-code@2").CombinedOutput()
	if err != nil {
		t.Fatalf("installing Claude Code from the npm registry: %v\n%s", err, out)
	}
	return bin
}

var (
	uuidRe  = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	stampRe = regexp.MustCompile(`[0-9]{13}`)
	projRe  = regexp.MustCompile(`^\.claude/projects/[^/]+`)
)

// stateTree lists what is under home, ids and times normalised, with
// sizes where they are deterministic.
func stateTree(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == home {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		if rel == ".omega" || rel == "outside" {
			return filepath.SkipDir // the sandbox's own data dir; the fixture
		}
		name := projRe.ReplaceAllString(stampRe.ReplaceAllString(uuidRe.ReplaceAllString(rel, "ID"), "TS"), ".claude/projects/CWD")
		if d.IsDir() {
			out = append(out, name+"/")
			return nil
		}
		info, _ := d.Info()
		size := fmt.Sprint(info.Size())
		if strings.Contains(rel, "telemetry") || strings.HasPrefix(rel, ".claude/projects/") {
			size = "*" // logs and transcripts hold times and the cwd
		}
		out = append(out, name+" "+size)
		return nil
	})
	slices.Sort(out)
	return out
}

// TestClaudeCodeState: claude --version, --help and -p in a fresh home
// leave the same state confined as unconfined (no login here, so -p
// answers "Not logged in" after writing its state).
func TestClaudeCodeState(t *testing.T) {
	requireRoot(t)
	claude := claudeBinary(t)
	trees := map[string][]string{}
	for _, mode := range []string{"unconfined", "sandbox", "rx"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			w.timeout = 2 * time.Minute
			ws := filepath.Join(w.dataDir, "workspace")
			for _, args := range [][]string{{"--version"}, {"--help"}, {"-p", "hi"}} {
				var r result
				if mode == "unconfined" {
					r = w.runProgIn(ws, claude, args...)
				} else {
					r = w.runIn(ws, append([]string{"--mode", mode, "--", claude}, args...)...)
				}
				if args[0] == "--version" && !strings.Contains(r.stdout, "Claude Code") {
					t.Fatalf("claude --version: exit %d %q %q", r.code, r.stdout, r.stderr)
				}
			}
			trees[mode] = stateTree(t, w.home)
			if !slices.Contains(trees[mode], ".claude.json 341") && !slices.ContainsFunc(trees[mode], func(s string) bool { return strings.HasPrefix(s, ".claude.json ") }) {
				t.Errorf("no ~/.claude.json saved: %v", trees[mode])
			}
		})
	}
	for _, mode := range confinedModes {
		if !slices.Equal(trees[mode], trees["unconfined"]) {
			t.Errorf("%s state differs from unconfined:\n%s\nvs\n%s", mode, strings.Join(trees[mode], "\n"), strings.Join(trees["unconfined"], "\n"))
		}
	}
}

// TestClaudeStateSyncKeepsExisting: an existing ~/.claude.json is used
// confined, updated after, and left alone when it changed meanwhile.
func TestClaudeStateSyncKeepsExisting(t *testing.T) {
	requireRoot(t)
	claude := claudeBinary(t)
	w := newWorld(t, rootUser)
	w.timeout = 2 * time.Minute
	state := filepath.Join(w.home, ".claude.json")
	writeFile(t, state, `{"userID": "existing-user", "numStartups": 41}`)
	w.runIn(w.home, "--", claude, "-p", "hi")
	b, _ := os.ReadFile(state)
	if !strings.Contains(string(b), "existing-user") {
		t.Errorf("confined run lost the existing state: %s", b)
	}
	if w.exists(filepath.Join(w.home, ".claude", ".claude.json")) {
		t.Error("the working copy was left behind after a clean sync")
	}
}

// TestClaudeStatePlanted: a confined run leaves a FIFO where the next
// `omega-run -- claude` reads its working copy (~/.claude is writable and
// ~/.claude.json absent). The next launch used to block on it for ever,
// SIGTERM caught; it must refuse at once, naming the file to remove.
func TestClaudeStatePlanted(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			w.timeout = 20 * time.Second
			fake := filepath.Join(w.extra, "claude") // any program named claude gets the sync
			if err := copyFile("/bin/true", fake); err != nil {
				t.Fatal(err)
			}
			if r := w.sh("sandbox", `mkfifo "$HOME/.claude/.claude.json"`); r.code != 0 {
				t.Fatalf("planting the FIFO: %+v", r)
			}
			r := w.run("--", fake)
			if r.code != 125 || !strings.Contains(r.stderr, ".claude/.claude.json") || !strings.Contains(r.stderr, "remove it") {
				t.Fatalf("launch after the planted FIFO: %+v, want 125 naming the file to remove", r)
			}
		})
	}
}

// TestClaudeStateHuge: a confined run leaves a huge (sparse) working copy
// where the next `omega-run -- claude` starts from it (~/.claude.json
// absent: the copy back refused it). The next launch used to read all of
// it into memory only to check it, and died (or took the machine's
// memory); it must start the program as with a large state, and leave
// the copy back refused. Under prlimit --as, so that a launcher that
// reads does not take the test machine's memory with it.
func TestClaudeStateHuge(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			w.timeout = 20 * time.Second
			fake := filepath.Join(w.extra, "claude") // any program named claude gets the sync
			if err := copyFile("/bin/true", fake); err != nil {
				t.Fatal(err)
			}
			if r := w.sh("sandbox", `truncate -s 1T "$HOME/.claude/.claude.json"`); r.code != 0 {
				t.Skipf("no room for a sparse 1 TiB file here: %+v", r)
			}
			r := w.under([]string{"prlimit", "--as=3000000000"}, "--", fake)
			if r.code != 0 || !strings.Contains(r.stderr, "is not copied back") {
				t.Fatalf("launch after the huge working copy: exit %d, stderr %.400q; want 0, and the copy back refused", r.code, r.stderr)
			}
		})
	}
}
