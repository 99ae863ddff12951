//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestMountFailNamesPath: a bind of a writable root that fails midway
// through the mounts (strace fails the second mount, the private /tmp's
// bind, after the root's propagation change) ends the launch (125) on
// both stages alike, naming the path: both said only "mount
// /proc/self/fd/N on /proc/self/fd/M", the fds they bind by.
func TestMountFailNamesPath(t *testing.T) {
	strace := needStrace(t)
	wrapper := []string{strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=mount", "-e", "inject=mount:error=EPERM:when=2"}
	const said = "init: mounts: bind /tmp: mount /proc/self/fd/"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(wrapper[0], append(wrapper[1:], b, "--", "/bin/echo", "ran")...)
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, said) {
					t.Errorf("exit %d, stdout %q, stderr %q; want 125 saying %q", r.code, r.stdout, r.stderr, said)
				}
			})
		}
	}
}
