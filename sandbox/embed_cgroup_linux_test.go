package sandbox_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/sandbox"
)

// needCgroups skips unless this process can create groups with l.
func needCgroups(t *testing.T, l cgroups.Limits) {
	t.Helper()
	if testing.Short() {
		t.Skip("creates cgroups and starts confined processes")
	}
	if err := cgroups.Probe(l); err != nil {
		t.Skipf("no usable cgroup here: %v", err)
	}
}

// ownGroups lists the groups of this process's commands that are in the
// hierarchy: omega-run-<pid>-* beside or below its own cgroups.
func ownGroups(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	pattern := fmt.Sprintf("omega-run-%d-*", os.Getpid())
	var found []string
	for line := range strings.Lines(strings.TrimSpace(string(data))) {
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		var dirs []string
		switch {
		case f[0] == "0":
			dirs = []string{"/sys/fs/cgroup" + filepath.Dir(f[2]), "/sys/fs/cgroup/unified" + filepath.Dir(f[2])}
		case f[1] == "memory" || f[1] == "pids" || f[1] == "cpu,cpuacct" || f[1] == "cpu":
			dirs = []string{filepath.Join("/sys/fs/cgroup", f[1], f[2])}
		}
		for _, d := range dirs {
			m, _ := filepath.Glob(filepath.Join(d, pattern))
			found = append(found, m...)
		}
	}
	return found
}

// noGroupsLeft fails when a group of this process is in the hierarchy.
func noGroupsLeft(t *testing.T, when string) {
	t.Helper()
	if left := ownGroups(t); len(left) > 0 {
		t.Errorf("%s: groups left in the hierarchy: %v", when, left)
	}
}

func limitedCommand(t *testing.T, ctx context.Context, mode sandbox.Mode, p sandbox.Process, script string, args ...string) *exec.Cmd {
	t.Helper()
	o := sandbox.Options{Mode: mode, DataDir: t.TempDir(), Process: p}
	cmd, err := o.CommandContext(ctx, "sh", append([]string{"-c", script, "sh"}, args...)...)
	if err != nil {
		t.Fatalf("%s: %v", mode, err)
	}
	return cmd
}

// TestCommandCgroupMemory: commands run at once from goroutines, each
// with its own memory limit; the one that goes beyond its limit is
// OOM-killed, the others, using less than theirs, finish. No group is
// left after Wait.
func TestCommandCgroupMemory(t *testing.T) {
	needCgroups(t, cgroups.Limits{Memory: 64 << 20})
	t.Setenv("HOME", t.TempDir())
	var wg sync.WaitGroup
	modes := []sandbox.Mode{sandbox.ModeSandbox, sandbox.ModeRX, sandbox.ModeRWX}
	for i := range 9 {
		mode := modes[i%3]
		hog := i < 3 // one per mode
		wg.Go(func() {
			// dd's buffer is bs bytes, every page written by the read.
			script := "dd if=/dev/zero of=/dev/null bs=16M count=4 2>/dev/null && echo done"
			if hog {
				script = "dd if=/dev/zero of=/dev/null bs=200M count=1 2>/dev/null && echo done"
			}
			cmd := limitedCommand(t, context.Background(), mode, sandbox.Process{Memory: "64M"}, script)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := sandbox.Start(cmd); err != nil {
				t.Errorf("%d (%s): Start: %v", i, mode, err)
				return
			}
			err := sandbox.Wait(cmd)
			switch {
			case hog && (!errors.Is(err, sandbox.ErrOOMKilled) || !strings.Contains(err.Error(), "(memory=64M)")):
				t.Errorf("%d (%s, 200M in 64M): Wait %v, stdout %q; want an OOM kill (%s)", i, mode, err, stdout.String(), stderr.String())
			case !hog && (err != nil || stdout.String() != "done\n"):
				t.Errorf("%d (%s, 16M in 64M): Wait %v, stdout %q (%s)", i, mode, err, stdout.String(), stderr.String())
			}
		})
	}
	wg.Wait()
	noGroupsLeft(t, "after Wait")
}

