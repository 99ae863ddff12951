//go:build linux

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// The tests here run omega-run as a systemd unit with hardening
// directives would (README, Servers): systemd is not PID 1 here, so each
// simulates the directive's effect on the kernel's side.

// TestUnitProcSubsetKept: a unit's ProcSubset=pid hides /proc's files
// about the system (/proc/sys, cpuinfo, ...) and ProtectProc=invisible
// other users' processes; the sandbox's fresh /proc must hide no less
// than the /proc omega-run was given (it showed all of it again). Also
// with an empty source, an empty field of mountinfo, which the C init
// stage's reading collapsed, missing the proc.
func TestUnitProcSubsetKept(t *testing.T) {
	const prog = "test -e /proc/sys/kernel && echo sys; test -e /proc/cpuinfo && echo cpuinfo; test -e /proc/self/status && echo self; grep -c ' /proc .* proc proc .*subset=pid' /proc/self/mountinfo"
	for name, src := range map[string]string{"proc": "proc", "empty source": `""`} {
		script := "mount -t proc -o hidepid=invisible,subset=pid " + src + " /proc"
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				r := underRootWrapper(w, script, "--", "/bin/sh", "-c", prog)
				if r.code == 99 {
					t.Skip("cannot mount a proc with subset=pid here")
				}
				if r.code != 0 || !strings.HasPrefix(r.stdout, "self\n") {
					t.Fatalf("%+v; want the program run with only /proc's pid part in sight", r)
				}
			})
		}
	}
}

// TestUnitNoCapabilities: root with an empty capability bounding set
// (CapabilityBoundingSet=) cannot map uid 0 into a user namespace (that
// needs CAP_SETFCAP); the fallback must name the missing capabilities
// and the directive, not the sysctls (which it blamed), and --fail-closed
// refuses with the same words.
func TestUnitNoCapabilities(t *testing.T) {
	const sign = "root without CAP_SETUID, CAP_SETGID and CAP_SETFCAP cannot map its ids into them (a unit's CapabilityBoundingSet="
	w := newWorld(t, rootUser)
	wrap := []string{"setpriv", "--bounding-set", "-all", "--inh-caps", "-all", "--ambient-caps", "-all"}
	fallsBackSaying(t, w, wrap, sign)
	r := w.under(wrap, "--user", "nobody", "--", "/bin/true")
	if r.code != 125 || !strings.Contains(r.stderr, "without CAP_SETUID") {
		t.Errorf("--user: %+v; want 125 and the missing capability named", r)
	}
}

// fallsBackSaying checks that omega-run under wrap runs the program in a
// fallback whose warning says sign (and no sysctl, which would not
// apply), and that --fail-closed refuses with the same words.
func fallsBackSaying(t *testing.T, w *world, wrap []string, sign string) {
	t.Helper()
	r := w.under(wrap, "--", "/bin/echo", "ran")
	if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, sign) || strings.Contains(r.stderr, "sysctl") {
		t.Errorf("%+v; want the fallback run and %q said, no sysctl", r, sign)
	}
	r = w.under(wrap, "--fail-closed", "--", "/bin/echo", "ran")
	if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, sign) {
		t.Errorf("--fail-closed: %+v; want 125 and why", r)
	}
}

// TestUnitRestrictNamespaces: a unit's RestrictNamespaces= refuses every
// namespace with EPERM through a seccomp filter; the fallback must name
// that filter, not the sysctls that do not apply, and --fail-closed
// refuses with the same words.
func TestUnitRestrictNamespaces(t *testing.T) {
	const sign = "a seccomp filter around omega-run refuses them (systemd's RestrictNamespaces="
	wrap := []string{probe, "restrict-namespaces"}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			fallsBackSaying(t, newWorld(t, u), wrap, sign)
		})
	}
}

// TestUnitSeccompRefused: SystemCallFilter=@system-service with
// SystemCallErrorNumber=EPERM lacks seccomp(2); the launch ends with 125
// and a line naming the filter around omega-run and the call to allow.
func TestUnitSeccompRefused(t *testing.T) {
	const sign = "a seccomp filter around omega-run refuses it (systemd's SystemCallFilter=: allow seccomp)"
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.under([]string{probe, "seccomp-exec", "317=1"}, "--mode", mode, "--", "/bin/echo", "ran")
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, sign) {
					t.Errorf("%+v; want 125 and %q", r, sign)
				}
			})
		}
	}
}

