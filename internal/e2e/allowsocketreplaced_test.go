//go:build linux

package e2e

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAllowSocketReplacedSaid: an --allow-socket that a service replaces
// on the host while the sandbox runs (a restart binds a new socket at the
// same path) is refused, since PID 1 holds the original and matches by
// it. The refusal said "a socket outside the writable set (allow it with
// --allow-socket)", which it was already given; it says now that the
// allowed socket was replaced, and to start the launch again.
func TestAllowSocketReplacedSaid(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			allowed, signal := filepath.Join(w.extra, "svc.sock"), filepath.Join(w.extra, "restarted")
			ln, err := net.Listen("unix", allowed)
			if err != nil {
				t.Fatal(err)
			}
			os.Chmod(allowed, 0o777)
			c, _, stderr := startReady(t, w, "--allow-socket", allowed, "--", probe, "connect-unix-when", signal, allowed)
			ln.Close() // removes the socket file too: the service restarts
			listenUnix(t, allowed)
			if err := os.WriteFile(signal, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			c.Wait()
			got := stderr.String()
			if !strings.Contains(got, "refused connect() to "+allowed+": the --allow-socket socket was replaced on the host since the launch started; start the launch again") ||
				strings.Contains(got, "outside the writable set") {
				t.Errorf("stderr %q; want the refusal to say the allowed socket was replaced", got)
			}
		})
	}
}
