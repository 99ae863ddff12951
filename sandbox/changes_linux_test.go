package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestMadeLater: after the run, the RunsLater files absent at the scan
// that exist now are reported, ten at most and a count of the rest, with
// --writable-git-config too; one there at the start is not, nor a link
// that was dangling then and still is.
func TestMadeLater(t *testing.T) {
	if len(profiles.RunsLater) > 64 {
		t.Fatal("laterDir.absent holds 64 RunsLater names at most")
	}
	for _, wgc := range []bool{false, true} {
		t.Run(fmt.Sprint("writable-git-config=", wgc), func(t *testing.T) {
			root := t.TempDir()
			for i := range 12 {
				if err := os.Mkdir(filepath.Join(root, fmt.Sprint("d", i)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(root, ".envrc"), nil, 0o644)
			os.Symlink("nowhere", filepath.Join(root, ".mcp.json"))
			_, g := runsLater(profiles.Policy{Writable: []string{root}, WritableGitConfig: wgc}, nil, []string{root}, false)
			if got := g.changes(); len(got) != 0 {
				t.Fatalf("before the run: %q", got)
			}
			os.WriteFile(filepath.Join(root, ".envrc"), []byte("changed"), 0o644) // held by a bind in a launch
			for i := range 12 {
				os.WriteFile(filepath.Join(root, fmt.Sprint("d", i), ".envrc"), nil, 0o644)
			}
			got := g.changes()
			if len(got) != 11 || !strings.HasPrefix(got[10], "and 2 more files the program made") {
				t.Fatalf("changes() = %q; want 10 lines and one for the 2 more", got)
			}
			if want := "the program made " + filepath.Join(root, "d0", ".envrc") + ": direnv runs"; !strings.HasPrefix(got[0], want) {
				t.Errorf("first line %q, want it to start %q", got[0], want)
			}
		})
	}
}
