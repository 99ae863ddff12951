package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestMkdirHooks: a missing hooks dir is made where the writable root,
// named through the user's symlink, leads; one behind a symlink below the
// root (a program's) is not made, and says so.
func TestMkdirHooks(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "omega-hooks-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	real, elsewhere := filepath.Join(base, "real"), filepath.Join(base, "elsewhere")
	for _, d := range []string{filepath.Join(real, "proj", ".git"), filepath.Join(elsewhere, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(real, "proj", "planted")); err != nil {
		t.Fatal(err)
	}
	g := &gitScan{canon: map[string]string{link: real}}
	g.mkdirHooks(filepath.Join(link, "proj", ".git"))
	if _, err := os.Stat(filepath.Join(real, "proj", ".git", "hooks")); err != nil || len(g.warnings) != 0 {
		t.Errorf("through the user's link: %v, warnings %q", err, g.warnings)
	}
	g.mkdirHooks(filepath.Join(link, "proj", "planted", ".git"))
	if _, err := os.Stat(filepath.Join(elsewhere, ".git", "hooks")); err == nil {
		t.Error("made a hooks dir through a symlink below the writable root")
	}
	if len(g.warnings) != 1 || !strings.Contains(g.warnings[0], "cannot make the missing") {
		t.Errorf("warnings %q, want one about the hooks dir", g.warnings)
	}
}

// TestHoldThroughLink: a redirect reached through a symlink below its
// writable root is held where it leads, with a warning (the program can
// re-point the link); one below a root named through the user's symlink
// is held without one.
func TestHoldThroughLink(t *testing.T) {
	base, err := os.MkdirTemp("/var/tmp", "omega-hold-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	real, link := filepath.Join(base, "real"), filepath.Join(base, "link")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "sub", "cfg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(real, "planted")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(real, "sub", "cfg")
	for _, c := range []struct {
		named string
		warn  bool
	}{
		{filepath.Join(link, "sub", "cfg"), false},
		{filepath.Join(link, "planted", "cfg"), true},
	} {
		g := &gitScan{canon: map[string]string{link: real}, roots: []string{link, real}}
		out := g.hold(nil, c.named, "an include")
		if len(out) != 1 || out[0] != want || (len(g.warnings) == 1) != c.warn {
			t.Errorf("hold(%s) = %q, warnings %q; want %s held, warned: %v", c.named, out, g.warnings, want, c.warn)
		}
	}
}

// TestReadFileAt: only a regular file of bounded size is read; a FIFO
// with a writer waiting is not opened (the writer stays blocked), and a
// symlink is not followed.
func TestReadFileAt(t *testing.T) {
	dir := t.TempDir()
	reg, fifo, link, big := filepath.Join(dir, "reg"), filepath.Join(dir, "fifo"), filepath.Join(dir, "link"), filepath.Join(dir, "big")
	os.WriteFile(reg, []byte("[core]\n"), 0o644)
	os.WriteFile(big, make([]byte, 100), 0o644)
	os.Symlink(reg, link)
	opened := blockedFIFO(t, fifo)
	if b, err := readFileAt(reg, true, 64); err != nil || string(b) != "[core]\n" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	for _, p := range []string{fifo, link, big} {
		if _, err := readFileAt(p, false, 64); err == nil {
			t.Errorf("%s was read", p)
		}
	}
	if opened() {
		t.Error("the FIFO's writer was released")
	}
}

// TestRunsLaterClaudeData: in ~/.claude the scan skips Claude Code's
// records of past sessions (thousands of directories for a heavy user)
// but still holds what runs later there, such as a plugin marketplace's
// git clone, which Claude Code pulls.
func TestRunsLaterClaudeData(t *testing.T) {
	home := t.TempDir()
	pol := profiles.Policy{Home: home}
	claude := pol.ClaudeDir()
	pol.Writable = []string{claude}
	clone := filepath.Join(claude, "plugins", "marketplaces", "m", ".git")
	session := filepath.Join(claude, "file-history", "s1")
	for _, d := range []string{filepath.Join(clone, "hooks"), filepath.Join(session, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range []string{clone, filepath.Join(session, ".git")} {
		os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	}
	os.WriteFile(filepath.Join(session, ".envrc"), nil, 0o644)
	protect, _ := runsLater(pol, nil, pol.Writable, false)
	if !slices.Contains(protect, filepath.Join(clone, "hooks")) {
		t.Errorf("the plugin clone's hooks are not held: %q", protect)
	}
	for _, p := range protect {
		if strings.HasPrefix(p, session) {
			t.Errorf("scanned a session record: %s", p)
		}
	}
}
