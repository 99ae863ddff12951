//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStaleRelayOthers: an rx service under systemd (Type=notify, cgroup
// limits) makes its notify relay in the host's /tmp, and first removes
// the relays that killed launches left there. Any local user could leave
// a directory of that name, with a file where the socket goes, for root
// to remove recursively at every start (a million files: minutes). Only
// the launcher's own, or its --user's, are removed now.
func TestStaleRelayOthers(t *testing.T) {
	w := newWorld(t, rootUser)
	_, path := notifySocket(t, w)
	// Short: the relay's socket address must fit.
	tmp, err := os.MkdirTemp("/var/tmp", "r")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	os.Chmod(tmp, 0o1777)
	planted := filepath.Join(tmp, "omega-notify-0123456789abcdef")
	mustMkdir(t, filepath.Join(planted, "tree"))
	writeFile(t, filepath.Join(planted, "notify"), "")
	if err := os.Lchown(planted, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	r := w.runWith([]string{"NOTIFY_SOCKET=" + path, "TMPDIR=" + tmp}, nil, "/bin/sh",
		"-c", `export SYSTEMD_EXEC_PID=$$; exec "$@"`, "sh", bin, "--mode", "rx", "--pids", "64", "--", "/bin/true")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Lstat(filepath.Join(planted, "tree")); err != nil {
		t.Errorf("another user's directory was removed: %v", err)
	}
	// The launcher's own stale relay still goes.
	own := filepath.Join(tmp, "omega-notify-fedcba9876543210")
	mustMkdir(t, own)
	writeFile(t, filepath.Join(own, "notify"), "")
	r = w.runWith([]string{"NOTIFY_SOCKET=" + path, "TMPDIR=" + tmp}, nil, "/bin/sh",
		"-c", `export SYSTEMD_EXEC_PID=$$; exec "$@"`, "sh", bin, "--mode", "rx", "--pids", "64", "--", "/bin/true")
	if _, err := os.Lstat(own); err == nil {
		t.Errorf("the launcher's own stale relay %s stayed (exit %d, stderr %q)", own, r.code, r.stderr)
	}
}
