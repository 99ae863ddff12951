//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestStaleGroupLeftKilled: in rx with --pids, omega-run killed with
// SIGKILL (systemd's TimeoutStopSec=) takes only the program with it; what
// the program started runs on in its cgroup, and the next launch beside
// it, once the group is a minute old, kills it and removes the group
// (it was left running there, with nothing to end it). Root, and root
// with --user of a uid of its own (not nobody: its sleeper would count
// in nobody's RLIMIT_NPROC in the tests that run meanwhile). The groups
// age while the suite's sequential tests run: the test goes parallel
// once they are made, and waits only for what is left of the minute.
func TestStaleGroupLeftKilled(t *testing.T) {
	requireRoot(t)
	if testing.Short() {
		t.Skip("waits a minute for the group to be stale; skipped with -short")
	}
	before := omegaCgroups()
	var left []int
	uid := 40000 + (os.Getpid()+23)%20000
	for _, args := range [][]string{nil, {"--user", strconv.Itoa(uid)}} {
		w := newWorld(t, rootUser)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := w.cmd(ctx, append(append([]string{"--mode", "rx", "--pids", "32"}, args...),
			"--", "/bin/sh", "-c", `sleep 300 & echo ready; echo $!; wait`)...)
		out := startAndWaitReady(t, cmd)
		pid, err := strconv.Atoi(readLine(t, out))
		if err != nil {
			t.Fatalf("%v: the sleeper's pid: %v", args, err)
		}
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
		cmd.Process.Kill()
		cmd.Wait()
		time.Sleep(200 * time.Millisecond)
		if !alive(pid) {
			t.Fatalf("%v: the program's child died with omega-run: nothing left to test", args)
		}
		left = append(left, pid)
	}
	made := time.Now()
	t.Parallel()
	time.Sleep(time.Until(made.Add(62 * time.Second)))
	if r := newWorld(t, rootUser).run("--mode", "rx", "--pids", "32", "--", "true"); r.code != 0 {
		t.Fatalf("the next launch: exit %d, stderr %q", r.code, r.stderr)
	}
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range left {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("pid %d, left in the group of an omega-run killed a minute ago, still runs after the next launch", pid)
		}
	}
	if g := leftoverCgroups(before); len(g) > 0 {
		t.Errorf("cgroups left behind: %v", g)
	}
}

// alive tells whether pid runs (a zombie, reaped by init soon, does not).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	for i := len(data) - 1; i > 0; i-- {
		if data[i] == ')' {
			return i+2 < len(data) && data[i+2] != 'Z'
		}
	}
	return false
}
