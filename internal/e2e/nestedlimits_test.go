//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNestedLimitsSaid: omega-run inside a confined omega-run cannot make
// a cgroup (the outer one keeps the cgroup file system unwritable), so
// --pids ends with 125 and one line that names the outer sandbox and
// where the limit goes, not "cgroup v1 needs root" to a caller who is
// root.
func TestNestedLimitsSaid(t *testing.T) {
	for _, u := range users {
		for _, outer := range confinedModes {
			for _, inner := range confinedModes {
				t.Run(u.name+"/"+outer+"/"+inner, func(t *testing.T) {
					w := newWorld(t, u)
					r := w.run("--mode", outer, "--", bin, "--mode", inner, "--pids", "50", "--", "/bin/sh", "-c", "echo ran")
					// Root's rx gets its metadata warnings besides: not counted.
					errs := strings.Count(r.stderr, "\n") - strings.Count(r.stderr, "omega-run: warning:")
					if r.code != 125 || strings.Contains(r.stdout, "ran") || errs != 1 ||
						!strings.Contains(r.stderr, "inside another omega-run (OMEGA_SANDBOX="+outer) ||
						!strings.Contains(r.stderr, "give them to the outer omega-run") {
						t.Errorf("exit %d, stdout %q, stderr %q; want 125 and one line naming the outer omega-run", r.code, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}

// TestNestedFallbackNamesOpen: omega-run inside a confined omega-run
// runs without namespaces, and its warning lists what that leaves open.
// Inside an outer sandbox the outer one's masks and read-only binds still
// hold, so the config file is not "writable" nor ~/.ssh "readable" there,
// and the program indeed cannot; inside rx both are, and are named.
func TestNestedFallbackNamesOpen(t *testing.T) {
	for _, u := range users {
		for _, outer := range confinedModes {
			t.Run(u.name+"/"+outer, func(t *testing.T) {
				w := newWorld(t, u)
				ssh, netrc := filepath.Join(w.home, ".ssh"), filepath.Join(w.home, ".netrc")
				mustMkdir(t, ssh)
				writeFile(t, filepath.Join(ssh, "id_ed25519"), "KEY")
				writeFile(t, netrc, "machine x password NETRC")
				chownTree(t, w.home, u)
				cfg := filepath.Join(w.dataDir, "config.toml")
				r := w.run("--mode", outer, "--", bin, "--", "/bin/sh", "-c",
					`cat "$0"/id_ed25519 "$1"; : >> "$2" && echo cfg-written`, ssh, netrc, cfg)
				named := strings.Contains(r.stderr, "writable, though kept read-only in the sandbox: "+cfg) &&
					strings.Contains(r.stderr, "readable: "+ssh) && strings.Contains(r.stderr, netrc)
				leaked := strings.Contains(r.stdout, "KEY") || strings.Contains(r.stdout, "NETRC")
				written := strings.Contains(r.stdout, "cfg-written")
				if outer == "sandbox" && (named || strings.Contains(r.stderr, "readable:") || leaked || written) {
					t.Errorf("inside sandbox mode the outer masks hold: named %v, read %v, written %v; stdout %q stderr %q", named, leaked, written, r.stdout, r.stderr)
				}
				if outer == "rx" && (!named || !leaked || !written) {
					t.Errorf("inside rx nothing is hidden or held: named %v, read %v, written %v; stdout %q stderr %q", named, leaked, written, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestNestedCheckSaid: check inside a confined omega-run says that the
// outer one is why there are no namespaces (not only the probe's raw
// "fork/exec /proc/self/exe: read-only file system"), and inside sandbox
// mode that the outer sandbox's masks and connect broker still cover
// host sockets.
func TestNestedCheckSaid(t *testing.T) {
	for _, u := range users {
		for _, outer := range confinedModes {
			t.Run(u.name+"/"+outer, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.run("--mode", outer, "--", bin, "check")
				ns, sockets := lineOf(r.stdout, "namespaces:"), lineOf(r.stdout, "host sockets:")
				if r.code != 1 || !strings.Contains(ns, "inside another omega-run (OMEGA_SANDBOX="+outer+")") {
					t.Errorf("exit %d, namespaces line %q; want 1 and the outer omega-run named (stdout %q)", r.code, ns, r.stdout)
				}
				if held := strings.Contains(sockets, "the outer sandbox's"); held != (outer == "sandbox") {
					t.Errorf("host sockets line %q: want the outer sandbox's cover named only inside sandbox mode", sockets)
				}
			})
		}
	}
}

// lineOf is the first line of out that starts with prefix, or "".
func lineOf(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestNestedUserSaid: root's program inside a confined omega-run has no
// capabilities, so a nested --user cannot switch ids: 125 and a line
// saying why and where --user goes, not "setgroups: operation not
// permitted". (nobody is told that --user needs root, as outside.)
func TestNestedUserSaid(t *testing.T) {
	for _, outer := range confinedModes {
		for _, inner := range confinedModes {
			t.Run(outer+"/"+inner, func(t *testing.T) {
				w := newWorld(t, rootUser)
				r := w.run("--mode", outer, "--", bin, "--mode", inner, "--user", "nobody", "--", "/bin/sh", "-c", "echo ran")
				last := strings.TrimSpace(r.stderr)
				last = last[strings.LastIndexByte(last, '\n')+1:]
				if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(last, "without CAP_SETUID and CAP_SETGID") ||
					!strings.Contains(last, "give --user to the outer omega-run") {
					t.Errorf("exit %d, stdout %q, stderr %q; want 125 and why", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
