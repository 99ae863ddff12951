//go:build linux

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFilterKillsProcessCalls: a unit's SystemCallFilter= allow-list
// from a systemd older than pidfd_open or clone3 kills (SIGSYS) on them;
// the launcher makes both (its child's pidfd, Go's os/exec), and died of
// it, status 159, nothing said, in every mode. The cgo build's check
// before the Go runtime names them: 125 and the calls to allow.
func TestFilterKillsProcessCalls(t *testing.T) {
	for _, c := range []struct{ rule, call string }{{"434=kill", "pidfd_open"}, {"435=kill", "clone3"}} {
		for _, u := range users {
			for _, mode := range confinedModes {
				t.Run(c.call+"/"+u.name+"/"+mode, func(t *testing.T) {
					w := newWorld(t, u)
					r := w.under([]string{probe, "seccomp-exec", c.rule}, "--mode", mode, "--", "/bin/echo", "ran")
					want := "a seccomp filter around omega-run kills it on " + c.call
					if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, want) {
						t.Errorf("exit %d, stdout %q, stderr %q; want 125 and %q", r.code, r.stdout, r.stderr, want)
					}
				})
			}
		}
	}
}

// TestFilterKillsCapset: systemd's SystemCallFilter=~@privileged kills
// (SIGSYS) on capset, with which rx and sandbox mode drop the program's
// capabilities: rx died of it, status 159, nothing said, and sandbox
// mode said 125 naming the mounts and keyctl. The check before the Go
// runtime finds it, and the confined modes end with 125 naming capset,
// as check does; rwx, which makes no capset, runs.
func TestFilterKillsCapset(t *testing.T) {
	wrap := []string{probe, "seccomp-exec", strconv.Itoa(unix.SYS_CAPSET) + "=kill"}
	const want = "a seccomp filter around omega-run kills it on capset"
	for _, u := range users {
		for _, mode := range append([]string{"rwx"}, confinedModes...) {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.under(wrap, "--mode", mode, "--", "/bin/echo", "ran")
				if mode == "rwx" {
					if r.code != 0 || r.stdout != "ran\n" {
						t.Errorf("%+v; want rwx to run", r)
					}
					return
				}
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, want) {
					t.Errorf("exit %d, stdout %q, stderr %q; want 125 and %q", r.code, r.stdout, r.stderr, want)
				}
				if mode == "sandbox" { // the early start's init stage is not left behind; check says why
					r := w.runProg(probe, append([]string{"subreaper"}, append(wrap, bin, "--", "/bin/echo", "ran")...)...)
					if !strings.Contains(r.stdout, "exit 125\n") || r.code != 0 {
						t.Errorf("subreaper: %+v; want 125 and nothing left behind", r)
					}
					if r := w.under(wrap, "check"); r.code != 1 || !strings.Contains(r.stdout, want) {
						t.Errorf("check: %+v; want 1 and %q", r, want)
					}
				}
			})
		}
	}
	// A build without cgo has no check before the Go runtime: its sandbox
	// mode's PID 1 dies of SIGSYS, and the line names capset among the
	// calls to allow (rx dies of it unsaid: README).
	nocgo := nocgoBinary(t)
	for _, u := range users {
		w := newWorld(t, u)
		r := w.runProg(probe, append(wrap[1:], nocgo, "--", "/bin/echo", "ran")...)
		if r.code != 125 || !strings.Contains(r.stderr, "capset for the program's capabilities") {
			t.Errorf("no cgo, %s: %+v; want 125 naming capset", u.name, r)
		}
	}
}
