//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnProcBeforeSpec: closing the fsmount of PID 1's own proc (its fd
// on oom_score_adj, TestPID1SparedByOOM) waits for an RCU grace period,
// 0.16 ms median and milliseconds on a busy machine, which lay between
// the spec's arrival and the program (bench/PROFILE.md). An early start
// now opens it while it waits for its spec: its fsmount comes before its
// first mount, which follows the spec. The C init stage only (the Go one
// has no early start); root and nobody.
func TestOwnProcBeforeSpec(t *testing.T) {
	if os.Getenv("OMEGA_E2E_TAGS") == "omega_goinit" {
		t.Skip("the Go init stage has no early start")
	}
	strace := needStrace(t)
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			trace := filepath.Join(w.outside, "trace")
			r := w.under([]string{strace, "-f", "-qq", "-e", "trace=fsmount,mount", "-o", trace}, "--", "/bin/true")
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			data, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			fsmount, private := -1, -1
			for i, line := range strings.Split(string(data), "\n") {
				switch {
				case fsmount < 0 && strings.Contains(line, "fsmount("):
					fsmount = i
				case private < 0 && strings.Contains(line, " mount(") && strings.Contains(line, "MS_REC|MS_PRIVATE"):
					// As nobody, strace shows the paths as addresses.
					private = i
				}
			}
			if fsmount < 0 || private < 0 || fsmount > private {
				t.Errorf("PID 1's fsmount at line %d, the first mount after the spec at %d: want the fsmount first\n%s", fsmount, private, data)
			}
		})
	}
}
