package sandbox

import (
	"os"
	"slices"
	"syscall"
	"testing"
)

// TestLaunchHolds: a lock this process (a launcher, as confined as
// itself) holds is a launch's; no holder, none.
func TestLaunchHolds(t *testing.T) {
	dir := t.TempDir()
	open := func() *os.File {
		f, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	holder, waiter := open(), open()
	if got := launchHolds(waiter); got != nil {
		t.Errorf("unheld: launchHolds = %v", got)
	}
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	syscall.Fstat(int(holder.Fd()), &st)
	if got := lockTakers(lockDevs(int(holder.Fd()), uint64(st.Dev)), st.Ino); !slices.Contains(got, os.Getpid()) {
		t.Errorf("lockTakers = %v, want this process (%d)", got, os.Getpid())
	}
	if got := launchHolds(waiter); !slices.Contains(got, os.Getpid()) {
		t.Errorf("held by this process: launchHolds = %v", got)
	}
	if c, ok := confinement("self"); !ok {
		t.Errorf("confinement(self) = %+v, not read", c)
	}
}
