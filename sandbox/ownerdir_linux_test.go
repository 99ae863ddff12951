package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMkdirOneSwappedParent: the data dir swapped for a symlink between
// the mkdir and the chmod (by its user, racing root's launch) must not
// have another directory of the same name chmodded: the host's /tmp,
// where the symlink led to /.
func TestMkdirOneSwappedParent(t *testing.T) {
	root := t.TempDir()
	data, moved := filepath.Join(root, "home", ".omega"), filepath.Join(root, "moved")
	decoy := filepath.Join(root, "decoy")
	for _, d := range []string{data, filepath.Join(decoy, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	afterMkdir = func() {
		if err := os.Rename(data, moved); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(decoy, data); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterMkdir = func() {} }()
	if err := mkdirOwnerOnly(filepath.Join(data, "tmp")); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]os.FileMode{
		filepath.Join(decoy, "tmp"): 0o755,
		filepath.Join(moved, "tmp"): 0o700,
	} {
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", dir, got, want)
		}
	}
}
