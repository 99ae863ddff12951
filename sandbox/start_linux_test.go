package sandbox

import (
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestStartChild: the environment is cmd.Environ()'s, extra files arrive
// at 3…, the status is the child's, and signalling a reaped child is a
// no-op.
func TestStartChild(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "extra")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", `echo "$A" >&1; test -e /proc/self/fd/3 || exit 9; exit 3`)
	cmd.Env = []string{"A=1", "A=2"}
	cmd.Stdout, cmd.Stderr = out, os.Stderr
	cmd.ExtraFiles = []*os.File{f}
	proc, err := startChild(cmd)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := proc.wait()
	if err != nil || ws.ExitStatus() != 3 {
		t.Fatalf("status %v, %v; want exit 3", ws, err)
	}
	proc.signal(unix.SIGTERM) // reaped: must not signal a reused pid
	if b, _ := os.ReadFile(out.Name()); strings.TrimSpace(string(b)) != "2" {
		t.Errorf("child saw A=%q, want the later value 2", b)
	}
	if _, err := startChild(exec.Command("/nonexistent")); err == nil || !strings.HasPrefix(err.Error(), "fork/exec /nonexistent:") {
		t.Errorf("error %v, want os/exec's fork/exec form", err)
	}
}

// TestCatchSignals: a caught signal arrives on the channel, and after stop
// the Go runtime handles it again (signal.Notify sees it).
func TestCatchSignals(t *testing.T) {
	c := catchSignals([]os.Signal{unix.SIGUSR2})
	if err := unix.Kill(os.Getpid(), unix.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	select {
	case sig := <-c.C():
		if sig != unix.SIGUSR2 {
			t.Errorf("got %v, want SIGUSR2", sig)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("caught signal never arrived")
	}
	c.stop()
	c.stop() // idempotent
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, unix.SIGUSR2)
	defer signal.Stop(ch)
	unix.Kill(os.Getpid(), unix.SIGUSR2)
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("after stop, the runtime no longer sees the signal")
	}
}
