package sandbox

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestLockWaitKeepsSignalsOnce: a signal that comes while a launch waits
// for the state lock reaches the launch's catcher once, and nothing else
// in the process a second time: an embedder catching SIGWINCH itself (or
// a concurrent launch's catcher, whose program would get it twice) saw
// it twice when the wait re-raised it with kill.
func TestLockWaitKeepsSignalsOnce(t *testing.T) {
	dir := t.TempDir()
	holder, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	own, launch := make(chan os.Signal, 8), make(chan os.Signal, 16)
	signal.Notify(own, syscall.SIGWINCH)
	defer signal.Stop(own)
	signal.Notify(launch, syscall.SIGWINCH)
	defer signal.Stop(launch)
	fd, let := int(holder.Fd()), make(chan struct{})
	go func() {
		defer close(let)
		time.Sleep(100 * time.Millisecond)
		syscall.Kill(os.Getpid(), syscall.SIGWINCH)
		time.Sleep(200 * time.Millisecond)
		syscall.Flock(fd, syscall.LOCK_UN)
	}()
	defer func() { <-let }()
	f, _, err := lockState(dir, launch)
	if err != nil || f == nil {
		t.Fatalf("lockState: %v, %v", f, err)
	}
	f.Close()
	time.Sleep(200 * time.Millisecond) // a re-raise is asynchronous
	if n, m := len(own), len(launch); n != 1 || m != 1 {
		t.Errorf("SIGWINCH seen %d times by the process's other catcher, %d by the launch's; want once each", n, m)
	}
}
