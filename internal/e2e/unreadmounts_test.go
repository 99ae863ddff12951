//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestUnreadMountTableWarned: a launch that cannot read
// /proc/self/mountinfo (strace makes its open fail) cannot find the other
// paths a host bind mount gives a masked credential store, --hide path
// or host socket; those stay unmasked, which it says, and --fail-closed
// refuses (125), where it went on unsaid.
func TestUnreadMountTableWarned(t *testing.T) {
	strace := needStrace(t)
	wrapper := []string{strace, "-f", "-qq", "-o", "/dev/null", "-P", "/proc/self/mountinfo",
		"-e", "trace=openat", "-e", "inject=openat:error=EACCES"}
	const said = "cannot read the mount table"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.under(wrapper, "--", "/bin/true")
			if r.code != 0 || !strings.Contains(r.stderr, said) {
				t.Errorf("exit %d, stderr %q; want 0 and a warning saying %q", r.code, r.stderr, said)
			}
			r = w.under(wrapper, "--fail-closed", "--", "/bin/true")
			if r.code != 125 || !strings.Contains(r.stderr, "--fail-closed: "+said) {
				t.Errorf("--fail-closed: exit %d, stderr %q; want 125 saying %q", r.code, r.stderr, said)
			}
		})
	}
}
