//go:build linux

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// togglingConnects is run by the program: 8 processes each connect to
// its full unix listener (argv[1]: a path or an abstract name), which
// never accepts, while a thread of theirs flips the socket's O_NONBLOCK
// as fast as it can, until a connect waits (the socket was blocking
// then), which their SIGALRM a second in ends, as it ends the kernel's.
// Then it says how many have not ended, and times a connect to a
// listener with room.
const togglingConnects = `
import fcntl, os, signal, socket, sys, threading, time
def listener(name, backlog):
    a = "/tmp/nb-%s.sock" % name if sys.argv[1] == "path" else "" # "": autobind
    if a and os.path.exists(a): os.unlink(a)
    l = socket.socket(socket.AF_UNIX); l.bind(a); l.listen(backlog)
    return l, l.getsockname()
full, full_addr = listener("full", 0)
filler = socket.socket(socket.AF_UNIX); filler.connect(full_addr) # the backlog's one place
room, room_addr = listener("room", 64)
class Alarm(Exception): pass
def on_alarm(*a): raise Alarm()
def race():
    fd = [-1]
    def flip():
        while True:
            try: fcntl.fcntl(fd[0], fcntl.F_SETFL, fcntl.fcntl(fd[0], fcntl.F_GETFL) ^ os.O_NONBLOCK)
            except (OSError, ValueError): pass # between sockets
    threading.Thread(target=flip, daemon=True).start()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(1)
    try:
        while True:
            s = socket.socket(socket.AF_UNIX); fd[0] = s.fileno()
            try: s.connect(full_addr)
            except OSError: pass
            s.close()
    except Alarm: os._exit(0)
kids = []
for _ in range(8):
    pid = os.fork()
    if pid == 0:
        race()
    kids.append(pid)
time.sleep(2.5)
print("%d still connecting" % sum(1 for p in kids if os.waitpid(p, os.WNOHANG)[0] == 0), flush=True)
t = time.time()
socket.socket(socket.AF_UNIX).connect(room_addr)
print("probe connected after %.1f s" % (time.time() - t), flush=True)
for p in kids:
    try: os.kill(p, 9)
    except OSError: pass # ended
`

// TestBrokerConnectNonblockToggled: a program that clears its socket's
// O_NONBLOCK while the connect broker makes its connect stalls its own
// connect at most, never the sandbox's other connects. The Go init
// stage's broker looked at O_NONBLOCK, then connected without a slice
// where it was set: cleared in between, the connect waited for ever in
// one of PID 1's two work slots (a unix path), or on its locked thread,
// which makes every abstract connect of the sandbox (an abstract name).
func TestBrokerConnectNonblockToggled(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	bins := bothStages(t)
	for name, b := range bins {
		for _, u := range users {
			for _, kind := range []string{"path", "abstract"} {
				t.Run(strings.Join([]string{name, u.name, kind}, "/"), func(t *testing.T) {
					w := newWorld(t, u)
					out := toggledRun(t, w, b, kind)
					if !strings.HasPrefix(out, "0 still connecting\nprobe connected after 0.") {
						t.Errorf("program said %q; want every connect ended by its alarm, the probe's within a second", out)
					}
				})
			}
		}
	}
}

// toggledRun runs togglingConnects with b (10 s at most) and returns its
// output.
func toggledRun(t *testing.T, w *world, b, kind string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := w.cmdOf(ctx, b, "--", "python3", "-c", togglingConnects, kind)
	c.WaitDelay = 2 * time.Second
	out, _ := c.Output()
	if ctx.Err() != nil {
		return string(out) + "(still running after 10 s)"
	}
	return string(out)
}
