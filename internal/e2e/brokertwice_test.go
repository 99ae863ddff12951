//go:build linux

package e2e

import (
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// connectTwice is run by the program: two threads connect one blocking
// socket (SO_SNDTIMEO 3 s of its own, or none with argv[1] "0") to a full
// listener (argv[2]: abstract or path), the second 0.3 s after the first; 0.8 s in, the
// listener accepts. The kernel has both wait (one connects, the other
// then fails with EISCONN) and leaves the socket's SO_SNDTIMEO alone.
const connectTwice = `
import errno, os, socket, struct, sys, threading, time
tag = os.urandom(6).hex()  # the host's abstract namespace
l = socket.socket(socket.AF_UNIX); l.bind({"abstract": "\0", "path": "/tmp/"}[sys.argv[2]] + "two" + tag); l.listen(0)
keep = []
for _ in range(4):
    c = socket.socket(socket.AF_UNIX); c.setblocking(False)
    try: c.connect(l.getsockname())
    except OSError: pass
    keep.append(c)
s = socket.socket(socket.AF_UNIX)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", int(sys.argv[1]), 0))
out = {}
def conn(name):
    t = time.time()
    try: s.connect(l.getsockname()); r = "ok"
    except OSError as e: r = errno.errorcode.get(e.errno, e.errno)
    out[name] = (r, time.time() - t)
a = threading.Thread(target=conn, args=("a",)); a.start()
time.sleep(0.3)
b = threading.Thread(target=conn, args=("b",)); b.start()
time.sleep(0.5)
l.settimeout(0.5)
try:
    for _ in range(8): l.accept()
except OSError: pass
a.join(); b.join()
for name in "ab":
    r, took = out[name]
    print(name, "waited" if r in ("ok", "EISCONN") and took > 0.3 else "%s after %.2f s" % (r, took))
print("SO_SNDTIMEO", struct.unpack("ll", s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, 16))[0])
`

// TestBrokerConnectTwice: a brokered blocking connect of a socket that
// another thread is connecting waited its turn too. The broker slices the
// first's wait with a 50 ms SO_SNDTIMEO, which the second then took for
// the socket's own: it failed with EAGAIN after 50 ms, as no blocking
// connect without a timeout does.
func TestBrokerConnectTwice(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	for _, u := range users {
		for _, c := range []struct{ own, kind string }{{"0", "abstract"}, {"3", "abstract"}, {"0", "path"}, {"3", "path"}} {
			own := c.own
			t.Run(u.name+"/"+c.kind+"/sndtimeo="+own, func(t *testing.T) {
				w := newWorld(t, u)
				w.timeout = 15 * time.Second
				r := w.run("--", "python3", "-c", connectTwice, own, c.kind)
				want := "a waited\nb waited\nSO_SNDTIMEO " + own + "\n"
				if r.code != 0 || r.stdout != want {
					t.Errorf("exit %d, stdout %q, stderr %q; want %q", r.code, r.stdout, r.stderr, want)
				}
			})
		}
	}
}
