//go:build linux

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostSocketsProcSubset: under a /proc of systemd's ProcSubset=pid
// (a unit's, or a container's) /proc/net is missing, but the launcher's
// own /proc/self/net/unix is there. The host's sockets were read from
// /proc/net/unix only, so none were masked and nothing said it: a
// datagram from the program (sendto, which the connect broker does not
// see) reached a root-owned socket bound before the start outside /tmp,
// /run and the writable set, with --net none too. Checked from outside:
// the receiver must get nothing.
func TestHostSocketsProcSubset(t *testing.T) {
	for _, u := range users {
		for _, net := range []string{"host", "none"} {
			t.Run(u.name+"/"+net, func(t *testing.T) {
				w := newWorld(t, u)
				path := filepath.Join(root, "ps-"+worldID(w)+".sock")
				got := recvIn(t, "dgram-recv", path, 0)
				script := fmt.Sprintf(`mount -t proc -o subset=pid proc /proc && exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, u.uid, u.gid)
				asRoot := *w
				asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller u again
				r := asRoot.runProg("unshare", "-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
					bin, "--net", net, "--", probe, "send-dgram", path)
				if !strings.Contains(r.stderr, "ProcSubset=pid") {
					t.Fatalf("/proc was not subset=pid: %+v", r)
				}
				if got() {
					t.Errorf("the datagram reached the host's socket (exit %d, stdout %q, stderr %q)", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