// TestCommandCgroupForkBomb: a fork bomb stops at its pids limit, and
// what it left runs on neither in rx mode, where no pid namespace ends
// it, once its first shell has exited, nor after a cancel.
func TestCommandCgroupForkBomb(t *testing.T) {
	needCgroups(t, cgroups.Limits{Pids: 32})
	python, err := exec.LookPath("/usr/bin/python3") // not a shim that forks
	if err != nil {
		t.Skip("no /usr/bin/python3")
	}
	t.Setenv("HOME", t.TempDir())
	for _, cancel := range []bool{false, true} {
		t.Run(fmt.Sprintf("cancel=%v", cancel), func(t *testing.T) {
			mark := fmt.Sprintf("omega-bomb-%d-%d", os.Getpid(), time.Now().UnixNano())
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			// argv marks every process of the bomb, each of which forks
			// for ever, again after each failure. The command's own
			// process exits at once, or in the cancelled run waits on
			// a stdin kept open.
			arg := "exit"
			if cancel {
				arg = "wait"
			}
			o := sandbox.Options{Mode: sandbox.ModeRX, DataDir: t.TempDir(), Process: sandbox.Process{Pids: "32"}}
			cmd, err := o.CommandContext(ctx, python, "-c", forkBomb, arg, mark)
			if err != nil {
				t.Fatal(err)
			}
			stdin, keep, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer keep.Close()
			cmd.Stdin = stdin
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := sandbox.Start(cmd); err != nil {
				t.Fatal(err)
			}
			stdin.Close()
			if cancel {
				if line, _ := bufio.NewReader(out).ReadString('\n'); line != "started\n" {
					t.Fatalf("read %q", line)
				}
				// The bomb reaches its limit and stays there.
				waitFor(t, func() bool { return groupTasks(t) == 32 })
				time.Sleep(200 * time.Millisecond)
				if n := groupTasks(t); n != 32 {
					t.Errorf("%d tasks in the group; want the bomb held at its pids limit 32", n)
				}
				stop()
			}
			go io.Copy(io.Discard, out) // the bomb's processes hold it
			if err := sandbox.Wait(cmd); err != nil && !cancel {
				t.Errorf("Wait: %v", err)
			}
			noGroupsLeft(t, "after Wait")
			if left := processesMarked(mark); len(left) > 0 {
				t.Errorf("the bomb's processes live on after Wait: %v", left)
			}
		})
	}
}

const forkBomb = `import os, sys, time
if os.fork() > 0:
    if sys.argv[1] == "wait":
        print("started", flush=True)
        sys.stdin.read()
    os._exit(0)
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)
`

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out")
		}
	}
}

// groupTasks is pids.current of this process's one pids group.
func groupTasks(t *testing.T) int {
	t.Helper()
	for _, g := range ownGroups(t) {
		if data, err := os.ReadFile(filepath.Join(g, "pids.current")); err == nil {
			var n int
			fmt.Sscan(string(data), &n)
			return n
		}
	}
	t.Fatal("no pids group found")
	return 0
}

// processesMarked lists the processes whose command line holds mark.
func processesMarked(mark string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(mark)) {
			out = append(out, filepath.Dir(p))
		}
	}
	return out
}

// TestCommandCgroupPlacedFirst: the program's very first look at its
// cgroup shows the group (rx), or the root of a cgroup namespace rooted
// there (sandbox mode).
func TestCommandCgroupPlacedFirst(t *testing.T) {
	needCgroups(t, cgroups.Limits{Memory: 64 << 20, Pids: 64})
	t.Setenv("HOME", t.TempDir())
	for _, mode := range []sandbox.Mode{sandbox.ModeRX, sandbox.ModeRWX, sandbox.ModeSandbox} {
		cmd := limitedCommand(t, context.Background(), mode, sandbox.Process{Memory: "64M", Pids: "64"}, "cat /proc/self/cgroup")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := sandbox.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := sandbox.Wait(cmd); err != nil {
			t.Fatalf("%s: %v (%s)", mode, err, stderr.String())
		}
		want := fmt.Sprintf("/omega-run-%d-", os.Getpid()) // rx, rwx: the group's path
		if mode == sandbox.ModeSandbox {
			want = ":/\n" // sandbox: the namespace's root
		}
		for _, c := range []string{"memory", "pids"} {
			line := ""
			for l := range strings.Lines(stdout.String()) {
				if strings.Contains(l, ":"+c+":") {
					line = l
				}
			}
			if !strings.Contains(line, want) {
				t.Errorf("%s: the program's %s cgroup is %q, want one with %q", mode, c, line, want)
			}
		}
	}
}

// TestCommandCgroupNeedsStart: a command with limits started without
// sandbox.Start runs nothing and exits with 125, saying why; no group
// is made for it.
func TestCommandCgroupNeedsStart(t *testing.T) {
	needCgroups(t, cgroups.Limits{Pids: 64})
	t.Setenv("HOME", t.TempDir())
	for _, mode := range []sandbox.Mode{sandbox.ModeRX, sandbox.ModeRWX, sandbox.ModeSandbox} {
		marker := filepath.Join(t.TempDir(), "ran")
		cmd := limitedCommand(t, context.Background(), mode, sandbox.Process{Pids: "64"}, `echo x > "$1"`, marker)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != sandbox.ExitLauncher || !strings.Contains(stderr.String(), "with sandbox.Start, not cmd.Start") {
			t.Errorf("%s: cmd.Run: %v, stderr %q; want 125 and the reason", mode, err, stderr.String())
		}
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("%s: the program ran", mode)
		}
	}
	noGroupsLeft(t, "after cmd.Run")
}

