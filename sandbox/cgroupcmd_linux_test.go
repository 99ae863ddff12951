package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/omega-run/omega-run/cgroups"
)

// TestCommandGroupRemovalRetried: a process of the group that outlives
// the SIGKILLs of its removal (frozen by a v1 freezer here, in
// uninterruptible sleep elsewhere) fails Wait, which still reports the
// OOM kill before it, and the group goes once the process wakes and
// dies. It stayed before, for good: locked by this process, so out of
// later launches' stale-group cleanup, its lock fd open; and the OOM kill
// went unsaid.
func TestCommandGroupRemovalRetried(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the removal's 10 s of SIGKILLs")
	}
	if err := cgroups.Probe(cgroups.Limits{Memory: 64 << 20, Pids: 64}); err != nil {
		t.Skipf("no usable cgroup here: %v", err)
	}
	freezer, err := os.MkdirTemp("/sys/fs/cgroup/freezer", "omega-test-")
	if err != nil {
		t.Skipf("no cgroup v1 freezer to freeze a process with: %v", err)
	}
	defer func() { // once the thawed process has gone (a failed run)
		for end := time.Now().Add(5 * time.Second); os.Remove(freezer) != nil && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
	}()
	defer func(d time.Duration) { removeRetry = d }(removeRetry)
	removeRetry = 50 * time.Millisecond
	t.Setenv("HOME", t.TempDir())

	o := Options{Mode: ModeRX, DataDir: t.TempDir(), Process: Process{Memory: "64M", Pids: "64"}}
	// dd's 200M buffer is OOM-killed once the shell reads a line.
	cmd, err := o.CommandContext(context.Background(), "sh", "-c",
		`sleep 60 & echo $!; read x; dd if=/dev/zero of=/dev/null bs=200M count=1 2>/dev/null`)
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscan(bufio.NewReader(out), &pid); err != nil {
		t.Fatal(err)
	}
	group := pidsGroup(t, pid)
	write := func(file, s string) {
		if err := os.WriteFile(filepath.Join(freezer, file), []byte(s), 0); err != nil {
			t.Fatal(err)
		}
	}
	write("cgroup.procs", fmt.Sprint(pid))
	write("freezer.state", "FROZEN")
	defer write("freezer.state", "THAWED")
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(filepath.Join(freezer, "freezer.state")); strings.TrimSpace(string(b)) == "FROZEN" {
			break
		}
		if time.Now().After(end) {
			t.Fatal("not frozen")
		}
	}
	stdin.Close() // the shell exits; its frozen sleep stays
	if err := Wait(cmd); err == nil || !strings.Contains(err.Error(), "still there") || !errors.Is(err, ErrOOMKilled) {
		t.Fatalf("Wait: %v; want the removal's failure and the OOM kill", err)
	}
	write("freezer.state", "THAWED") // the pending SIGKILL ends it
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(group); os.IsNotExist(err) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%s is still there 5 s after its last process died", group)
		}
	}
}

// pidsGroup is the directory of process pid's cgroup v1 pids group.
func pidsGroup(t *testing.T, pid int) string {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if f := strings.SplitN(strings.TrimSpace(line), ":", 3); len(f) == 3 && f[1] == "pids" {
			return filepath.Join("/sys/fs/cgroup/pids", f[2])
		}
	}
	t.Fatalf("no pids group in %s", data)
	return ""
}
