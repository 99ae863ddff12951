package sandbox

import (
	"bufio"
	"os/exec"
	"strconv"
	"testing"
	"time"

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

// tracerPy attaches to the pid it is given (PTRACE_SEIZE) and never waits
// for it: a killed tracee stays a zombie only its tracer can release.
const tracerPy = `import ctypes, sys, time
if ctypes.CDLL(None, use_errno=True).ptrace(0x4206, int(sys.argv[1]), 0, 0) != 0: sys.exit(1)
print("traced", flush=True)
time.sleep(60)`

// TestLeftoversEndTracedLeftover: a leftover traced by another leftover
// that is not yet omega-run's child (its parent still lives) does not
// hold end up. end waited for the killed tracee, which the kernel gives
// its tracer first: it hung with the tracer running, so the program's
// processes outlived omega-run's report, which never came.
func TestLeftoversEndTracedLeftover(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for the tracer")
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skip(err)
	}
	tracee := exec.Command("sleep", "60")
	if err := tracee.Start(); err != nil {
		t.Fatal(err)
	}
	// The tracer is the child of a shell, as a program's grandchild is.
	holder := exec.Command("sh", "-c", `"$0" -c "$1" "$2" & echo $!; sleep 60`, py, tracerPy, strconv.Itoa(tracee.Process.Pid))
	out, _ := holder.StdoutPipe()
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	var tracer int
	if lines.Scan() {
		tracer, _ = strconv.Atoi(lines.Text())
	}
	if !lines.Scan() || lines.Text() != "traced" {
		t.Fatalf("the tracer did not attach (pid %d)", tracer)
	}
	done := make(chan int, 1)
	go func() { done <- (&orphans{main: -1, stop: make(chan struct{})}).end() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = unix.Kill(tracer, unix.SIGKILL) // lets end go on
		<-done
		t.Fatal("end hung on the traced leftover, its tracer left running")
	}
	for _, pid := range []int{tracee.Process.Pid, holder.Process.Pid, tracer} {
		if err := unix.Kill(pid, 0); err != unix.ESRCH {
			t.Errorf("pid %d left: kill 0: %v", pid, err)
		}
	}
}
