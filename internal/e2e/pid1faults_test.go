//go:build linux

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestFaultSignalsSpareGoPID1: the program's kill or sigqueue of a fault
// signal (SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGSTKFLT, SIGSYS) to
// PID 1 is dropped, as the kernel drops it for the C init stage's PID 1,
// which has no handler. The Go init stage's PID 1 had the Go runtime's
// handlers: it crashed with a traceback and status 2, and the program
// was killed with it. The program still gets the default actions.
func TestFaultSignalsSpareGoPID1(t *testing.T) {
	script := `for sig in 4 5 7 8 11 16 31; do "$0" kill 1 $sig; "$0" sigqueue 1 $sig; done >/dev/null
sleep 0.3; echo still; sh -c 'kill -SEGV $$'; echo "status $?"`
	bins := bothStages(t)
	for name, b := range bins {
		for _, u := range users {
			t.Run(fmt.Sprintf("%s/%s", name, u.name), func(t *testing.T) {
				w := newWorld(t, u)
				r := w.runProg(b, "--", "/bin/sh", "-c", script, probe)
				if r.code != 0 || r.stdout != "still\nstatus 139\n" || strings.Contains(r.stderr, "goroutine") {
					t.Errorf("exit %d, stdout %q, stderr %.300q; want PID 1 alive and the program's own SIGSEGV its default", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
