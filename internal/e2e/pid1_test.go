//go:build linux

package e2e

import (
	"os"
	"testing"
)

// TestPID1StaysUndumpable: after --user, the program runs as the same uid
// as PID 1, which holds the connect broker's listener: PID 1 must stay
// non-dumpable, or the program could read its memory (ptrace,
// /proc/1/mem, /proc/1/environ). Changing uids makes a process dumpable
// again when fs.suid_dumpable is 1, so the test sets it for its run.
func TestPID1StaysUndumpable(t *testing.T) {
	w := newWorld(t, rootUser)
	const sysctl = "/proc/sys/fs/suid_dumpable"
	old, err := os.ReadFile(sysctl)
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(sysctl, []byte("1"), 0o644); err != nil {
		t.Skipf("cannot set fs.suid_dumpable: %v", err)
	}
	t.Cleanup(func() { os.WriteFile(sysctl, old, 0o644) })
	r := w.run("--user", "nobody", "--", "/bin/sh", "-c",
		`id -u; if cat /proc/1/environ >/dev/null 2>&1; then echo PID 1 readable; else echo PID 1 refused; fi`)
	if r.stdout != "65534\nPID 1 refused\n" {
		t.Errorf("got %q (stderr %q), want the program as nobody and PID 1's environ refused", r.stdout, r.stderr)
	}
}
