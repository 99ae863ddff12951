//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// forkConnect forks until fork fails; every child makes a blocking
// connect to the program's unix listener (/tmp, backlog 0), which accepts
// only once all have forked and waited a second; then it lets them go
// and says how many it accepted and how many children failed.
const forkConnect = `import os, socket, time
path = "/tmp/fc.sock"
if os.path.exists(path): os.unlink(path) # the run before's
l = socket.socket(socket.AF_UNIX); l.bind(path); l.listen(0)
r, w = os.pipe()
kids = []
while len(kids) < 1000:
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.close(w)
        try: socket.socket(socket.AF_UNIX).connect(path)
        except OSError: os._exit(3)
        os.read(r, 1)
        os._exit(0)
    kids.append(pid)
time.sleep(1)
l.settimeout(0.5)
got, end = [], time.time() + 20
while len(got) < len(kids) and time.time() < end:
    try: got.append(l.accept()[0])
    except socket.timeout: pass
os.close(w)
failed = sum(1 for p in kids if os.waitpid(p, 0)[1] != 0)
print("accepted %d of %d, failed %d" % (len(got), len(kids), failed), flush=True)
`

// TestConnectsWhileProcessesHeld: once the program holds every process
// its limit allows (nproc for a user, --pids for root), its children's
// blocking connects to a listener that does not accept yet wait, as they
// would without omega-run, and go through once it accepts. The Go init
// stage's connect broker made each wait in one of PID 1's threads: the Go
// runtime then wanted a thread it could not start and ended PID 1
// ("fatal error: newosproc", status 2, the program killed).
func TestConnectsWhileProcessesHeld(t *testing.T) {
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 9 {
		t.Skip("Landlock ABI 9: no connect broker")
	}
	uid := 40000 + (os.Getpid()+11)%20000
	bins := bothStages(t)
	for name, b := range bins {
		for _, u := range []user{rootUser, {"u" + strconv.Itoa(uid), uid, uid}} {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				args := []string{"--nproc=80:80", "--", b}
				if u.uid == 0 { // exempt from nproc
					args = append(args, "--pids", "50")
				}
				args = append(args, "--", "python3", "-c", forkConnect)
				for run := 0; run < 3; run++ { // it crashed in the first
					// The last with the caller's GOMAXPROCS, which PID 1
					// inherits: one P more, one thread more.
					code, out := connectsWhileHeld(t, w, args, run == 2)
					if u.uid != 0 {
						uidGone(t, uid)
					}
					var got, kids, failed int
					_, err := fmt.Sscanf(out, "accepted %d of %d, failed %d", &got, &kids, &failed)
					if code != 0 || err != nil || failed != 0 || kids < 10 || strings.Contains(out, "goroutine") {
						t.Fatalf("run %d: exit %d, output %.600q; want 0 and every child connected", run, code, out)
					}
					// One that never reached the listener: PID 1 gave a
					// child EINTR for a slice a signal of its own ended
					// (TestBrokeredConnectPID1Interrupted), about 1 run in
					// 20 of the Go init stage.
					if got != kids {
						t.Fatalf("run %d: %d of %d connections never reached the listener", run, kids-got, kids)
					}
				}
			})
		}
	}
}

// connectsWhileHeld runs prlimit with args (40 s at most), with
// GOMAXPROCS=32 where procs, and returns its status and output.
func connectsWhileHeld(t *testing.T, w *world, args []string, procs bool) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	cmd := w.cmdOf(ctx, "prlimit", args...)
	if procs {
		cmd.Env = append(cmd.Env, "GOMAXPROCS=32")
	}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("still running after 40 s: %.600q", out)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return shellStatus(cmd.ProcessState), string(out)
}
