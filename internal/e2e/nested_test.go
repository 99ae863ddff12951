//go:build linux

package e2e

import (
	"os"
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
				if outer == "sandbox" && (named || strings.Contains(r.stderr, "readable:") || leaked || written ||
					!strings.Contains(r.stderr, "/run and /tmp stay the outer sandbox's")) {
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

// TestNestedRootMetadata: root's program in rx (or a sandbox without
// namespaces) is warned that Landlock does not stop chmod of root's files
// (125 with --fail-closed). Inside an outer sandbox, whose read-only
// mounts do stop it, that was untrue and refused every nested
// --fail-closed launch of a root agent; where the outer one lets write
// what the inner one does not (an --allow-write of its own), chmod there
// is open indeed, and still said.
func TestNestedRootMetadata(t *testing.T) {
	const gap = "chmod 666 /etc/shadow"
	for _, inner := range confinedModes {
		t.Run(inner, func(t *testing.T) {
			w := newWorld(t, rootUser)
			target := filepath.Join(w.extra, "f")
			writeFile(t, target, "x")
			// A nested sandbox has no namespaces, which --fail-closed refuses itself.
			chmodInner := []string{"--", bin, "--mode", inner}
			if inner == "rx" {
				chmodInner = append(chmodInner, "--fail-closed")
			}
			chmodInner = append(chmodInner, "--", "/bin/sh", "-c", `chmod 600 /etc/hostname "$0" 2>&1; echo ran`, target)
			r := w.run(chmodInner...)
			if r.code != 0 || !strings.Contains(r.stdout, "ran") || strings.Contains(r.stderr, gap) ||
				!strings.Contains(r.stdout, "/etc/hostname': Read-only file system") || !strings.Contains(r.stdout, "'"+target+"': Read-only file system") {
				t.Errorf("inside sandbox mode: exit %d, stdout %q, stderr %q; want the nested --fail-closed run, both chmods refused", r.code, r.stdout, r.stderr)
			}
			r = w.run(append([]string{"--allow-write", w.extra}, chmodInner...)...)
			if (inner == "rx") != (r.code == 125 && !strings.Contains(r.stdout, "ran")) || !strings.Contains(r.stderr, gap) {
				t.Errorf("outer --allow-write: exit %d, stdout %q, stderr %q; want the gap named (125 with --fail-closed)", r.code, r.stdout, r.stderr)
			}
			r = w.run("--allow-write", w.extra, "--", bin, "--mode", inner, "--", "/bin/chmod", "600", target)
			if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o600 || !strings.Contains(r.stderr, gap) {
				t.Errorf("outer --allow-write: the gap named is real: chmod %v (%v), stderr %q", fi.Mode(), err, r.stderr)
			}
		})
	}
}

// TestNestedNetNoneSaid: a nested --net none has no network namespace of
// its own. Inside an outer --net none, whose namespace has loopback only,
// nothing is open and nothing is said (a nested rx --fail-closed runs);
// otherwise the gap is said with what helps there: --net none on the
// outer omega-run (and its sandbox mode, where it is rx), not "use
// sandbox mode", which is what runs already.
func TestNestedNetNoneSaid(t *testing.T) {
	const gap = "--net none without a network namespace"
	for _, u := range users {
		for _, inner := range confinedModes {
			t.Run(u.name+"/"+inner, func(t *testing.T) {
				w := newWorld(t, u)
				args := []string{"--", bin, "--mode", inner, "--net", "none"}
				if inner == "rx" {
					args = append(args, "--fail-closed")
				}
				args = append(args, "--", "/bin/sh", "-c", "echo ran")
				r := w.run(append([]string{"--net", "none"}, args...)...)
				if strings.Contains(r.stderr, gap) || r.code != 0 || !strings.Contains(r.stdout, "ran") {
					t.Errorf("outer --net none: exit %d, stdout %q, stderr %q; want no gap said and a run", r.code, r.stdout, r.stderr)
				}
				r = w.run(args...)
				if !strings.Contains(r.stderr, gap) || !strings.Contains(r.stderr, "give --net none to the outer omega-run") ||
					strings.Contains(r.stderr, "use sandbox mode for no network") {
					t.Errorf("outer with network: exit %d, stderr %q; want the gap and the outer --net none named", r.code, r.stderr)
				}
				// An outer rx has no network namespace of its own, even
				// with --net none: only its sandbox mode helps.
				r = w.run(append([]string{"--mode", "rx", "--net", "none"}, args...)...)
				if !strings.Contains(r.stderr, gap) || strings.Contains(r.stderr, "give --net none to the outer omega-run") ||
					!strings.Contains(r.stderr, "run the outer omega-run in sandbox mode with --net none (OMEGA_SANDBOX=rx)") {
					t.Errorf("outer rx --net none: exit %d, stderr %q; want the gap and the outer's sandbox mode named", r.code, r.stderr)
				}
			})
		}
	}
}

// TestOwnLandlockInside: a program that applies a Landlock ruleset of
// its own (go-landlock, as agents' sandbox helpers do) works inside
// omega-run: its narrower rules hold, and a ruleset granting writes
// everywhere does not widen the outer writable set (README's seccomp
// section: nested Landlock rulesets keep working).
func TestOwnLandlockInside(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				ws := filepath.Join(w.dataDir, "workspace")
				for _, d := range []string{"a", "b"} {
					mustMkdir(t, filepath.Join(ws, d))
				}
				chownTree(t, ws, u)
				a, b := filepath.Join(ws, "a", "f"), filepath.Join(ws, "b", "f")
				write := `for f in "$@"; do (echo x > "$f") 2>&1 && echo "wrote $f"; done; echo done`
				r := w.run("--mode", mode, "--", probe, "own-landlock", filepath.Join(ws, "a"), "/bin/sh", "-c", write, "sh", a, b, w.outside+"/sentinel")
				if !strings.Contains(r.stdout, "wrote "+a) || strings.Contains(r.stdout, "wrote "+b) || !strings.Contains(r.stdout, "done") {
					t.Errorf("own ruleset (writes below a only): exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
				}
				r = w.run("--mode", mode, "--", probe, "own-landlock", "/", "/bin/sh", "-c", write, "sh", b, w.outside+"/sentinel")
				if !strings.Contains(r.stdout, "wrote "+b) || !strings.Contains(r.stdout, "done") || w.sentinel() != "original" {
					t.Errorf("own ruleset granting /: exit %d, stdout %q, stderr %q, sentinel %q", r.code, r.stdout, r.stderr, w.sentinel())
				}
			})
		}
	}
}

