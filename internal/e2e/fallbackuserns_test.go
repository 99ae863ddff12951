//go:build linux

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestFallbackUsernsErrnos: each way clone(CLONE_NEWUSER) fails gets the
// fallback, a warning naming its cause and fix, Landlock still stopping
// the write, and 125 with --fail-closed: ENOSPC (the limit is 0 or used
// up), EPERM (a filter or LSM), EINVAL (a kernel built without user
// namespaces, which no sysctl fixes: it was told to run one).
func TestFallbackUsernsErrnos(t *testing.T) {
	for _, c := range []struct{ errno, said, notSaid string }{
		{"28", "the kernel's limit user.max_user_namespaces is 0 or used up", ""},
		{"1", "a seccomp filter around omega-run refuses them", ""},
		{"22", "without user namespaces (CONFIG_USER_NS)", "sysctl"},
	} {
		for _, u := range users {
			t.Run(c.errno+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				wrap := []string{probe, "refuse-userns", c.errno}
				r := w.under(wrap, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
				if r.stdout != "ran\n" || !strings.Contains(r.stderr, "user namespaces are unavailable") || !strings.Contains(r.stderr, c.said) ||
					(c.notSaid != "" && strings.Contains(r.stderr, c.notSaid)) {
					t.Errorf("stdout %q, stderr %q; want the program run and a warning saying %q (not %q)", r.stdout, r.stderr, c.said, c.notSaid)
				}
				if w.sentinel() != "original" {
					t.Error("the write went through: Landlock must still confine")
				}
				r = w.under(wrap, "--fail-closed", "--", "/bin/sh", "-c", "echo ran")
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed: user namespaces are unavailable") {
					t.Errorf("--fail-closed: exit %d stdout %q stderr %q; want 125 and why", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestFallbackNoProc: where no /proc is mounted at all (a minimal
// container) the id maps cannot be written either; the warning said
// "/proc is not this pid namespace's", which sends the reader looking for
// a pid namespace. It says that none is mounted, and how to mount one.
func TestFallbackNoProc(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			script := fmt.Sprintf(`umount -l /proc && exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, u.uid, u.gid)
			asRoot := *w
			asRoot.u = rootUser // the wrapper unmounts; setpriv makes the caller u again
			r := asRoot.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
				bin, "--", "/bin/sh", "-c", `echo pwned > "$0"; echo ran`, w.outside+"/sentinel")
			if r.stdout != "ran\n" || !strings.Contains(r.stderr, "no /proc is mounted") || !strings.Contains(r.stderr, "mount a /proc") {
				t.Errorf("stdout %q, stderr %q; want the program run and the missing /proc said", r.stdout, r.stderr)
			}
			// Without namespaces nothing is masked (the fallback's second
			// warning says what stays open): the gaps of the masks are moot.
			if strings.Contains(r.stderr, "a datagram sent to a host socket") {
				t.Errorf("a gap of the socket masks, which the fallback does not have, was said: %q", r.stderr)
			}
			if w.sentinel() != "original" {
				t.Error("the write went through: Landlock must still confine")
			}
		})
	}
}

// TestEarlyStartForeignProc: in a /proc of another pid namespace the
// early start's /proc/<pid> of its init stage names another process. When
// that one has a user namespace of its own with no id maps yet, the maps
// were written to it, the start looked ready, and the launch relied on
// the launcher's own look at /proc. Here it is a process the caller
// owns: its maps stay unwritten, and the fallback names the /proc.
func TestEarlyStartForeignProc(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			asRoot := *w
			asRoot.u = rootUser // unshare -p needs root; setpriv makes the caller u again
			as := fmt.Sprintf("setpriv --reuid=%d --regid=%d --clear-groups", u.uid, u.gid)
			// pids 2 and 3 in a pid namespace with its own /proc, each in
			// a user namespace of its own; the launcher in a pid namespace
			// below, whose init stage is pid 3 there.
			script := as + ` unshare -U sleep 60 & ` + as + ` unshare -U sleep 60 &
own() { [ "$(readlink /proc/$1/ns/user)" != "$(readlink /proc/1/ns/user)" ]; }
until own 2 && own 3; do :; done
unshare -pf ` + as + ` "$@"
echo "maps: $(cat /proc/2/uid_map /proc/3/uid_map)"`
			r := asRoot.runProg("unshare", "-m", "-p", "-f", "--mount-proc", "/bin/sh", "-c", script, "sh",
				bin, "--", "/bin/sh", "-c", "echo ran")
			if r.stdout != "ran\nmaps: \n" || !strings.Contains(r.stderr, "/proc is not this pid namespace's") {
				t.Errorf("want the program run, the /proc cause named and no id map written: %+v", r)
			}
		})
	}
}
