//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestScanWarningsCapped: what the scan warns about before the run (a
// .git that is a symlink, which the program can re-point) is the
// program's to multiply: fifty of them made fifty lines at every later
// launch. Ten are named, then a count.
func TestScanWarningsCapped(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			ws := filepath.Join(w.dataDir, "workspace")
			real := filepath.Join(ws, "real")
			for _, d := range []string{"objects", "refs"} {
				mustMkdir(t, filepath.Join(real, d))
			}
			writeFile(t, filepath.Join(real, "HEAD"), "ref: refs/heads/main\n")
			for i := range 50 {
				p := filepath.Join(ws, "p"+strconv.Itoa(i))
				mustMkdir(t, p)
				if err := os.Symlink(real, filepath.Join(p, ".git")); err != nil {
					t.Fatal(err)
				}
			}
			chownTree(t, w.home, u)
			r := w.run("--", "/bin/true")
			if n := strings.Count(r.stderr, "is a symlink to"); r.code != 0 || n != 10 || !strings.Contains(r.stderr, "and 40 more") {
				t.Errorf("exit %d, %d named: %.600q", r.code, n, r.stderr)
			}
		})
	}
}
