package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAccountHome(t *testing.T) {
	dir := t.TempDir()
	saved := passwdFile
	t.Cleanup(func() { passwdFile = saved })
	passwdFile = filepath.Join(dir, "passwd")
	os.WriteFile(passwdFile, []byte("root:x:0:0:root:/root:/bin/sh\n#c:x:7:7::/c:/bin/sh\nshort:x:9\nalice:x:1000:1000:A, B:/home/alice:/bin/bash\n"), 0o644)
	for _, c := range []struct {
		uid  int
		want string
	}{{0, "/root"}, {1000, "/home/alice"}, {7, ""}, {9, ""}, {4242, ""}} {
		if got := accountHome(c.uid); got != c.want {
			t.Errorf("accountHome(%d) = %q, want %q", c.uid, got, c.want)
		}
	}
	passwdFile = filepath.Join(dir, "none")
	if got := accountHome(0); got != "" {
		t.Errorf("no passwd file: %q, want none", got)
	}
}

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