// TestCommandCgroupNoLeaks: limited commands, waited for with cmd.Wait
// alone, leave no group, fd or goroutine behind once they are gone.
func TestCommandCgroupNoLeaks(t *testing.T) {
	needCgroups(t, cgroups.Limits{Memory: 64 << 20})
	t.Setenv("HOME", t.TempDir())
	run := func() {
		cmd := limitedCommand(t, context.Background(), sandbox.ModeRX, sandbox.Process{Memory: "64M"}, "sleep 60 & exit 0")
		if err := sandbox.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	run() // the first start's one-time fds and goroutines
	before, goroutines := openFDs(t), runtime.NumGoroutine()
	for range 5 {
		run()
	}
	waitFor(t, func() bool { return len(ownGroups(t)) == 0 })
	waitFor(t, func() bool { return runtime.NumGoroutine() <= goroutines })
	// Each fd by number and target (fdleak_linux_test.go's openFDs), as
	// TestRunLeaksNoFD does: earlier tests' fds closing meanwhile hid
	// new ones from a count.
	var left []string
	for _, fd := range openFDs(t) {
		if !slices.Contains(before, fd) {
			left = append(left, fd)
		}
	}
	if len(left) > 0 {
		t.Errorf("fds left open by 5 commands: %q", left)
	}
}

// TestCommandCgroupExtraFiles: the go-ahead comes after the extra files,
// which the program still gets at fds 3 and up, and it does not get the
// go-ahead's pipe.
func TestCommandCgroupExtraFiles(t *testing.T) {
	needCgroups(t, cgroups.Limits{Pids: 64})
	t.Setenv("HOME", t.TempDir())
	for _, mode := range []sandbox.Mode{sandbox.ModeRX, sandbox.ModeRWX, sandbox.ModeSandbox} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		o := sandbox.Options{Mode: mode, DataDir: t.TempDir(), ExtraFiles: []*os.File{w}, Process: sandbox.Process{Pids: "64"}}
		cmd, err := o.CommandContext(context.Background(), "sh", "-c", `echo via3 >&3; ls /proc/self/fd`)
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = sandbox.Start(cmd)
		w.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		r.Close()
		if err := sandbox.Wait(cmd); err != nil || string(got) != "via3\n" {
			t.Errorf("%s: Wait %v, fd 3 gave %q (%s)", mode, err, got, stderr.String())
		}
		// ls's own fds: 0-2, 3, and the directory it reads.
		if fds := strings.Fields(stdout.String()); len(fds) > 5 {
			t.Errorf("%s: the program has fds %v", mode, fds)
		}
	}
}

// TestCommandCgroupCancelledAtStart: a context cancelled while Start runs
// ends the command as it ends one without limits: Start fails only with
// the context's error, before anything starts, or the command started
// and Wait tells how it ended. The init stage killed before it read the
// go-ahead made Start fail with the go-ahead's "broken pipe" (125), the
// process already waited for.
func TestCommandCgroupCancelledAtStart(t *testing.T) {
	needCgroups(t, cgroups.Limits{Pids: 64})
	t.Setenv("HOME", t.TempDir())
	for i := range 500 {
		ctx, stop := context.WithCancel(context.Background())
		cmd := limitedCommand(t, ctx, sandbox.ModeRX, sandbox.Process{Pids: "64"}, "true")
		// Spread over the start, where the window is (≈ 40-600 µs).
		d := time.Duration(i%30) * 20 * time.Microsecond
		go func() { time.Sleep(d); stop() }()
		if err := sandbox.Start(cmd); err != nil {
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled after %v: Start: %v; want nil or %v", d, err, context.Canceled)
			}
			continue
		}
		_ = sandbox.Wait(cmd)
	}
	noGroupsLeft(t, "after Wait")
}

// TestCommandCgroupGoInitPids: with the Go init stage, a --pids below
// what its runtime's threads need is refused up front in rx and rwx too,
// as in sandbox mode (125, saying the least). The command ended now and
// then with the runtime unable to start a thread: a goroutine dump and
// status 2, as if from the program. The C init stage runs it.
func TestCommandCgroupGoInitPids(t *testing.T) {
	needCgroups(t, cgroups.Limits{Pids: 64})
	t.Setenv("HOME", t.TempDir())
	for _, mode := range []sandbox.Mode{sandbox.ModeRX, sandbox.ModeRWX} {
		o := sandbox.Options{Mode: mode, DataDir: t.TempDir(), Process: sandbox.Process{Pids: "4"}}
		cmd, err := o.CommandContext(context.Background(), "echo", "ran")
		if !nsexec.CInit {
			var e *sandbox.Error
			if !errors.As(err, &e) || e.Code != sandbox.ExitLauncher || !strings.Contains(err.Error(), "give at least 16") {
				t.Errorf("%s, Go init stage, --pids 4: %v; want 125 and the least --pids", mode, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := sandbox.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := sandbox.Wait(cmd); err != nil || stdout.String() != "ran\n" {
			t.Errorf("%s, C init stage, --pids 4: %v, stdout %q (%s)", mode, err, stdout.String(), stderr.String())
		}
	}
}
