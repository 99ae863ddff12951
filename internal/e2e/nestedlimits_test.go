//go:build linux

package e2e

import (
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
