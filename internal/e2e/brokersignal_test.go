//go:build linux

package e2e

import (
	"bufio"
	"context"
	"syscall"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// signalledConnect is run by the program: a blocking connect to its own
// listener whose backlog is full (argv[1]: a unix path, an abstract name,
// or tcp) with a SIGALRM handler that raises and alarm(1), as programs
// time a connect out (wget -T); with argv[2] "term" the handler returns
// and the program connects again until the test's SIGTERM ends it.
const signalledConnect = `
import os, signal, socket, sys, time
kind, then = sys.argv[1], sys.argv[2]
class Alarm(Exception): pass
def on_alarm(*a):
    if then == "raise": raise Alarm()
signal.signal(signal.SIGALRM, on_alarm)
fam = socket.AF_INET if kind == "tcp" else socket.AF_UNIX
addr = {"tcp": ("127.0.0.1", 0), "path": "/tmp/full-%d.sock" % os.getpid(), "abstract": ""}[kind] # "": autobind
if kind == "path" and os.path.exists(addr): os.unlink(addr) # the pid of the run before
l = socket.socket(fam); l.bind(addr); l.listen(0); addr = l.getsockname()
keep = []
for _ in range(8):
    c = socket.socket(fam); c.setblocking(False)
    try: c.connect(addr)
    except (BlockingIOError, InterruptedError): pass
    keep.append(c)
signal.alarm(1)
print("waiting", flush=True)
t = time.time()
try:
    while True: socket.socket(fam).connect(addr) # again after EINTR in "term"
except Alarm: print("interrupted after %.0f s" % (time.time() - t))
sys.stdout.flush(); os._exit(0)
`

// restartedConnect is run by the program: its SIGALRM handler has
// SA_RESTART (argv[1] "restart") or not ("intr"); a blocking connect to
// its full abstract listener, which accepts 2 s in, is then restarted
// by the kernel, or fails with EINTR at the alarm.
const restartedConnect = `
import ctypes, os, signal, socket, sys, threading, time
libc = ctypes.CDLL(None, use_errno=True)
signal.signal(signal.SIGALRM, lambda *a: None)
signal.siginterrupt(signal.SIGALRM, sys.argv[1] == "intr")
l = socket.socket(socket.AF_UNIX); l.bind(""); l.listen(0)
keep = []
for _ in range(4):
    c = socket.socket(socket.AF_UNIX); c.setblocking(False)
    try: c.connect(l.getsockname())
    except OSError: pass
    keep.append(c)
def later():
    time.sleep(2)
    for _ in range(8): l.accept()
threading.Thread(target=later, daemon=True).start()
signal.alarm(1)
addr = b"\x01\x00" + l.getsockname()
s = socket.socket(socket.AF_UNIX)
r = libc.connect(s.fileno(), addr, len(addr))
print(r, os.strerror(ctypes.get_errno()) if r else "")
`

// TestBrokerConnectSignalled: a signal ends a brokered blocking connect
// as it ends the kernel's. The connect broker's listener waits killably
// once it has the call, and the kernel wakes no thread for a fatal
// signal that comes while a caught one is pending: wget -T's SIGALRM
// never ran during the connect, and timeout(1)'s SIGTERM or Ctrl-C then
// did not end the program either (a unix listener that never accepts:
// for ever; a TCP address that drops SYNs: ~2 min).
func TestBrokerConnectSignalled(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	for _, u := range users {
		for _, kind := range []string{"path", "abstract", "tcp"} {
			t.Run(u.name+"/"+kind, func(t *testing.T) {
				w := newWorld(t, u)
				w.timeout = 15 * time.Second
				r := w.run("--", "python3", "-c", signalledConnect, kind, "raise")
				if r.code != 0 || r.stdout != "waiting\ninterrupted after 1 s\n" {
					t.Errorf("SIGALRM: exit %d, stdout %q, stderr %q; want interrupted after 1 s", r.code, r.stdout, r.stderr)
				}
				if kind == "abstract" {
					for mode, want := range map[string]string{"restart": "0 \n", "intr": "-1 Interrupted system call\n"} {
						if r := w.run("--", "python3", "-c", restartedConnect, mode); r.code != 0 || r.stdout != want {
							t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", mode, r.code, r.stdout, r.stderr, want)
						}
					}
				}
				if code, took := termDuringConnect(t, w, kind); code != 128+int(syscall.SIGTERM) || took > 5*time.Second {
					t.Errorf("SIGTERM after SIGALRM: exit %d after %v; want %d at once", code, took, 128+int(syscall.SIGTERM))
				}
			})
		}
	}
}

// termDuringConnect sends SIGTERM to omega-run 1.5 s after the program
// started its connect (its SIGALRM came and went) and says how it ended.
func termDuringConnect(t *testing.T, w *world, kind string) (int, time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := w.cmd(ctx, "--", "python3", "-c", signalledConnect, kind, "term")
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.WaitDelay = 2 * time.Second
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "waiting\n" {
		t.Errorf("program said %q", line)
	}
	time.Sleep(1500 * time.Millisecond)
	start := time.Now()
	c.Process.Signal(syscall.SIGTERM)
	c.Wait()
	if ctx.Err() != nil {
		return -1, time.Since(start)
	}
	return shellStatus(c.ProcessState), time.Since(start)
}
