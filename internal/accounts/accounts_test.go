package accounts

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHome(t *testing.T) {
	dir := t.TempDir()
	saved := PasswdFile
	t.Cleanup(func() { PasswdFile = saved })
	PasswdFile = filepath.Join(dir, "passwd")
	os.WriteFile(PasswdFile, []byte("root:x:0:0:root:/root:/bin/sh\n#c:x:7:7::/c:/bin/sh\nshort:x:9\nalice:x:1000:1000:A, B:/home/alice:/bin/bash\n"), 0o644)
	for _, c := range []struct {
		uid  int
		want string
	}{{0, "/root"}, {1000, "/home/alice"}, {7, ""}, {9, ""}, {4242, ""}} {
		if got := Home(c.uid); got != c.want {
			t.Errorf("Home(%d) = %q, want %q", c.uid, got, c.want)
		}
	}
	PasswdFile = filepath.Join(dir, "none")
	if got := Home(0); got != "" {
		t.Errorf("no passwd file: %q, want none", got)
	}
}
