package sandbox_test

import (
	"context"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/sandbox"
)

// TestUnstartedLimitedCommandFDs: a command with cgroup limits that is
// never started holds no more fds than one without (its spec's memfd,
// closed with it), and none is left once it is dropped and collected.
// Each held a pipe, its go-ahead placeholder, which a package map kept
// from the garbage collector until a later command's spec took the same
// fd number: 20 dropped commands left 20 pipes open.
func TestUnstartedLimitedCommandFDs(t *testing.T) {
	needCgroups(t, cgroups.Limits{Pids: 64})
	t.Setenv("HOME", t.TempDir())
	const n = 20
	build := func(p sandbox.Process) []*exec.Cmd {
		var cmds []*exec.Cmd
		for range n {
			o := sandbox.Options{Mode: sandbox.ModeRX, DataDir: t.TempDir(), Process: p}
			cmd, err := o.CommandContext(context.Background(), "true")
			if err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		return cmds
	}
	// Fds that the first commands open once, for good, and garbage
	// from earlier tests, out of the way.
	build(sandbox.Process{Pids: "64"})
	settleFDs(t, nil)
	before := openFDs(t)
	held := map[string]int{}
	for _, p := range []sandbox.Process{{}, {Pids: "64"}} {
		cmds := build(p)
		held[p.Pids] = len(newFDs(before, openFDs(t)))
		runtime.KeepAlive(cmds)
		settleFDs(t, before)
	}
	if held["64"] != held[""] {
		t.Errorf("%d unstarted commands hold %d fds with a pids limit, %d without; want the same", n, held["64"], held[""])
	}
}

// settleFDs collects garbage until no fd beyond before is open, or for
// 10 s; with before nil, until the count stops falling.
func settleFDs(t *testing.T, before []string) {
	t.Helper()
	var left []string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		prev := len(left)
		runtime.GC()
		left = newFDs(before, openFDs(t))
		if len(left) == 0 || before == nil && len(left) == prev {
			return
		}
	}
	t.Errorf("fds left open by dropped, unstarted commands: %q", left)
}

// newFDs is what of after was not in before.
func newFDs(before, after []string) []string {
	var out []string
	for _, fd := range after {
		if !slices.Contains(before, fd) && !strings.Contains(fd, "/proc/") {
			out = append(out, fd)
		}
	}
	return out
}
