//go:build linux

package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestNetNoneHiddenProcSockets: with --net none the launcher masks the
// sockets bound in other network namespaces, found through each
// process's /proc/PID/net/unix (TestOtherNetnsSocket). A /proc mounted
// with hidepid=2 (invisible) hides other users' processes from a caller
// that is not root, so a socket root bound in a container's namespace was
// left unmasked, a datagram from the program reached it, and nothing was
// said. The gap cannot be closed from there; it is said, and
// --fail-closed refuses. Root, who sees every process, masks it.
func TestNetNoneHiddenProcSockets(t *testing.T) {
	const said = "hides other users' processes"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			path := filepath.Join(root, "hp-"+worldID(w)+".sock")
			got := recvInOtherNetns(t, "dgram-recv", path)
			script := fmt.Sprintf(`mount -t proc -o hidepid=2 proc /proc && exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, u.uid, u.gid)
			asRoot := *w
			asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller u again
			run := func(args ...string) result {
				return asRoot.runProg("unshare", append([]string{"-m", "--propagation", "private", "/bin/sh", "-c", script, "sh", bin}, args...)...)
			}
			r := run("--fail-closed", "--net", "none", "--", probe, "send-dgram", path)
			if refused := r.code == 125 && r.stdout == "" && strings.Contains(r.stderr, said); refused != (u.uid != 0) {
				t.Errorf("--fail-closed refused: %v, want %v (exit %d, stdout %q, stderr %q)", refused, u.uid != 0, r.code, r.stdout, r.stderr)
			}
			r = run("--net", "none", "--", probe, "send-dgram", path)
			if u.uid == 0 {
				if got() || strings.Contains(r.stderr, said) {
					t.Errorf("root: the datagram got through, or a gap was said (exit %d, stdout %q, stderr %q)", r.code, r.stdout, r.stderr)
				}
				return
			}
			if !strings.Contains(r.stderr, said) {
				t.Errorf("the unmasked sockets were not said (exit %d, stdout %q, stderr %q; got through: %v)", r.code, r.stdout, r.stderr, got())
			}
		})
	}
}
