//go:build linux

package e2e

import (
	"path/filepath"
	"testing"
)

// TestBrokerBeforePathFDsClosed: the Go init stage's broker served the
// program's connects from its start on, while PID 1 still held the
// directory fds the caller leaked (it closes them just after the start):
// a path through /proc/self/fd/9, resolved with PID 1's fd table, led
// into the host's root, a writable mount there, and to a host socket.
// Many leaked fds (closed in name order, 9 among the last) widen that
// moment; the program connects again and again from its first instant.
// The C broker serves only after closing them.
func TestBrokerBeforePathFDsClosed(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			host := filepath.Join(root, "early-"+worldID(w)+".sock")
			got := listenUnix(t, host)
			// fds 3…900: below the usual soft nofile of 1024, so that the
			// launcher can still open files.
			r := w.runWith(nil, leakedRoots(t, 898), bin, "--", probe, "connect-unix-early", "/proc/self/fd/9"+host, "300")
			if got() {
				t.Errorf("the host's socket took a connection through PID 1's fd 9: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
}
