package nsexec

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// TestHoldAtExec: a child started traced gets its limits before its
// program runs, is detached, and exits as it would untraced.
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
	st, err := holdAtExec(proc, []rlimits.Limit{{Name: "nofile", Resource: unix.RLIMIT_NOFILE, Soft: 33, Hard: 44}})
	if err != nil || st.gone != nil {
		t.Fatalf("holdAtExec: %v, %+v", err, st)
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
