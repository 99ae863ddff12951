//go:build linux

package e2e

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCapsetRefusedWorded: a filter around omega-run that refuses capset
// (EPERM). The launch cannot drop the program's capabilities and is
// refused (125) on both stages, in the same words, naming capset and the
// filter. The Go stage's start, which raises the capabilities the stage
// keeps across its exec, met it first and took it for refused user
// namespaces: it warned so, fell back, then failed; check and explain
// said "creating them failed" on both builds.
func TestCapsetRefusedWorded(t *testing.T) {
	refuse := strconv.Itoa(unix.SYS_CAPSET) + "=" + strconv.Itoa(int(unix.EPERM))
	const said = "capset: operation not permitted (a seccomp filter around omega-run refuses capset"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(probe, "seccomp-exec", refuse, b, "--", "/bin/echo", "ran")
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "init: capabilities: "+said) ||
					strings.Contains(r.stderr, "namespaces are unavailable") {
					t.Errorf("launch: exit %d, stdout %q, stderr %q; want 125 saying %q, not that user namespaces are unavailable",
						r.code, r.stdout, r.stderr, said)
				}
				r = w.runProg(probe, "seccomp-exec", refuse, b, "check")
				if !strings.Contains(r.stdout, said) || strings.Contains(r.stdout, "creating them failed") {
					t.Errorf("check: stdout %q; want it to say %q", r.stdout, said)
				}
				r = w.runProg(probe, "seccomp-exec", refuse, b, "explain", "--", "/bin/true")
				if !strings.Contains(r.stdout+r.stderr, said) || strings.Contains(r.stdout+r.stderr, "creating them failed") {
					t.Errorf("explain: stdout %q, stderr %q; want it to say %q", r.stdout, r.stderr, said)
				}
			})
		}
	}
}
