//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// waitingConnect has a child connect to a unix listener (its address
// argv[1], "@" for abstract) whose backlog is full, so the connect waits;
// the listener accepts after two seconds. The child says whether it is
// connected by asking for its peer: a connect that returned success
// without a connection fails there (ENOTCONN).
const waitingConnect = `import os, socket, sys, time
addr = sys.argv[1].replace("@", "\0", 1)
if not addr.startswith("\0") and os.path.exists(addr): os.unlink(addr)
l = socket.socket(socket.AF_UNIX); l.bind(addr); l.listen(0)
first = socket.socket(socket.AF_UNIX); first.connect(addr) # the backlog is full
pid = os.fork()
if pid == 0:
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(addr)
        s.getpeername()
    except OSError as e:
        print("child:", e, flush=True); os._exit(3)
    os._exit(0)
time.sleep(2)
l.settimeout(1)
got = 0
try:
    while True: l.accept(); got += 1
except socket.timeout: pass
print("accepted %d, child status %d" % (got, os.waitpid(pid, 0)[1] >> 8), flush=True)
`

// TestBrokerConnectSignalledPID1: signals to the sandbox's PID 1's own
// threads while the broker makes a program's waiting connect (the Go
// runtime preempts its threads with SIGURG) end the broker's connect
// slice with EINTR. The Go init stage answered the program EINTR, which
// a blocking unix connect never gets from the kernel for another
// process's signal, and Python takes it for a connect going on in the
// background: it polled, found the unconnected socket writable and
// SO_ERROR 0, and reported success — a connect that never reached the
// listener (TestConnectsWhileProcessesHeld's rare lost connection).
func TestBrokerConnectSignalledPID1(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	bins := map[string]string{"default": bin, "no cgo": nocgoBinary(t)}
	for name, b := range bins {
		for _, u := range users {
			for kind, addr := range map[string]string{"path": "/tmp/w.sock", "abstract": "@omega-e2e-w" + strconv.Itoa(os.Getpid())} {
				t.Run(name+"/"+u.name+"/"+kind, func(t *testing.T) {
					w := newWorld(t, u)
					out := runPesteringPID1(t, w, b, "--", "python3", "-c", waitingConnect, addr)
					if !strings.Contains(out, "accepted 2, child status 0") {
						t.Fatalf("want the child connected and both accepted, got %q", out)
					}
				})
			}
		}
	}
}

// runPesteringPID1 runs omega-run with args and sends SIGURG to every
// thread of its PID 1 for a second and a half, starting half a second in.
func runPesteringPID1(t *testing.T, w *world, prog string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := w.cmdOf(ctx, prog, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	pid1 := childOf(cmd.Process.Pid)
	sent := 0
	for end := time.Now().Add(1500 * time.Millisecond); pid1 > 0 && time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid1))
		for _, task := range tasks {
			if tid, err := strconv.Atoi(task.Name()); err == nil && unix.Tgkill(pid1, tid, unix.SIGURG) == nil {
				sent++
			}
		}
	}
	cmd.Wait()
	if sent == 0 {
		t.Fatalf("no signal reached PID 1 (pid %d); output %q", pid1, out.String())
	}
	return out.String()
}

// childOf is the first child of any thread of pid (0: none).
func childOf(pid int) int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.Atoi(f[0])
			return n
		}
	}
	return 0
}
