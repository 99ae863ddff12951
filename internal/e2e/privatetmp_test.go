//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPrivateTmpOtherUsers: a data dir that other users may enter (a
// unit's StateDirectory=, 0755, as README's Servers section has it; a
// ~/.omega made by hand) made sandbox mode's private /tmp, 1777, theirs
// too: they read what the program left there and planted links in it.
// Without --user it is the caller's alone now (0700); with a --user that
// needs the 1777, the launch says so (125 with --fail-closed).
func TestPrivateTmpOtherUsers(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			data := filepath.Join(w.extra, "svc")
			mustMkdir(t, data)
			os.Chmod(data, 0o755)
			chownTree(t, data, u)
			r := w.run("--data-dir", data, "--", "/bin/sh", "-c", `umask 022 && echo secret > /tmp/session && echo ran`)
			if r.code != 0 || r.stdout != "ran\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			other := exec.Command("/bin/cat", filepath.Join(data, "tmp", "session"))
			other.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 12345, Gid: 12345, Groups: []uint32{}}}
			if out, err := other.CombinedOutput(); err == nil {
				t.Errorf("another user read the sandbox's /tmp: %q", out)
			}
			if u.uid != 0 {
				return
			}
			r = w.run("--data-dir", data, "--user", "nobody", "--fail-closed", "--", "/bin/echo", "ran")
			if r.code != 125 || !strings.Contains(r.stderr, "other users") {
				t.Errorf("--user: exit %d, stdout %q, stderr %q; want 125, said", r.code, r.stdout, r.stderr)
			}
			// A data dir closed again: the --user gets its 1777 /tmp back.
			os.Chmod(data, 0o700)
			r = w.run("--data-dir", data, "--user", "nobody", "--fail-closed", "--", "/bin/sh", "-c", `echo x > /tmp/x && echo ran`)
			if r.code != 0 || r.stdout != "ran\n" {
				t.Errorf("--user, data dir 0700: exit %d, stdout %q, stderr %q; want /tmp writable", r.code, r.stdout, r.stderr)
			}
		})
	}
}
