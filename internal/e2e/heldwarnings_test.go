//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestHeldWarningsSaidOnFailure: sandbox mode holds the plan's warnings
// until the init stage's start shows which launch runs; where the start
// failed for another reason than user namespaces (clone refused with
// EAGAIN, as at a process limit), or its cgroup could not be made (nobody's
// --memory on cgroup v1), the launch ended in 125 and the held warnings
// were never said. They are now, before the error. Both stages, root and
// nobody.
func TestHeldWarningsSaidOnFailure(t *testing.T) {
	const held = "nothing to hide"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				args := []string{"--hide", w.extra + "/missing", "--", "/bin/echo", "ran"}
				if r := w.runProg(b, args...); r.stdout != "ran\n" || !strings.Contains(r.stderr, held) {
					t.Fatalf("control: exit %d, stdout %q, stderr %q; want the program run and the warning said", r.code, r.stdout, r.stderr)
				}
				r := w.runProg(probe, append([]string{"refuse-userns", "11", b}, args...)...)
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, held) || !strings.Contains(r.stderr, "resource temporarily unavailable") {
					t.Errorf("clone refused (EAGAIN): exit %d, stdout %q, stderr %q; want 125, the held warning and the error", r.code, r.stdout, r.stderr)
				}
				// Where this user may make no cgroup (cgroup v1, none delegated).
				r = w.runProg(b, append([]string{"--memory", "64M"}, args...)...)
				if r.code == 125 && (!strings.Contains(r.stderr, "cgroups: ") || !strings.Contains(r.stderr, held)) {
					t.Errorf("no cgroup: stderr %q; want the held warning and the error", r.stderr)
				}
			})
		}
	}
}
