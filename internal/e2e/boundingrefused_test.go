//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestBoundingDropRefusedSaid: the bounding set is emptied by dropping
// capabilities until the kernel answers EINVAL, its word for a number
// past its last one. A filter around omega-run that answers EINVAL
// already for capability 0, which every kernel has, ended the loop at
// once and the program ran with the whole bounding set, unsaid. Now the
// launch is refused (125) naming the call. Where omega-run holds no
// CAP_SETPCAP (rx as nobody) it drops nothing, as before. Both stages.
func TestBoundingDropRefusedSaid(t *testing.T) {
	for name, b := range bothStages(t) {
		for _, mode := range confinedModes {
			for _, u := range users {
				t.Run(name+"/"+mode+"/"+u.name, func(t *testing.T) {
					w := newWorld(t, u)
					r := w.runProg(probe, "refuse-capbset-drop", "22", b, "--mode", mode, "--", "/bin/echo", "ran")
					if mode == "rx" && u.uid != 0 {
						if r.code != 0 || r.stdout != "ran\n" {
							t.Errorf("exit %d, stdout %q, stderr %q; want the program run (nothing to drop)", r.code, r.stdout, r.stderr)
						}
						return
					}
					if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, "PR_CAPBSET_DROP") {
						t.Errorf("exit %d, stdout %q, stderr %q; want 125 naming PR_CAPBSET_DROP, the program not run", r.code, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}
