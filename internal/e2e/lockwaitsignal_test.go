//go:build linux

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStateLockWaitInterrupted: Ctrl-C or a service stop ends a launch
// that waits for another launch's state lock, a wait with no end. The
// signals are caught from the start for a program not started yet, so
// before, the launch went on waiting (and ran the program once the lock
// came free); now it ends as the program would have, killed by the
// signal, and the program never runs. A SIGUSR1 during the wait does not
// end it.
func TestStateLockWaitInterrupted(t *testing.T) {
	for _, u := range users {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(u.name+"/"+sig.String(), func(t *testing.T) {
				w := newWorld(t, u)
				dir := filepath.Join(w.home, ".claude")
				ran := filepath.Join(w.home, ".omega", "ran")
				claude, _ := fakeClaude(t, w, `touch `+ran)
				mustMkdir(t, dir)
				chownTree(t, w.home, u)
				held := holdLock(t, dir, 25*time.Second)
				ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
				defer cancel()
				c := w.cmd(ctx, "--", claude)
				var stderr lockedBuffer
				c.Stderr = &stderr
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				for deadline := time.Now().Add(15 * time.Second); !strings.Contains(stderr.String(), "waiting for process"); time.Sleep(50 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("no wait said; stderr %q", stderr.String())
					}
				}
				c.Process.Signal(syscall.SIGUSR1)
				time.Sleep(200 * time.Millisecond)
				start := time.Now()
				c.Process.Signal(sig)
				err := c.Wait()
				select {
				case <-held:
					t.Errorf("the launch ended only once the lock was let go (%v after the signal): %v", time.Since(start), err)
				default:
				}
				if ws, ok := c.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
					t.Errorf("ended %v, want killed by %v; stderr %q", c.ProcessState, sig, stderr.String())
				}
				if _, err := os.Stat(ran); err == nil {
					t.Error("the program ran after the stop")
				}
			})
		}
	}
}
