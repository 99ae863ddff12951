//go:build linux

package e2e

import (
	"strings"
	"testing"
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
