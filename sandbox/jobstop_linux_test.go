package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOldestChild: without the kernel's list of children, the program is
// PID 1's child that started first; comm may hold spaces and parentheses.
func TestOldestChild(t *testing.T) {
	proc := t.TempDir()
	stat := func(pid int, comm string, ppid int, start uint64) {
		os.MkdirAll(filepath.Join(proc, fmt.Sprint(pid)), 0o755)
		line := fmt.Sprintf("%d (%s) S %d 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 %d 1000 0\n", pid, comm, ppid, start)
		os.WriteFile(filepath.Join(proc, fmt.Sprint(pid), "stat"), []byte(line), 0o644)
	}
	stat(10, "init", 1, 100)
	stat(11, "orphan ) x", 5, 300)
	stat(12, "other", 7, 50)
	stat(13, "prog (1)", 5, 200)
	os.MkdirAll(filepath.Join(proc, "self"), 0o755)
	if got := oldestChild(proc, 5); got != 13 {
		t.Errorf("oldestChild = %d, want 13", got)
	}
	if got := oldestChild(proc, 99); got != 0 {
		t.Errorf("no child: %d, want 0", got)
	}
}

// TestSiginfoStatus: the stop signal read from a real CLD_STOPPED siginfo
// (SIGSTOP: a caller that ignores SIGTSTP passes that on to the child).
func TestSiginfoStatus(t *testing.T) {
	c := exec.Command("/bin/sleep", "5")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Wait()
	defer c.Process.Kill()
	unix.Kill(c.Process.Pid, unix.SIGSTOP)
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, c.Process.Pid, &info, unix.WSTOPPED, nil); err != nil {
		t.Fatal(err)
	}
	if got := siginfoStatus(&info); got != int32(unix.SIGSTOP) {
		t.Errorf("si_status %d, want %d", got, unix.SIGSTOP)
	}
}
