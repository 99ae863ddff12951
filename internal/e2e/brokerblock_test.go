//go:build linux

package e2e

import (
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// blockedConnect is run by the program: a blocking connect to its own
// abstract listener whose backlog is full and which never accepts waits
// in a thread; meanwhile an abstract connect to another listener, and
// one to a path, go through at once, and a connect to the full one with
// SO_SNDTIMEO 1 s ends with EAGAIN about then, its timeout intact.
const blockedConnect = `
import os, socket, struct, threading, time
def unix(): return socket.socket(socket.AF_UNIX)
full = unix(); full.bind("\0full-%d" % os.getpid()); full.listen(0)
keep = []
for _ in range(3):
    c = unix(); c.setblocking(False)
    try: c.connect(full.getsockname())
    except BlockingIOError: pass
    keep.append(c)
threading.Thread(target=lambda: unix().connect(full.getsockname()), daemon=True).start()
time.sleep(0.3)
other = unix(); other.bind("\0other-%d" % os.getpid()); other.listen(8)
t = time.time(); unix().connect(other.getsockname()); print("abstract %.1f" % (time.time() - t))
if os.path.exists("/tmp/bb.sock"): os.unlink("/tmp/bb.sock")
p = unix(); p.bind("/tmp/bb.sock"); p.listen(8)
t = time.time(); unix().connect("/tmp/bb.sock"); print("path %.1f" % (time.time() - t))
c = unix(); tv = struct.pack("ll", 1, 0); c.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
t = time.time()
try: c.connect(full.getsockname()); print("timed connected")
except OSError as e: print("timed errno %d after %.0f s, timeout kept %s" % (e.errno, time.time() - t, c.getsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, 16) == tv))
import sys; sys.stdout.flush(); os._exit(0)
`

// TestBrokerBlockedConnect: a blocking connect that never completes holds
// up no other connect of the program. The Go init stage's broker makes
// abstract connects on one thread (the one with the program's Landlock
// domain): a version that let one connect hold it made every other
// abstract connect wait, then fail with EAGAIN.
func TestBrokerBlockedConnect(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.run("--", "python3", "-c", blockedConnect)
			want := "abstract 0.0\npath 0.0\ntimed errno 11 after 1 s, timeout kept True\n"
			if r.code != 0 || r.stdout != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
			}
		})
	}
}
