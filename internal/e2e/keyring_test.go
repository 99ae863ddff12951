//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestSessionKeyring: the kernel's keyrings are not namespaced, and a
// process inherits its parent's session keyring, whose keys (a Kerberos
// KEYRING: cache, ecryptfs and cifs credentials) any process holding it
// may read. The built-in seccomp profiles refuse keyctl; sandbox mode
// also gives the program a new session keyring, so that keys stay out of
// reach with --seccomp none or a custom profile that allows keyctl. rx
// hides nothing: with such a profile it reads them. rwx is the control.
func TestSessionKeyring(t *testing.T) {
	cases := []struct {
		mode, seccomp string
		reads         bool
	}{
		{"rwx", "none", true},
		{"rx", "default", false},
		{"rx", "none", true},
		{"sandbox", "default", false},
		{"sandbox", "none", false},
	}
	for _, u := range users {
		for _, c := range cases {
			t.Run(u.name+"/"+c.mode+"/"+c.seccomp, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(probe, "with-session-key", "omega-e2e", "KEYSECRET",
					bin, "--mode", c.mode, "--seccomp", c.seccomp, "--", probe, "read-session-key", "omega-e2e")
				if got := strings.Contains(r.stdout, "KEYSECRET"); got != c.reads {
					t.Errorf("read the caller's session key: %v, want %v; stdout %q, stderr %q", got, c.reads, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestSessionKeyringCallerFilter: a caller whose own seccomp filter refuses
// keyctl (Docker's and flatpak's profiles answer EPERM, a kernel without
// keyrings ENOSYS) passes that filter on to the program, which therefore
// cannot read any key: the launch says nothing about the keyring and runs
// the program. Only a filter that kills on keyctl would end it.
func TestSessionKeyringCallerFilter(t *testing.T) {
	const sysKeyctl = "250" // x86_64
	for _, u := range users {
		for _, c := range []struct{ errno, seccomp string }{{"1", "none"}, {"13", "none"}, {"38", "none"}, {"1", "default"}} {
			errno := c.errno
			t.Run(u.name+"/"+errno+"/"+c.seccomp, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(probe, "seccomp-exec", sysKeyctl+"="+errno,
					bin, "--mode", "sandbox", "--seccomp", c.seccomp, "--", "/bin/echo", "ran")
				if r.code != 0 || r.stdout != "ran\n" || strings.Contains(r.stderr, "session keyring") {
					t.Errorf("keyctl refused (errno %s) around omega-run: exit %d, stdout %q, stderr %q; want it run without a keyring warning", errno, r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestSessionKeyringCallerKillFilter: a filter around omega-run that kills
// on keyctl (systemd's SystemCallFilter=~@keyring without
// SystemCallErrorNumber=). Under the built-in profiles, which refuse
// keyctl to the program, the init stage makes no keyctl call and the
// program runs; with --seccomp none it must join a new keyring, is killed
// doing so, and the launch says so in one line and exits 125, omega-run's
// own failure, not 159, which reads as the program's SIGSYS.
func TestSessionKeyringCallerKillFilter(t *testing.T) {
	const sysKeyctl = "250" // x86_64
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			// The built-in profiles refuse keyctl to the program: the init
			// stage leaves the keyring alone, and a systemd unit's
			// SystemCallFilter=~@keyring (kill) does not end the launch.
			r := w.runProg(probe, "seccomp-exec", sysKeyctl+"=kill",
				bin, "--mode", "sandbox", "--", "/bin/echo", "ran")
			if r.code != 0 || r.stdout != "ran\n" {
				t.Errorf("keyctl kills around omega-run, default profile: exit %d, stdout %q, stderr %q; want the program to run", r.code, r.stdout, r.stderr)
			}
			r = w.runProg(probe, "seccomp-exec", sysKeyctl+"=kill",
				bin, "--mode", "sandbox", "--seccomp", "none", "--", "/bin/echo", "ran")
			if r.code != 125 || !strings.Contains(r.stderr, "omega-run: ") || !strings.Contains(r.stderr, "SIGSYS") {
				t.Errorf("keyctl kills around omega-run, --seccomp none: exit %d, stdout %q, stderr %q; want 125 and a line naming SIGSYS", r.code, r.stdout, r.stderr)
			}
			// The control: a program killed by SIGSYS is still 128+31.
			r = w.runProg(bin, "--mode", "sandbox", "--", "/bin/sh", "-c", "kill -SYS $$")
			if r.code != 159 || strings.Contains(r.stderr, "SIGSYS") {
				t.Errorf("program killed by SIGSYS: exit %d, stderr %q; want 159 and nothing said", r.code, r.stderr)
			}
		})
	}
}

// TestSessionKeyringJoinRefusedWarned: where only the new session keyring
// is refused (keyctl(KEYCTL_JOIN_SESSION_KEYRING) fails, here with
// EDQUOT, while keyctl itself works), the program keeps the caller's, and
// both init stages say so in the same words; the C one's gave the C
// library's error text ("Disk quota exceeded").
func TestSessionKeyringJoinRefusedWarned(t *testing.T) {
	const joinRefused = "250:1=122" // x86_64 keyctl, KEYCTL_JOIN_SESSION_KEYRING: EDQUOT
	const want = "the program keeps your session keyring (keyctl: disk quota exceeded); a seccomp profile that allows keyctl lets it read the keys there"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(probe, "seccomp-exec", joinRefused, b, "--mode", "sandbox", "--seccomp", "none", "--", "/bin/echo", "ran")
				if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "omega-run: warning: "+want+"\n") {
					t.Errorf("exit %d, stdout %q, stderr %q; want the program run and %q said", r.code, r.stdout, r.stderr, want)
				}
			})
		}
	}
}