// TestUnitSystemCallFilterKills: SystemCallFilter=@system-service kills
// (SIGSYS) on seccomp(2) and Landlock's calls unless the unit sets
// SystemCallErrorNumber=; omega-run died of it with nothing said (its
// seccomp library calls seccomp(2) before main), in every mode. It must
// end with 125 and a line naming the calls to allow.
func TestUnitSystemCallFilterKills(t *testing.T) {
	const sign = "a seccomp filter around omega-run kills it on seccomp landlock_create_ruleset (systemd's SystemCallFilter="
	wrap := []string{probe, "seccomp-exec", "317=kill," + sysLandlockCreateRuleset + "=kill"}
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.under(wrap, "--mode", mode, "--", "/bin/echo", "ran")
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, sign) {
					t.Errorf("%+v; want 125 and %q", r, sign)
				}
			})
		}
	}
	// The check runs before the CLI's early start (constructor priority),
	// which cloned an init stage that was left behind as two orphans.
	for _, u := range users {
		w := newWorld(t, u)
		r := w.runProg(probe, append([]string{"subreaper"}, append(wrap, bin, "--", "/bin/echo", "ran")...)...)
		if !strings.Contains(r.stdout, "exit 125\n") || r.code != 0 {
			t.Errorf("%s: %+v; want 125 and nothing left behind", u.name, r)
		}
	}
	// A caller that ignores SIGCHLD (inherited across exec) left the
	// check no status to read: omega-run died of SIGSYS, nothing said.
	ignored := []string{probe, "seccomp-exec", sysLandlockCreateRuleset + "=kill", probe, "with-signals", "17", "-"}
	for _, u := range users {
		w := newWorld(t, u)
		r := w.under(ignored, "--mode", "rx", "--", "/bin/echo", "ran")
		if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "kills it on landlock_create_ruleset") {
			t.Errorf("%s, SIGCHLD ignored: %+v; want 125 and the call named", u.name, r)
		}
	}
	// Allowed those, sandbox mode's init stage is killed on mount next.
	const mountSign = "such as mount and mount_setattr for its mounts (systemd: SystemCallFilter=@mount)"
	for _, u := range users {
		w := newWorld(t, u)
		r := w.under([]string{probe, "seccomp-exec", sysMount + "=kill"}, "--", "/bin/echo", "ran")
		if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, mountSign) {
			t.Errorf("%s, mount killed: %+v; want 125 and %q", u.name, r, mountSign)
		}
	}
	// --hostname needs sethostname, which @system-service lacks too (it
	// is @privileged's): named where it was asked for.
	const hostSign = "sethostname for --hostname (systemd: SystemCallFilter=sethostname)"
	for _, u := range users {
		w := newWorld(t, u)
		r := w.under([]string{probe, "seccomp-exec", "170=kill"}, "--hostname", "box", "--", "/bin/echo", "ran")
		if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, hostSign) {
			t.Errorf("%s, sethostname killed: %+v; want 125 and %q", u.name, r, hostSign)
		}
		if r := w.under([]string{probe, "seccomp-exec", sysMount + "=kill"}, "--", "/bin/echo", "ran"); strings.Contains(r.stderr, "sethostname") {
			t.Errorf("%s, mount killed without --hostname: %q names sethostname", u.name, r.stderr)
		}
	}
}

// TestUnitMountRefusedNamed: SystemCallFilter=@system-service with
// SystemCallErrorNumber=EPERM refuses mount; the fallback's warning named
// only Ubuntu's AppArmor as the fix, and must name the filter too.
func TestUnitMountRefusedNamed(t *testing.T) {
	const sign = "a seccomp filter around omega-run may refuse mount (systemd's SystemCallFilter= without @mount: add it)"
	wrap := []string{probe, "seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1"}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.under(wrap, "--", "/bin/echo", "ran")
			if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "mount namespace unusable") || !strings.Contains(r.stderr, sign) {
				t.Errorf("%+v; want the fallback run and %q", r, sign)
			}
		})
	}
}

// TestUnitCgroupsReadOnly: a unit's ProtectControlGroups= mounts the
// cgroup file system read-only; --pids then ends the launch (125) with
// that cause and its fix, not with "needs root" to a root caller.
func TestUnitCgroupsReadOnly(t *testing.T) {
	const script = `mount --rbind /sys/fs/cgroup /sys/fs/cgroup &&
for m in $(awk '$5 ~ "^/sys/fs/cgroup" {print $5}' /proc/self/mountinfo); do mount -o remount,bind,ro "$m" || exit 99; done`
	w := newWorld(t, rootUser)
	for _, mode := range []string{"sandbox", "rx"} {
		r := underRootWrapper(w, script, "--mode", mode, "--pids", "64", "--", "/bin/echo", "ran")
		if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "ProtectControlGroups=") || strings.Contains(r.stderr, "needs root") {
			t.Errorf("%s: %+v; want 125, ProtectControlGroups= named and no word of root", mode, r)
		}
	}
}

// TestUnitProcSubsetCountsSaid: under a unit's ProcSubset=pid the /proc
// omega-run is given has no /proc/sys, through which the sandbox's share
// of the per-user inotify, fanotify and namespace counts is set; every
// count was skipped as one this kernel lacks, with nothing said, and
// --fail-closed ran. It must be said as for a read-only /proc/sys.
func TestUnitProcSubsetCountsSaid(t *testing.T) {
	const script = "mount -t proc -o subset=pid proc /proc"
	const sign = "may use up your user's inotify, fanotify and namespace limits, which your programs outside share (/proc/sys is missing"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := underRootWrapper(w, script, "--", "/bin/echo", "ran")
			if r.code == 99 {
				t.Skip("cannot mount a proc with subset=pid here")
			}
			if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, sign) || !strings.Contains(r.stderr, "ProcSubset=pid") {
				t.Errorf("%+v; want the program run and %q said", r, sign)
			}
			r = underRootWrapper(w, script, "--fail-closed", "--", "/bin/echo", "ran")
			// The Go init stage may refuse first on /proc/net/unix, missing too.
			if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed: ") {
				t.Errorf("--fail-closed: %+v; want 125 and why", r)
			}
		})
	}
}

