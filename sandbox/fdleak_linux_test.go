package sandbox_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/omega-run/omega-run/sandbox"
)

func countFDs(t *testing.T) int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// settledFDs counts the fds once the garbage collector has closed those
// that earlier tests left to finalizers (the specs of commands started
// with cmd.Run): closed during the runs below, they made the count drop
// (25 -> 12 in make test's Go-init pass).
func settledFDs(t *testing.T) int {
	n := countFDs(t)
	for i := 0; i < 50; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // finalizers run after the collection
		m := countFDs(t)
		if m == n && i > 0 { // two collections with nothing closed
			break
		}
		n = m
	}
	return n
}

// TestRunLeaksNoFD: an embedder's Options.Run leaves no fd open after the
// run (the spec socket, kept for the program's stops, was).
func TestRunLeaksNoFD(t *testing.T) {
	if testing.Short() || os.Geteuid() != 0 {
		t.Skip("starts confined processes as root")
	}
	t.Setenv("HOME", t.TempDir())
	for _, mode := range []sandbox.Mode{sandbox.ModeSandbox} {
		opts := sandbox.Options{Mode: mode, DataDir: t.TempDir()}
		if _, err := opts.Run("/bin/true"); err != nil {
			t.Fatal(err)
		}
		before := settledFDs(t)
		for i := 0; i < 5; i++ {
			if _, err := opts.Run("/bin/true"); err != nil {
				t.Fatal(err)
			}
		}
		after := countFDs(t)
		t.Logf("%s: %d -> %d", mode, before, after)
		if after != before {
			t.Errorf("%s: %d fds before 5 runs, %d after", mode, before, after)
		}
	}
}
