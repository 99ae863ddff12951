//go:build linux

package cgroups

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

	err = waitAfterNextLaunch(t, l, left, "the stale group's process")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("the stale group's process: %v, want killed", err)
	}
	checkGone(t, dead)
	if ps, err := live.Pids(); err != nil || len(ps) == 0 {
		t.Errorf("the live group's processes: %v, %v; want its processes untouched", ps, err)
	}
}

// TestRemoveStaleLockedFromInside: the program can open its own group's
// directory and take the same shared lock as its omega-run (flock(1) on
// it), so that what it leaves behind outlives the cleanup, the group
// looking live for ever. A lock that only the group's own processes hold
// does not keep it: they are killed and the group goes.
func TestRemoveStaleLockedFromInside(t *testing.T) {
	l := Limits{Pids: 8, Memory: 32 << 20}
	requireRoot(t, l)
	dead, err := New("", l)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deleteAndCheck(t, dead) })
	script := "read _; exec"
	for _, d := range dead.Dirs() {
		script += " flock -s " + d
	}
	left := command(t, "sh", "-c", script+` sh -c "echo locked; exec sleep 60"`)
	out, err := left.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	release, _ := startIn(t, dead, left)
	release()
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the group's process said %q, want locked", line)
	}
	dead.b.close() // its omega-run is gone; its program holds the lock

	waitAfterNextLaunch(t, l, left, "the process that locked its own group")
	checkGone(t, dead)
}

// waitAfterNextLaunch makes the groups a second old the stale age, makes
// the next launch's group (its New removes the stale ones) and returns
// how cmd, a process of a stale group, ended; fatal if it still runs 5 s
// later. The age is not 0: others' launches beside it may be between
// their mkdir and their lock, which a real launch never takes for stale.
func waitAfterNextLaunch(t *testing.T, l Limits, cmd *exec.Cmd, what string) error {
	t.Helper()
	saved := staleAge
	defer func() { staleAge = saved }()
	staleAge = time.Second
	time.Sleep(staleAge + 100*time.Millisecond)
	next := newGroup(t, l) // removeStale, as the next launch's New
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s still runs after the next New (%s)", what, next.Name())
		return nil
	}
}

// checkGone fails unless every directory of g was removed.
func checkGone(t *testing.T, g *Group) {
	t.Helper()
	for _, d := range g.Dirs() {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there (stat: %v)", d, err)
		}
	}
}

// TestFlockTakers: the takers of flock(2) locks on one file, from
// /proc/locks: not waiting requests, POSIX locks or other devices'.
func TestFlockTakers(t *testing.T) {
	f := filepath.Join(t.TempDir(), "locks")
	writeLocks := "1: FLOCK  ADVISORY  READ 11463 00:24:287 0 EOF\n" +
		"1: -> FLOCK  ADVISORY  WRITE 12 00:24:287 0 EOF\n" +
		"2: POSIX  ADVISORY  WRITE 13 00:24:287 0 EOF\n" +
		"3: FLOCK  ADVISORY  READ 14 00:25:287 0 EOF\n" +
		"4: FLOCK  ADVISORY  READ 15 00:24:2870 0 EOF\n" +
		"5: FLOCK  ADVISORY  WRITE 16 103:1ab:287 0 EOF\n" +
		"6: FLOCK  ADVISORY  READ 17 00:24:287 0 EOF\n"
	if err := os.WriteFile(f, []byte(writeLocks), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := locksFile
	defer func() { locksFile = saved }()
	locksFile = f
	for _, c := range []struct {
		dev  uint64
		want []int
	}{{unix.Mkdev(0, 0x24), []int{11463, 17}}, {unix.Mkdev(0x103, 0x1ab), []int{16}}, {unix.Mkdev(1, 1), nil}} {
		got, err := flockTakers(c.dev, 287)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("dev %#x: %v, %v; want %v", c.dev, got, err, c.want)
		}
	}
}
