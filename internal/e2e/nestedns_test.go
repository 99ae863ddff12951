//go:build linux

package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNestedSandboxRefused pins what README's seccomp section says of
// sandboxes inside: a new user namespace can be made, but not given an id
// map, and Landlock refuses mounts in any namespace, with every profile
// (--seccomp none too), so bubblewrap — Claude Code's and Codex CLI's
// sandboxes — fails inside. The README had said mounts inside nested
// namespaces worked as far as seccomp went.
func TestNestedSandboxRefused(t *testing.T) {
	script := `unshare -U true && echo userns-ok
unshare -Ur true 2>/dev/null || echo map-refused
unshare -Um true 2>/dev/null || echo mount-refused
if command -v bwrap >/dev/null; then bwrap --ro-bind / / true 2>/dev/null || echo bwrap-refused; else echo bwrap-refused; fi`
	want := []string{"userns-ok", "map-refused", "mount-refused", "bwrap-refused"}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare here")
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			for _, profile := range []string{"default", "none"} {
				t.Run(u.name+"/"+mode+"/"+profile, func(t *testing.T) {
					w := newWorld(t, u)
					r := w.sh(mode, script, "--seccomp", profile)
					for _, s := range want {
						if !strings.Contains(r.stdout, s) {
							t.Errorf("want %s: %+v", s, r)
						}
					}
				})
			}
		}
	}
}
