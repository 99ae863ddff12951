//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataDirOfAnotherUser: a launch as root reads its config file from
// the data dir and makes its workspace, /tmp and config file there. A data
// dir of a user other than the program's (--user) is that user's to
// steer: its config.toml could ask for rwx, and its owner, by a symlink
// on the way (a --user's data dir in its home, pointed at a third user's
// directory), could have root make a 1777 /tmp there. Refused (125); the
// data dir of the --user, and root's own, still work.
func TestDataDirOfAnotherUser(t *testing.T) {
	w := newWorld(t, rootUser)
	other := filepath.Join(w.extra, "other")
	mustMkdir(t, other)
	os.Chmod(other, 0o700)
	if err := os.Lchown(other, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(other, "config.toml"), "[sandbox]\nmode = \"rwx\"\n")
	os.Lchown(filepath.Join(other, "config.toml"), 12345, 12345)
	r := w.run("--data-dir", other, "--", "/bin/sh", "-c", `echo "$OMEGA_SANDBOX"`)
	if r.code != 125 || !strings.Contains(r.stderr, "belongs to another user") {
		t.Errorf("root, data dir of uid 12345: exit %d, stdout %q, stderr %q; want 125, said", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Lstat(filepath.Join(other, "tmp")); err == nil {
		t.Errorf("root made a tmp in the other user's directory")
	}
	r = w.run("--data-dir", other, "--user", "nobody", "--", "/bin/true")
	if r.code != 125 {
		t.Errorf("--user nobody, data dir of uid 12345: exit %d, stderr %q; want 125", r.code, r.stderr)
	}
	// No config file there: the data dir's owner is what tells.
	bare := filepath.Join(w.extra, "bare")
	mustMkdir(t, bare)
	os.Lchown(bare, 12345, 12345)
	r = w.run("--data-dir", bare, "--user", "nobody", "--", "/bin/true")
	if _, err := os.Lstat(filepath.Join(bare, "tmp")); r.code != 125 || err == nil {
		t.Errorf("--user nobody, bare data dir of uid 12345: exit %d, stderr %q, tmp made %v; want 125 and nothing made", r.code, r.stderr, err == nil)
	}
	mine := filepath.Join(w.extra, "nobody-data")
	mustMkdir(t, mine)
	os.Chmod(mine, 0o700)
	os.Lchown(mine, nobody.uid, nobody.gid)
	if r := w.run("--data-dir", mine, "--user", "nobody", "--", "/bin/true"); r.code != 0 {
		t.Errorf("--user nobody in its own data dir: exit %d, stderr %q", r.code, r.stderr)
	}
}
