//go:build linux

package cgroups

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRemoveStale: a group whose omega-run is gone goes; one of a live
// omega-run, a non-empty one and other names stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := mk("omega-run-99999999-ab12cd34") // above any pid_max
	live := mk("omega-run-" + strconv.Itoa(os.Getpid()) + "-ab12cd34")
	busy := mk("omega-run-99999998-ab12cd34")
	mk("omega-run-99999998-ab12cd34/child")
	other := mk("omega-run-x-y-z")
	removeStale(dir)
	for p, want := range map[string]bool{gone: false, live: true, busy: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
