package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
