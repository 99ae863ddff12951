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

// TestPrivateTmpUserDataDir: README's way to run a --user (a data dir it
// owns, `install -d -o USER DIR`, which is 0755) made its private /tmp
// 1777 in a directory other users may enter, and every launch warned
// (125 with --fail-closed), advising "a data dir of its own", which it
// had. The /tmp of a data dir the --user owns is now that user's, 0700,
// as its workspace is: nothing said, no other user reads it.
func TestPrivateTmpUserDataDir(t *testing.T) {
	requireRoot(t)
	w := newWorld(t, rootUser)
	data := filepath.Join(w.extra, "svc")
	mustMkdir(t, data)
	os.Chmod(data, 0o755)
	chownTree(t, data, nobody)
	for i := range 2 { // made, then found
		r := w.run("--data-dir", data, "--user", "nobody", "--fail-closed", "--", "/bin/sh", "-c", `umask 022 && echo secret > /tmp/session && echo ran`)
		if r.code != 0 || r.stdout != "ran\n" || strings.Contains(r.stderr, "other users") {
			t.Fatalf("launch %d: exit %d, stdout %q, stderr %q; want it run, nothing said", i, r.code, r.stdout, r.stderr)
		}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(data, "tmp"), &st); err != nil || st.Uid != 65534 || st.Mode&0o7777 != 0o700 {
		t.Errorf("the data dir's tmp: uid %d, mode %o, %v; want nobody's, 0700", st.Uid, st.Mode&0o7777, err)
	}
	other := exec.Command("/bin/cat", filepath.Join(data, "tmp", "session"))
	other.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 12345, Gid: 12345, Groups: []uint32{}}}
	if out, err := other.CombinedOutput(); err == nil {
		t.Errorf("another user read the sandbox's /tmp: %q", out)
	}
}
