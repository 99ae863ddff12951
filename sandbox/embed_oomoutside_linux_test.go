package sandbox_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/sandbox"
)

// TestCommandOOMOutsideLimit: Wait's error for an OOM kill in a group
// that never reached its Process.Memory (the machine out of memory,
// simulated by a 192M cgroup v1 parent) says so, and one at the group's
// own 64M says the limit was reached; both wrap ErrOOMKilled. Both said
// "it reached its memory limit" before. A helper process (this test,
// re-executed) moves into the parent and starts the commands: the test
// binary itself, large under -race, would otherwise share the parent's
// 192M with the commands and could be the OOM killer's pick.
func TestCommandOOMOutsideLimit(t *testing.T) {
	if parent := os.Getenv(oomParentEnv); parent != "" {
		oomOutsideLimitHelper(t, parent)
		return
	}
	needCgroups(t, cgroups.Limits{Memory: 64 << 20})
	own := ownMemoryCgroup(t)
	parent, err := os.MkdirTemp(own, "omega-test-oomparent-")
	if err != nil {
		t.Skipf("no cgroup v1 memory group to make a parent group in: %v", err)
	}
	defer func() {
		for end := time.Now().Add(10 * time.Second); os.Remove(parent) != nil && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	}()
	for _, f := range []string{"memory.limit_in_bytes", "memory.memsw.limit_in_bytes"} {
		if err := os.WriteFile(filepath.Join(parent, f), []byte("192M"), 0); err != nil && f == "memory.limit_in_bytes" {
			t.Fatal(err)
		}
	}
	helper := exec.Command(os.Args[0], "-test.run=^TestCommandOOMOutsideLimit$", "-test.v")
	helper.Env = append(os.Environ(), oomParentEnv+"="+parent, "HOME="+t.TempDir())
	if out, err := helper.CombinedOutput(); err != nil {
		t.Fatalf("the helper in the 192M parent: %v\n%s", err, out)
	}
}

const oomParentEnv = "OMEGA_TEST_OOM_PARENT"

// oomOutsideLimitHelper runs in the helper process: it moves into parent,
// then starts a command that needs 300M under each limit.
func oomOutsideLimitHelper(t *testing.T, parent string) {
	if err := os.WriteFile(filepath.Join(parent, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ memory, want string }{
		{"512M", "it stayed below its memory limit (memory=512M): the machine, or a cgroup above it, ran out of memory"},
		{"64M", "it reached its memory limit (memory=64M)"},
	} {
		cmd := limitedCommand(t, context.Background(), sandbox.ModeRX, sandbox.Process{Memory: tt.memory},
			"exec dd if=/dev/zero of=/dev/null bs=300M count=1 2>/dev/null")
		if err := sandbox.Start(cmd); err != nil {
			t.Fatal(err)
		}
		err := sandbox.Wait(cmd)
		if !errors.Is(err, sandbox.ErrOOMKilled) || !strings.Contains(err.Error(), "cgroup: "+tt.want) {
			t.Errorf("--memory %s in a 192M parent: Wait %v; want ErrOOMKilled and %q", tt.memory, err, tt.want)
		}
	}
}

// ownMemoryCgroup is this process's cgroup v1 memory directory, or a
// skip where there is none.
func ownMemoryCgroup(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if f := strings.SplitN(strings.TrimSpace(line), ":", 3); len(f) == 3 && f[1] == "memory" {
			return filepath.Join("/sys/fs/cgroup/memory", f[2])
		}
	}
	t.Skip("no cgroup v1 memory hierarchy (cgroup v2 puts the group below a leaf this process cannot share with it)")
	return ""
}
