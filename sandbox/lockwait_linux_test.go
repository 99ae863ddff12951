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
// it twice when the wait re-raised it with kill. On events, not timers:
// the lock goes once the wait has taken the signal from the launch's
// channel, and a SIGPWR sent after the wait, which the runtime hands on
// after a SIGWINCH pending before it, shows that any re-raise has come.
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
	own, caught, after := make(chan os.Signal, 8), make(chan os.Signal, 16), make(chan os.Signal, 1)
	signal.Notify(own, syscall.SIGWINCH)
	defer signal.Stop(own)
	signal.Notify(caught, syscall.SIGWINCH)
	defer signal.Stop(caught)
	// The launch's catcher, its first signal relayed: the wait's taking
	// it from launch is seen; any later one stays in caught.
	launch, relayed := make(chan os.Signal, 1), make(chan struct{})
	go func() {
		launch <- <-caught
		close(relayed)
	}()
	fd, let := int(holder.Fd()), make(chan struct{})
	go func() {
		defer close(let)
		syscall.Kill(os.Getpid(), syscall.SIGWINCH)
		<-relayed
		for len(launch) > 0 { // the wait has not taken it yet
			time.Sleep(time.Millisecond)
		}
		syscall.Flock(fd, syscall.LOCK_UN)
	}()
	defer func() { <-let }()
	f, _, err := lockState(dir, launch)
	if err != nil || f == nil {
		t.Fatalf("lockState: %v, %v", f, err)
	}
	f.Close()
	signal.Notify(after, syscall.SIGPWR)
	defer signal.Stop(after)
	syscall.Kill(os.Getpid(), syscall.SIGPWR)
	<-after
	if n, m := len(own), 1+len(caught); n != 1 || m != 1 || len(launch) != 1 {
		t.Errorf("SIGWINCH seen %d times by the process's other catcher, %d by the launch's (%d kept for its program); want once each, kept", n, m, len(launch))
	}
}
