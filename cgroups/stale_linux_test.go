//go:build linux

package cgroups

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
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

// TestRemoveStaleKillsLeftRoot: the processes an omega-run killed with
// SIGKILL left in its group (rx: the program's children, which its
// parent-death signal does not reach) are killed by the next launch beside
// it, and the group goes; a live group's process is left alone.
func TestRemoveStaleKillsLeftRoot(t *testing.T) {
	l := Limits{Pids: 8, Memory: 32 << 20}
	requireRoot(t, l)
	dead, err := New("", l)
	if err != nil {
		t.Fatal(err)
	}
	left := command(t, "sh", "-c", "read _; sleep 60")
	release, _ := startIn(t, dead, left)
	release()
	dead.b.close() // its omega-run is gone: nobody holds the lock
	live := newGroup(t, l)
	alive := command(t, "sh", "-c", "read _; sleep 60")
	releaseLive, _ := startIn(t, live, alive)
	releaseLive()

	// Not 0: others' launches beside it may be between their mkdir and
	// their lock, which a real launch never mistakes for stale.
	saved := staleAge
	defer func() { staleAge = saved }()
	staleAge = time.Second
	time.Sleep(staleAge + 100*time.Millisecond)
	next := newGroup(t, l) // removeStale, as the next launch's New

	exited := make(chan error, 1)
	go func() { exited <- left.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Errorf("the stale group's process: %v, want killed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the stale group's process still runs after the next New (%s)", next.Name())
	}
	for _, d := range dead.Dirs() {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there (stat: %v)", d, err)
		}
	}
	if ps, err := live.Pids(); err != nil || len(ps) == 0 {
		t.Errorf("the live group's processes: %v, %v; want its processes untouched", ps, err)
	}
}
