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
tag = os.urandom(6).hex()  # the host's abstract namespace: other runs' sandboxes have our pid too
full = unix(); full.bind("\0full-" + tag); full.listen(0)
keep = []
for _ in range(3):
    c = unix(); c.setblocking(False)
    try: c.connect(full.getsockname())
    except BlockingIOError: pass
    keep.append(c)
threading.Thread(target=lambda: unix().connect(full.getsockname()), daemon=True).start()
time.sleep(0.3)
other = unix(); other.bind("\0other-" + tag); other.listen(8)
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

// blockedStream is run by the program under --net none: a blocking MPTCP
// connect (which Landlock's TCP rules do not see) to its own loopback
// listener whose queue is full waits in a thread; meanwhile an abstract
// connect goes through at once; once the listener accepts, the waiting
// one is connected; one with SO_SNDTIMEO 1 s ends with EINPROGRESS then.
const blockedStream = `
import os, socket, struct, threading, time
def mptcp(): return socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)
full = mptcp(); full.bind(("127.0.0.1", 0)); full.listen(0)
keep = []
for _ in range(4):
    c = mptcp(); c.setblocking(False)
    try: c.connect(full.getsockname())
    except BlockingIOError: pass
    keep.append(c)
time.sleep(0.3)
c = mptcp(); tv = struct.pack("ll", 1, 0); c.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
t = time.time()
try: c.connect(full.getsockname()); print("timed connected")
except OSError as e: print("timed errno %d after %.0f s" % (e.errno, time.time() - t))
got = []
def wait():
    c = mptcp(); c.connect(full.getsockname()); got.append("connected")
th = threading.Thread(target=wait, daemon=True); th.start()
time.sleep(0.3)
other = socket.socket(socket.AF_UNIX); other.bind(""); other.listen(8) # "": autobind, a name no other sandbox holds
t = time.time(); socket.socket(socket.AF_UNIX).connect(other.getsockname()); print("abstract %.1f" % (time.time() - t))
full.settimeout(0.5)
try:
    while True: full.accept()
except socket.timeout: pass
th.join(5); print(got)
import sys; sys.stdout.flush(); os._exit(0)
`

// TestBrokerBlockedStream: under --net none the Go init stage's broker
// makes inet connects on its Landlock thread too (for the TCP rules); a
// blocking stream connect there was not sliced as a unix one is, and
// held every abstract connect of the program up to the kernel's SYN
// retries (two minutes). Both init stages.
func TestBrokerBlockedStream(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			r := w.run("--net", "none", "--", "python3", "-c", blockedStream)
			want := "timed errno 115 after 1 s\nabstract 0.0\n['connected']\n"
			if r.code != 0 || r.stdout != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
			}
		})
	}
}