// TestUnitCheckNamesCause: check under a unit's RestrictNamespaces= or,
// for root, an empty CapabilityBoundingSet= said only "operation not
// permitted" for namespaces, where a launch names the directive and its
// fix; check must name them too.
func TestUnitCheckNamesCause(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.under([]string{probe, "restrict-namespaces"}, "check")
			if !strings.Contains(r.stdout, "namespaces:      no") || !strings.Contains(r.stdout, "RestrictNamespaces=user mnt pid ipc uts") {
				t.Errorf("%+v; want namespaces: no, the filter and its fix named", r)
			}
		})
	}
	w := newWorld(t, rootUser)
	r := w.under([]string{"setpriv", "--bounding-set", "-all", "--inh-caps", "-all", "--ambient-caps", "-all"}, "check")
	if !strings.Contains(r.stdout, "namespaces:      no") || !strings.Contains(r.stdout, "add CAP_SETUID CAP_SETGID CAP_SETFCAP to CapabilityBoundingSet=") {
		t.Errorf("no capabilities: %+v; want namespaces: no, the directive and its fix named", r)
	}
}

// TestUnitRestrictAddressFamilies: a unit's RestrictAddressFamilies=
// fails socket(2) for families it does not list with EAFNOSUPPORT;
// sandbox mode's --net none brought loopback up on an inet socket and,
// with AF_INET left out, ended with 125 and that errno. Every mode and
// network must run, --net none with loopback up.
func TestUnitRestrictAddressFamilies(t *testing.T) {
	for _, u := range users {
		for _, fams := range []string{"AF_UNIX", "AF_UNIX,AF_NETLINK", "AF_UNIX,AF_INET,AF_INET6"} {
			t.Run(u.name+"/"+fams, func(t *testing.T) {
				w := newWorld(t, u)
				wrap := []string{probe, "restrict-families", fams}
				r := w.under(wrap, "--net", "none", "--", probe, "loopback-up")
				if r.code != 0 || r.stdout != "ok\n" {
					t.Errorf("sandbox, --net none: %+v; want the program run with lo up", r)
				}
				for _, args := range [][]string{{"--mode", "sandbox"}, {"--net", "none"}, {"--mode", "rx"}, {"--mode", "rx", "--net", "none"}, {"--mode", "rwx"}} {
					r := w.under(wrap, append(args, "--", "/bin/echo", "ran")...)
					if r.code != 0 || r.stdout != "ran\n" {
						t.Errorf("%q: %+v; want the program run", args, r)
					}
				}
			})
		}
	}
}

// TestUnitRestrictAddressFamiliesNoneForLoopback: a list without
// AF_INET, AF_INET6 and AF_UNIX leaves loopback down under --net none
// (no socket to bring it up on, and none for the program to use it);
// the launch runs.
func TestUnitRestrictAddressFamiliesNoneForLoopback(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			wrap := []string{probe, "restrict-families", "AF_NETLINK"}
			if r := w.under(wrap, "--net", "none", "--", probe, "loopback-up"); r.code == 0 || !strings.Contains(r.stdout, "lo is down") {
				t.Errorf("--net none: %+v; want lo down", r)
			}
			if r := w.under(wrap, "--net", "none", "--", "/bin/echo", "ran"); r.code != 0 || r.stdout != "ran\n" {
				t.Errorf("--net none: %+v; want the program run", r)
			}
		})
	}
}

// TestUnitChrootNotFilter: in a chroot the kernel refuses user namespaces
// with EPERM, as a filter or an LSM may; a filter around omega-run that
// leaves namespaces alone (a unit's RestrictAddressFamilies=) was named
// as the cause all the same, and its fix (RestrictNamespaces=) given.
func TestUnitChrootNotFilter(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := filepath.Join(filepath.Dir(w.home), "chroot")
			mustMkdir(t, dir)
			script := fmt.Sprintf(`mount --rbind / %[1]s || exit 99
exec /usr/sbin/chroot %[1]s setpriv --reuid=%[2]d --regid=%[2]d --clear-groups "$@"`, dir, u.uid)
			asRoot := *w
			asRoot.u = rootUser
			r := asRoot.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
				probe, "restrict-families", "AF_UNIX,AF_INET,AF_INET6", bin, "--", "/bin/echo", "ran")
			if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "user namespaces are unavailable") ||
				strings.Contains(r.stderr, "seccomp filter") || strings.Contains(r.stderr, "RestrictNamespaces=") {
				t.Errorf("%+v; want the fallback run, no filter named", r)
			}
		})
	}
}
