//go:build linux

package e2e

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// callerBlocked is what the callers below block: SIGINT and SIGTERM
// (which the Go runtime unblocks as it starts), SIGUSR2 and SIGWINCH
// (forwarded by PID 1), 34 (which the C libraries keep for themselves)
// and a real-time signal.
const callerBlocked = "2,12,15,28,34,37"

// sigField is the hex value of a /proc/PID/status line such as SigBlk.
func sigField(out, name string) (uint64, bool) {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, name+":\t"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// TestProgramSigmask: the program starts with its caller's blocked
// signals, as a plain exec leaves them: the caller blocks callerBlocked,
// execs omega-run, and the program reports its SigBlk, which must equal
// what the caller's direct exec of it reports. In rwx, rx (in place, and
// as root with --pids through the init stage), sandbox (started early,
// re-executed with --workdir, and with --net none) as root and nobody.
func TestProgramSigmask(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			blk := func(args ...string) uint64 {
				argv := []string{"with-signals", "-", callerBlocked}
				if args != nil {
					argv = append(append(argv, bin), append(args, "--")...)
				}
				r := w.runProg(probe, append(argv, "/bin/grep", "^SigBlk", "/proc/self/status")...)
				v, ok := sigField(r.stdout, "SigBlk")
				if r.code != 0 || !ok {
					t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
				}
				return v
			}
			want := blk() // the caller's own exec
			const listed = 1<<1 | 1<<11 | 1<<14 | 1<<27 | 1<<36
			if want&listed != listed {
				t.Fatalf("the caller's exec: SigBlk %#x lacks some of %s", want, callerBlocked)
			}
			cases := [][]string{
				{"--mode", "rwx"},
				{"--mode", "rx"},
				{"--mode", "sandbox"},
				{"--mode", "sandbox", "--workdir", w.home},
				{"--mode", "sandbox", "--net", "none"},
			}
			if u.uid == 0 { // a cgroup: rx's init stage as omega-run's child
				cases = append(cases, []string{"--mode", "rx", "--pids", "100"})
			}
			for _, c := range cases {
				if got := blk(c...); got != want {
					t.Errorf("%v: the program's SigBlk %#x, want %#x as the caller's exec", c, got, want)
				}
			}
		})
	}
}

// pendingScript waits for a line, then prints its ShdPnd and SigBlk.
// Python, not a shell: dash clears its signal mask as it starts.
const pendingScript = `import sys
print("ready", flush=True)
sys.stdin.readline()
for l in open("/proc/self/status"):
    if l.startswith(("ShdPnd", "SigBlk")): print(l, end="")`

// TestBlockedSignalForwarded: SIGTERM and SIGUSR2 sent to omega-run
// whose caller blocked them are not lost: omega-run passes them on as
// README says, and the program, which starts with them blocked as its
// caller had them, finds them pending (ShdPnd), as after a plain exec.
// (The Go runtime unblocks SIGTERM on its threads as it starts; SIGUSR2
// stayed blocked on all of them, so the C handler never ran.)
func TestBlockedSignalForwarded(t *testing.T) {
	for _, c := range []struct {
		args []string
		u    user
	}{
		{[]string{"--mode", "rwx"}, nobody}, {[]string{"--mode", "rx"}, nobody},
		{[]string{"--mode", "sandbox"}, nobody}, {[]string{"--mode", "sandbox"}, rootUser},
		{[]string{"--mode", "rx", "--pids", "100"}, rootUser}, // omega-run stays the parent
	} {
		t.Run(strings.Join(c.args[1:], " ")+"/"+c.u.name, func(t *testing.T) {
			w := newWorld(t, c.u)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			argv := append([]string{"with-signals", "-", "12,15", bin}, c.args...)
			c := w.cmdOf(ctx, probe, append(argv, "--", "/usr/bin/python3", "-c", pendingScript)...)
			stdin, err := c.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out := startAndWaitReady(t, c)
			syscall.Kill(c.Process.Pid, syscall.SIGTERM)
			syscall.Kill(c.Process.Pid, syscall.SIGUSR2)
			time.Sleep(300 * time.Millisecond)
			stdin.Write([]byte("go\n"))
			stdin.Close()
			rest := readLine(t, out) + "\n" + readLine(t, out)
			c.Wait()
			pnd, _ := sigField(rest, "ShdPnd")
			blk, _ := sigField(rest, "SigBlk")
			const both = 1<<11 | 1<<14
			if code := shellStatus(c.ProcessState); code != 0 || pnd&both != both || blk&both != both {
				t.Errorf("exit %d, program reported %q: want exit 0, SIGUSR2 and SIGTERM blocked and pending", code, rest)
			}
		})
	}
}
