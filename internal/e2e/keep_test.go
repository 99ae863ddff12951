//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeptPathSymlink: the private /tmp (<data-dir>/tmp) outlives a run,
// so a program can leave a symlink where the next run puts an
// --allow-socket from the host's /tmp. The init stage must not follow it
// (it used to create the file it names and bind the socket there); it
// refuses to start, naming the path.
func TestKeptPathSymlink(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := "/tmp/ok-" + worldID(w)
			mustMkdir(t, dir)
			t.Cleanup(func() { os.RemoveAll(dir) })
			sock := dir + "/a.sock"
			listenUnix(t, sock)
			// What an earlier run left in its /tmp.
			planted := filepath.Join(w.dataDir, "tmp", filepath.Base(dir))
			mustMkdir(t, planted)
			target := filepath.Join(w.dataDir, "workspace", "made-by-the-init-stage")
			if err := os.Symlink(target, filepath.Join(planted, "a.sock")); err != nil {
				t.Fatal(err)
			}
			chownTree(t, w.home, w.u)
			r := w.run("--allow-socket", sock, "--", "/bin/true")
			if r.code != 125 || !strings.Contains(r.stderr, "in the way") {
				t.Errorf("exit %d, stderr %q: want 125 naming the symlink", r.code, r.stderr)
			}
			if _, err := os.Lstat(target); err == nil {
				t.Errorf("%s was created through the planted symlink", target)
			}
		})
	}
}
