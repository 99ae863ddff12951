//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestFallbackAtCloneSaysItsOwn: where the fallback without user
// namespaces is found only because clone fails (bubblewrap's
// --disable-userns; the up-front probe sees nothing), the first plan's
// warnings were said before the fallback's own: a gap of the socket
// masks (/proc/self/net/unix unreadable here), which the fallback does
// not have, masking nothing and with no connect broker; --fail-closed
// refused on that gap, never naming the fallback; and --log-level info
// said namespaces=true. Now the warnings, the refusal and the info line
// are the fallback's, as where the probe finds it. The control without
// --disable-userns shows the simulation makes the gap. Both stages, root
// and nobody.
func TestFallbackAtCloneSaysItsOwn(t *testing.T) {
	const gap = "a datagram sent to a host socket"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				run := func(disable bool, args ...string) result {
					wrap := noUserns(t, u.uid)
					if !disable {
						wrap = slicesDelete(wrap, "--disable-userns")
					}
					wrap = append(wrap[:len(wrap)-1], "--tmpfs", "/proc/self/net", "--")
					return w.runProg(wrap[0], append(append(wrap[1:], b), args...)...)
				}
				if r := run(false, "--", "/bin/true"); r.code != 0 || !strings.Contains(r.stderr, gap) {
					t.Fatalf("control: exit %d, stderr %q; want the gap said", r.code, r.stderr)
				}
				r := run(true, "--log-level", "info", "--", "/bin/echo", "ran")
				if r.stdout != "ran\n" || !strings.Contains(r.stderr, "user namespaces are unavailable") || strings.Contains(r.stderr, gap) ||
					!strings.Contains(r.stderr, "namespaces=false") || strings.Contains(r.stderr, "namespaces=true") {
					t.Errorf("fallback: exit %d, stdout %q, stderr %q; want the program run, the fallback said, no gap of masks it lacks, namespaces=false", r.code, r.stdout, r.stderr)
				}
				r = run(true, "--fail-closed", "--", "/bin/echo", "ran")
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "--fail-closed: user namespaces are unavailable") || strings.Contains(r.stderr, gap) {
					t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want 125 for the fallback, not the gap", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// slicesDelete is s without its elements equal to v.
func slicesDelete(s []string, v string) []string {
	var out []string
	for _, e := range s {
		if e != v {
			out = append(out, e)
		}
	}
	return out
}
