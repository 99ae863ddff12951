//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// TestBrokerPidfdRefused: a filter around omega-run refuses pidfd_getfd,
// which the connect broker takes the program's socket with, or
// pidfd_open, which it pins the calling thread with first (a profile
// older than the call answers EPERM or ENOSYS). The program's
// unix connects then fail (the broker fails closed), and the launch says
// why, once, instead of leaving every connect a mystery: before, a
// refused pidfd_open made each connect, to the program's own socket in
// /tmp too, fail with ESRCH and said nothing.
func TestBrokerPidfdRefused(t *testing.T) {
	for _, c := range []struct{ rule, said string }{
		{"438=1", "connect broker: pidfd_getfd: operation not permitted"},
		{"434=1", "connect broker: pidfd_open: operation not permitted"},
		{"434=38", "connect broker: pidfd_open: function not implemented"},
		{"310=1", "connect broker: process_vm_readv: operation not permitted"},
	} {
		for _, u := range []user{rootUser, nobody} {
			t.Run(c.rule+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				own := `import socket; s = socket.socket(socket.AF_UNIX); s.bind("/tmp/own.sock"); s.listen(1)
for _ in range(2):
    try: socket.socket(socket.AF_UNIX).connect("/tmp/own.sock"); print("connected")
    except OSError as e: print("refused")`
				r := w.under([]string{probe, "seccomp-exec", c.rule}, "--", "/bin/sh", "-c", `rm -f /tmp/own.sock; python3 -c "$0"`, own)
				if r.stdout != "refused\nrefused\n" || strings.Count(r.stderr, c.said) != 1 {
					t.Errorf("stdout %q, stderr %q; want both connects refused and one warning: %q", r.stdout, r.stderr, c.said)
				}
			})
		}
	}
}
