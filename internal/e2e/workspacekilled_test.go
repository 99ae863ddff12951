//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWorkspaceOwnerAfterKill: root running a program with --user in a
// data dir of that user's makes the workspace and then gives it to the
// data dir's owner. omega-run killed in between (SIGKILL here at that
// fchown, by strace's injection) left the workspace root's, 0700, and
// every later launch found it there and left it so: the program could
// write nothing in its workspace, and nothing said why. A later launch
// gives an empty workspace of root's away too.
func TestWorkspaceOwnerAfterKill(t *testing.T) {
	strace := needStrace(t)
	w := newWorld(t, rootUser)
	data := filepath.Join(w.home, "data")
	mustMkdir(t, data)
	if err := os.Chown(data, nobody.uid, nobody.gid); err != nil {
		t.Fatal(err)
	}
	os.Chmod(data, 0o700)
	ws := filepath.Join(data, "workspace")
	r := w.under([]string{strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=fchown", "-e", "inject=fchown:signal=KILL"},
		"--data-dir", data, "--user", "nobody", "--", "/bin/true")
	var st syscall.Stat_t
	if err := syscall.Stat(ws, &st); r.code != 137 || err != nil || st.Uid != 0 {
		t.Fatalf("killed at the chown: exit %d, workspace uid %d (%v), stderr %q; want 137 and root's workspace", r.code, st.Uid, err, r.stderr)
	}
	r = w.run("--data-dir", data, "--user", "nobody", "--", "/bin/sh", "-c", `touch "$0/f" && echo wrote`, ws)
	if r.code != 0 || !strings.Contains(r.stdout, "wrote") {
		t.Errorf("next launch: exit %d, stdout %q, stderr %q; want the program to write its workspace", r.code, r.stdout, r.stderr)
	}
}
