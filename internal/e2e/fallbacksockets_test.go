//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestFallbackOtherSocketsUnsaid: another user's unix sockets past the
// number omega-run masks are "not masked", which sandbox mode says; the
// mount planning said it as it ran, so the fallback without user
// namespaces found at the clone (a filter refusing CLONE_NEWUSER), which
// masks nothing and says so, said it too. Now only the launch with the
// masks says it. Both stages, root and nobody.
func TestFallbackOtherSocketsUnsaid(t *testing.T) {
	const decoys, otherUID, said = 1500, 12345, "more unix sockets bound than"
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				dir := filepath.Join(w.extra, "socks")
				mustMkdir(t, dir)
				for i := range decoys {
					fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { syscall.Close(fd) })
					p := filepath.Join(dir, "s"+strconv.Itoa(i))
					if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: p}); err != nil {
						t.Fatal(err)
					}
					os.Chmod(p, 0o777) // open to all: others' sockets the program may connect to
					if err := os.Lchown(p, otherUID, otherUID); err != nil {
						t.Fatal(err)
					}
				}
				if r := w.runProg(b, "--", "/bin/true"); r.code != 0 || strings.Count(r.stderr, said) != 1 {
					t.Fatalf("control: exit %d, stderr %q; want the unmasked sockets said once", r.code, r.stderr)
				}
				r := w.runProg(probe, "refuse-userns", "1", b, "--", "/bin/echo", "ran")
				if r.stdout != "ran\n" || !strings.Contains(r.stderr, "user namespaces are unavailable") || strings.Contains(r.stderr, said) {
					t.Errorf("fallback: exit %d, stdout %q, stderr %q; want the program run, the fallback said, and no word of masks it has not", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
