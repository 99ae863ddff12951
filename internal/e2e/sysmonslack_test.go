//go:build linux

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// callerSlack is the timer slack (ns) TestSysmonSlack starts omega-run
// with: neither the kernel's default nor the launcher's monitor's.
const callerSlack = 70001

// TestSysmonSlack: the launcher's Go runtime monitor (sysmon), which
// sleeps 20 µs at a time at first and preempted the launcher 30-40 times
// per sandbox launch on a busy machine, sleeps with a timer slack of 1 ms:
// one thread of the launcher, the runtime's first. Every other thread,
// the init stage and PID 1, and the program keep the caller's slack, and
// the program its default too (what PR_SET_TIMERSLACK 0 gives back). In
// rx and rwx the launcher becomes the program: the caller's, both.
func TestSysmonSlack(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				cmd := w.cmd(ctx, "--mode", mode, "--", probe, "timerslack")
				stdin, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				out, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := startWithSlack(cmd.Start); err != nil {
					t.Fatal(err)
				}
				defer cmd.Wait()
				defer stdin.Close()
				line, _ := bufio.NewReader(out).ReadString('\n')
				if want := fmt.Sprintf("slack %d default %d\n", callerSlack, callerSlack); line != want {
					t.Errorf("the program says %q, want %q", line, want)
				}
				if mode != "sandbox" {
					return
				}
				pid := cmd.Process.Pid
				launcher := slacks(t, pid)
				monitors := 0
				for tid, s := range launcher {
					if s == 1_000_000 {
						monitors++
					} else if s != callerSlack {
						t.Errorf("launcher thread %d: slack %d, want %d", tid, s, callerSlack)
					}
				}
				if monitors != 1 || len(launcher) < 2 {
					t.Errorf("launcher threads' slacks %v: want one at 1 ms (the runtime's monitor), the others %d", launcher, callerSlack)
				}
				children, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
				for _, c := range strings.Fields(string(children)) { // the init stage, PID 1
					n, _ := strconv.Atoi(c)
					for tid, s := range slacks(t, n) {
						if s != callerSlack {
							t.Errorf("init stage thread %d: slack %d, want %d", tid, s, callerSlack)
						}
					}
				}
			})
		}
	}
}

// startWithSlack runs start (a fork) on a thread whose timer slack is
// callerSlack, which the child inherits, as its default too.
func startWithSlack(start func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old, _, _ := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_GET_TIMERSLACK, 0, 0)
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_TIMERSLACK, callerSlack, 0); e != 0 {
		return e
	}
	defer syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_TIMERSLACK, old, 0)
	return start()
}

// slacks reads the timer slack of each thread of pid (root's view: the
// file needs CAP_SYS_NICE for another process).
func slacks(t *testing.T, pid int) map[int]int {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("threads of %d: %v", pid, err)
	}
	m := map[int]int{}
	for _, task := range tasks {
		tid, _ := strconv.Atoi(filepath.Base(task))
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/timerslack_ns", tid))
		if err != nil {
			continue // gone
		}
		m[tid], _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	return m
}
