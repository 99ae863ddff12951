//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// interruptedConnect is run by the program: a blocking connect to its
// own unix listener (argv[1]: a path, brokered from any thread of PID 1,
// or an abstract name, from its locked thread), whose backlog is full
// until it accepts 2 s in; then it says whether the connect that
// returned is connected.
const interruptedConnect = `
import os, socket, sys, threading, time
path = sys.argv[1] == "path"
addr = "/tmp/intr.sock" if path else "" # autobind
if path and os.path.exists(addr): os.unlink(addr)
l = socket.socket(socket.AF_UNIX); l.bind(addr); l.listen(0); addr = l.getsockname()
full = socket.socket(socket.AF_UNIX); full.connect(addr) # the backlog's one place
def later():
    time.sleep(2)
    l.accept(); l.accept()
threading.Thread(target=later, daemon=True).start()
print("waiting", flush=True)
s = socket.socket(socket.AF_UNIX)
s.connect(addr)
try: s.getpeername(); print("connected")
except OSError as e: print("connect returned, but: " + e.strerror)
`

// TestBrokeredConnectPID1Interrupted: a signal to PID 1 while it makes a
// program's blocking connect (the Go runtime's own SIGURG preemption, or
// a stop and continue: a debugger, a cgroup freeze) is PID 1's affair;
// the program's connect goes on. PID 1 connects in slices of SO_SNDTIMEO,
// which makes the kernel say EINTR there, not restart: both init stages
// gave that EINTR to the program, and Python then took the connect it
// never made for one under way, found the unconnected socket writable
// and returned success — TestConnectsWhileProcessesHeld's connection
// that never reached the listener, between 1 run in 20 and 1 in 200.
func TestBrokeredConnectPID1Interrupted(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	bins := bothStages(t)
	for name, b := range bins {
		for _, u := range users {
			for _, kind := range []string{"path", "abstract"} {
				for _, how := range []string{"urg", "stop"} {
					t.Run(strings.Join([]string{name, u.name, kind, how}, "/"), func(t *testing.T) {
						w := newWorld(t, u)
						if out := interruptedRun(t, w, b, kind, how); out != "connected\n" {
							t.Errorf("program said %q; want connected", out)
						}
					})
				}
			}
		}
	}
}

// interruptedRun runs interruptedConnect with b, interrupts its PID 1
// (how) while the connect waits, and returns what the program said then.
func interruptedRun(t *testing.T, w *world, b, kind, how string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := w.cmdOf(ctx, b, "--", "python3", "-c", interruptedConnect, kind)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	c.Stderr = &errb
	c.WaitDelay = 2 * time.Second
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Wait()
	r := bufio.NewReader(out)
	if line, _ := r.ReadString('\n'); line != "waiting\n" {
		t.Fatalf("program said %q; stderr %q", line, errb.String())
	}
	pid1 := initStageOf(t, c.Process.Pid)
	for end := time.Now().Add(1200 * time.Millisecond); time.Now().Before(end); {
		interruptPID1(pid1, how)
	}
	rest, _ := r.ReadString('\n')
	return rest
}

// initStageOf is the sandbox's PID 1 (the init stage), a child of the
// launcher.
func initStageOf(t *testing.T, launcher int) int {
	t.Helper()
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", launcher))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, pid := range strings.Fields(string(b)) {
			if cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline"); bytes.HasPrefix(cmd, []byte("omega-run-init\x00")) {
				n, _ := strconv.Atoi(pid)
				return n
			}
		}
	}
	t.Fatalf("no init stage below %d", launcher)
	return 0
}

// interruptPID1 sends one round: SIGURG to each of PID 1's threads (a
// Go PID 1 takes it for a preemption nobody asked for; a C one ignores
// it), or SIGSTOP and SIGCONT to PID 1, from this (the parent) pid
// namespace, whence its init gets both.
func interruptPID1(pid1 int, how string) {
	if how == "stop" {
		unix.Kill(pid1, unix.SIGSTOP)
		time.Sleep(10 * time.Millisecond)
		unix.Kill(pid1, unix.SIGCONT)
		time.Sleep(90 * time.Millisecond)
		return
	}
	entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid1))
	for _, e := range entries {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			unix.Tgkill(pid1, tid, unix.SIGURG)
		}
	}
	time.Sleep(5 * time.Millisecond)
}