// TestNestedInFallbackNotCovered: an outer sandbox-mode omega-run that
// fell back to running without namespaces (a container with a read-only
// root and no user namespaces, here bubblewrap's) sets OMEGA_SANDBOX and
// no_new_privs as a whole sandbox does, but mounts nothing: /run and /tmp
// are the container's, and no masks or connect broker cover the host's
// sockets. A nested launch must not say they are the outer sandbox's.
func TestNestedInFallbackNotCovered(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			base := filepath.Dir(w.home)
			wrap := noUserns(t, u.uid)
			wrap = append(wrap[:len(wrap)-4:len(wrap)-4], "--unshare-pid", // not its --dev-bind / / --
				"--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", base, base, "--")
			r := w.under(wrap, "--", bin, "check")
			if sockets := lineOf(r.stdout, "host sockets:"); sockets == "" || strings.Contains(sockets, "the outer sandbox's") {
				t.Errorf("check: host sockets line %q; want the host's sockets said reachable (stdout %q, stderr %q)", sockets, r.stdout, r.stderr)
			}
			r = w.under(wrap, "--", bin, "--", "/bin/sh", "-c", "echo ran")
			// Both launches fall back, and both lines say it.
			if !strings.Contains(r.stdout, "ran") || strings.Count(r.stderr, "/run and /tmp stay the host's") != 2 {
				t.Errorf("nested launch: stdout %q, stderr %q; want /run and /tmp said the host's, twice", r.stdout, r.stderr)
			}
		})
	}
}

// TestNestedRootMetadataRemedy: where root's nested launch is warned that
// chmod stays open, the remedy named is one that works there: sandbox
// mode and --user run without namespaces or fail (no CAP_SETUID) inside
// another omega-run, so they go to the outer one.
func TestNestedRootMetadataRemedy(t *testing.T) {
	w := newWorld(t, rootUser)
	for outer, want := range map[string]string{
		"sandbox": "give --user to the outer omega-run (OMEGA_SANDBOX=sandbox)",
		"rx":      "give sandbox mode or --user to the outer omega-run (OMEGA_SANDBOX=rx)",
	} {
		r := w.run("--mode", outer, "--allow-write", w.extra, "--", bin, "--mode", "rx", "--", "/bin/true")
		inner := ""
		if i := strings.LastIndex(r.stderr, "omega-run: warning: the program runs as root"); i >= 0 {
			inner = r.stderr[i:]
		}
		if !strings.Contains(inner, "chmod 666 /etc/shadow") || !strings.Contains(inner, want) || strings.Contains(inner, "use sandbox mode, or --user") {
			t.Errorf("outer %s: stderr %q; want the nested warning to say %q", outer, r.stderr, want)
		}
	}
}
