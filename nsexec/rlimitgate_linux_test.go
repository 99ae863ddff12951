package nsexec

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// TestHoldAtExec: a child started traced gets its limits before its
// program runs, is detached, and exits as it would untraced. held runs
// while the child is still stopped at its execve: PID 1 puts its OOM
// score back there (it held the program's raised one until the start
// returned, after the detach, through the gate and the limits).
func TestHoldAtExec(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := tracemeRefused(); err != nil {
		t.Skipf("ptrace refused here: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	proc, err := os.StartProcess("/bin/sh", []string{"sh", "-c", "ulimit -n; grep TracerPid /proc/$$/status"},
		&os.ProcAttr{Files: []*os.File{nil, w, os.Stderr}, Sys: &syscall.SysProcAttr{Ptrace: true}})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	state := ""
	held := func() { state = procState(proc.Pid) }
	st, err := holdAtExec(proc, []rlimits.Limit{{Name: "nofile", Resource: unix.RLIMIT_NOFILE, Soft: 33, Hard: 44}}, held)
	if err != nil || st.gone != nil {
		t.Fatalf("holdAtExec: %v, %+v", err, st)
	}
	if state != "t" {
		t.Errorf("held ran with the child in state %q, want t (stopped by its tracer, before its program ran)", state)
	}
	ps, err := proc.Wait()
	if err != nil || !ps.Success() {
		t.Fatalf("wait: %v %v", ps, err)
	}
	out := make([]byte, 256)
	n, _ := r.Read(out)
	if got := strings.Fields(string(out[:n])); strings.Join(got, " ") != "33 TracerPid: 0" {
		t.Errorf("the child printed %q, want its nofile limit 33 and no tracer", out[:n])
	}
}

// procState is the state letter of pid in /proc/<pid>/stat ("" unread).
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
