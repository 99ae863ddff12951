package sandbox

import (
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLeftoversEndWithoutChildrenLists: where the threads' children lists
// show nothing (a kernel without CONFIG_PROC_CHILDREN, or a list read while
// it changed) but waitid says a child is there, end still finds and ends
// it, rather than leave it running past the checks after the run.
func TestLeftoversEndWithoutChildrenLists(t *testing.T) {
	saved := listChildren
	listChildren = func() []int { return nil }
	defer func() { listChildren = saved }()
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	o := &orphans{main: -1, stop: make(chan struct{})}
	n := o.end()
	if err := unix.Kill(pid, 0); err != unix.ESRCH {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("a child left running (end ended %d): kill 0: %v", n, err)
	}
	if n != 1 {
		t.Errorf("end ended %d, want 1", n)
	}
}
