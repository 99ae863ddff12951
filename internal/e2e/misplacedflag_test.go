//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestMisplacedFlagWarned: omega-run claude --allow-write . passes the
// flag to the program, as every word after the program's name: the user
// believed the write granted. A warning says where it goes; the program
// still gets exactly what was typed. With "--" before the program the
// user said so, and nothing is said.
func TestMisplacedFlagWarned(t *testing.T) {
	const warning = "omega-run passes --allow-write . on to /bin/echo"
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			r := w.run("--mode", mode, "/bin/echo", "--allow-write", ".")
			if r.code != 0 || r.stdout != "--allow-write .\n" || strings.Count(r.stderr, warning) != 1 {
				t.Errorf("without --: %+v; want the arguments passed on as they are, and one warning", r)
			}
			r = w.run("--mode", mode, "--", "/bin/echo", "--allow-write", ".")
			if r.code != 0 || r.stdout != "--allow-write .\n" || strings.Contains(r.stderr, "passes") {
				t.Errorf("with --: %+v; want the arguments passed on, and no warning", r)
			}
		})
	}
}
