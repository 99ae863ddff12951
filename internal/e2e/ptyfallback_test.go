//go:build linux

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestPtyFallbackSaid: --pty gives the program a terminal of its own so
// that it cannot reach the caller's; without user namespaces the host's
// /dev/pts stays in its reach, and it opened the caller's terminal by
// name (a write to it showed, a read would take the next typed line),
// while the launch said nothing of --pty. Now it says so, and
// --fail-closed refuses.
func TestPtyFallbackSaid(t *testing.T) {
	const said = "--pty: without namespaces"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			args := append(noUserns(t, u.uid), omegaArgs([]string{"--pty"}, "/bin/echo", "ran")...)
			out, code, _, _ := ptyRun(t, w, "", args...)
			if code != 0 || !strings.Contains(out, "ran") || !strings.Contains(out, "user namespaces are unavailable") || !strings.Contains(out, said) {
				t.Errorf("exit %d; want the program run and %q; terminal:\n%s", code, said, out)
			}
			args = append(noUserns(t, u.uid), omegaArgs([]string{"--pty", "--fail-closed"}, "/bin/echo", "ran")...)
			out, code, _, _ = ptyRun(t, w, "", args...)
			if code != 125 || !strings.Contains(out, said) {
				t.Errorf("--fail-closed: exit %d; want 125 and %q; terminal:\n%s", code, said, out)
			}
		})
	}
}

// TestPtyNoProcSaid: with no /proc mounted (simulated as in
// TestFallbackNoProc), --pty needs a child of omega-run's own, which it
// starts by re-executing /proc/self/exe: the launch failed with only
// "fork/exec /proc/self/exe: no such file or directory". It still fails
// (125), and now says that no /proc is mounted and how to mount one.
// Both init stages, root and nobody.
func TestPtyNoProcSaid(t *testing.T) {
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				asRoot := *w
				asRoot.u = rootUser // the wrapper unmounts; setpriv makes the caller u again
				script := fmt.Sprintf(`umount -l /proc && exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, u.uid, u.gid)
				out, code, _, _ := ptyRun(t, &asRoot, "", "unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
					b, "--pty", "--", "/bin/echo", "ran")
				// The error is the last line; the fallback's warning
				// before it names the missing /proc too.
				last := strings.TrimSpace(out)
				last = last[strings.LastIndexByte(last, '\n')+1:]
				if code != 125 || !strings.Contains(last, "no /proc is mounted") || !strings.Contains(last, "mount a /proc") {
					t.Errorf("exit %d, last line %q; want 125 and the missing /proc said; terminal:\n%s", code, last, out)
				}
			})
		}
	}
}
