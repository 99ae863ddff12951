//go:build linux

package e2e

import "testing"

// TestPID1LeavesCallersGroup: the sandbox's PID 1 leaves the caller's
// process group as soon as the program is started, so that a Ctrl-C at
// the terminal reaches the program once, not also through PID 1's
// forwarding; the program stays in the caller's group. TestCtrlC passed
// with the Go PID 1's setpgid removed (two SIGINTs may merge into one
// pending); this reads the groups themselves, from inside: the caller's
// group is outside the pid namespace (0 there), PID 1's own is 1. Both
// stages, root and nobody.
func TestPID1LeavesCallersGroup(t *testing.T) {
	// PID 1 leaves once the program's start returns: wait up to 2 s.
	const script = `pgrp() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f3; }
i=0; while [ "$(pgrp 1)" != 1 ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done
echo "pid1=$(pgrp 1) program=$(pgrp self)"`
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(b, "--", "/bin/sh", "-c", script)
				if r.code != 0 || r.stdout != "pid1=1 program=0\n" {
					t.Errorf("exit %d, stdout %q, stderr %q; want PID 1 in a group of its own (1) and the program in the caller's (0: outside the namespace)", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
