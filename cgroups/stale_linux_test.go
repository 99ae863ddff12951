//go:build linux

package cgroups

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestRemoveStale: an unlocked old group goes; a locked one (its
// omega-run alive, whatever its pid namespace), a young one, a non-empty
// one and other names stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mk("omega-run-99999999-ab12cd34")
	locked := mk("omega-run-1-ab12cd35")
	fd, err := lockGroup(locked)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	busy := mk("omega-run-99999998-ab12cd34")
	mk("omega-run-99999998-ab12cd34/child")
	other := mk("omega-run-1-xyz")
	saved := staleAge
	defer func() { staleAge = saved }()

	staleAge = time.Hour // all of them are young
	removeStale(dir)
	if _, err := os.Stat(stale); err != nil {
		t.Fatal("a group younger than staleAge was removed")
	}
	staleAge = 0
	removeStale(dir)
	for p, want := range map[string]bool{stale: false, locked: true, busy: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists = %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}
