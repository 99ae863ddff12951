//go:build linux

package e2e

import (
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestElevatedCopyRefused installs copies of omega-run as an admin might
// to get namespaces where users have none — setuid root, setgid root,
// with file capabilities — and runs them as nobody: each must refuse
// before anything runs (else `--mode rwx -- sh` is a root shell for every
// user), also as the init stage called by hand with a spec of the
// caller's. Root running the same copies is not elevated and runs.
func TestElevatedCopyRefused(t *testing.T) {
	requireRoot(t)
	dir := usersDir(t, "elevated-") // all test users may run what is in it
	copies := map[string]func(string) error{
		"setuid": func(p string) error { return unix.Chmod(p, 0o4755) },
		"setgid": func(p string) error { return unix.Chmod(p, 0o2755) },
		"file-caps": func(p string) error {
			return unix.Setxattr(p, "security.capability", netBindCap(), 0)
		},
	}
	for name, install := range copies {
		exe := filepath.Join(dir, name, "omega-run")
		mustMkdir(t, filepath.Dir(exe))
		if err := copyFile(bin, exe); err != nil {
			t.Fatal(err)
		}
		if err := install(exe); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, nobody)
			runs := [][]string{
				{"--mode", "rwx", "--", "id"}, {"--mode", "rx", "--", "id"},
				{"--", "id"}, {"__omega_run_init__"},
			}
			for _, args := range runs {
				r := w.runProg(exe, args...)
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				if r.code != 125 || r.stdout != "" || len(lines) != 1 ||
					!strings.Contains(r.stderr, "privileges its caller does not have") {
					t.Errorf("%v as nobody: status %d, stdout %q, stderr %q; want 125, nothing run, one line",
						args, r.code, r.stdout, r.stderr)
				}
			}
			r := newWorld(t, rootUser).runProg(exe, "--mode", "rwx", "--", "id", "-u")
			if r.code != 0 || strings.TrimSpace(r.stdout) != "0" {
				t.Errorf("root: status %d, stdout %q, stderr %q; want it to run", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// netBindCap is a security.capability value (vfs_cap_data, revision 2)
// granting CAP_NET_BIND_SERVICE, permitted and effective.
func netBindCap() []byte {
	const revision2, effective, netBindService = 0x02000000, 0x1, 10
	b := make([]byte, 20)
	binary.LittleEndian.PutUint32(b[0:], revision2|effective)
	binary.LittleEndian.PutUint32(b[4:], 1<<netBindService)
	return b
}

// TestSwitchedIDsRemedy: a parent that switched only its effective ids
// (root's setpriv --euid, a daemon's seteuid) starts the plain binary,
// which has no bit to chmod away; the kernel sets AT_SECURE for that exec
// as for a setuid one, so the refusal must look at the file to name the
// fix: start it with real and effective ids alike.
func TestSwitchedIDsRemedy(t *testing.T) {
	requireRoot(t)
	w := newWorld(t, rootUser)
	for _, ids := range [][]string{{"--euid", "65534"}, {"--egid", "65534", "--keep-groups"}} {
		args := append(append([]string{}, ids...), bin, "--mode", "rwx", "--", "id")
		r := w.runProg("setpriv", args...)
		if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "start it with its real and effective ids alike") ||
			strings.Contains(r.stderr, "chmod") {
			t.Errorf("setpriv %v: %+v; want 125 and the ids named as the fix, no chmod", ids, r)
		}
	}
}
