package sandbox_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// openFDs is this process's open fds, each as its number and what it
// names ("7 socket:[123]"): a file closed and another opened at its
// number is told apart, unless both are the same file.
func openFDs(t *testing.T) []string {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var fds []string
	for _, e := range es {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil {
			fds = append(fds, e.Name()+" "+target)
		}
	}
	return fds
}

// TestRunLeaksNoFD: an embedder's Options.Run leaves no fd open after the
// run (the spec socket, kept for the program's stops, was). It looks for
// fds the runs left, not at the count: the fds earlier tests leave to
// finalizers (the specs of commands started with cmd.Run) or to their
// goroutines close at any time, and made the count drop during the runs
// (25 -> 12 in make test's Go-init pass; 23 -> 12 with -race -cpu=1,2,4 at
// load 12, after the collections that were to settle them).
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
		before := openFDs(t)
		for i := 0; i < 5; i++ {
			if _, err := opts.Run("/bin/true"); err != nil {
				t.Fatal(err)
			}
		}
		var left []string
		for _, fd := range openFDs(t) {
			if !slices.Contains(before, fd) {
				left = append(left, fd)
			}
		}
		if len(left) > 0 {
			t.Errorf("%s: fds left open by 5 runs: %q", mode, left)
		}
	}
}
