package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSameDir(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Mkdir(a, 0o755)
	os.Mkdir(b, 0o755)
	os.Symlink(a, filepath.Join(dir, "link"))
	for _, c := range []struct {
		x, y string
		want bool
	}{{a, a + "/", true}, {a, filepath.Join(dir, "link"), true}, {a, b, false}, {a, filepath.Join(dir, "gone"), false}} {
		if got := sameDir(c.x, c.y); got != c.want {
			t.Errorf("sameDir(%q, %q) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
