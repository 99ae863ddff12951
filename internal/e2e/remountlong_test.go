//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// longBind is the wrapper: it binds argv[1] on the directory 26 levels of
// argv[2] below argv[3] (a path past PATH_MAX, reached step by step),
// then runs argv[5:] through setpriv as uid and gid argv[4].
const longBind = `
import ctypes, os, sys
src, name, top, uid = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.chdir(top)
for _ in range(26): os.chdir(name)
libc = ctypes.CDLL(None, use_errno=True)
if libc.mount(src.encode(), b".", None, 4096, None) != 0: sys.exit("mount: errno %d" % ctypes.get_errno())
os.chdir("/")
os.execvp("setpriv", ["setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"] + sys.argv[5:])
`

// TestOldKernelRemountsLongPath: where the kernel has no mount_setattr,
// the C init stage failed the launch at a mount whose point is longer
// than PATH_MAX (ENAMETOOLONG), which the kernel allows below a directory
// reached step by step and the Go stage remounts; both now remount it
// read-only. Checked from outside: nothing reached the disk.
func TestOldKernelRemountsLongPath(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			src := filepath.Join(w.outside, "src")
			mustMkdir(t, src)
			name := strings.Repeat("d", 200)
			chownTree(t, w.outside, u)
			mkdirChain(t, w.outside, name, 26) // root's, searchable: Walk cannot chown past PATH_MAX
			uid := fmt.Sprint(u.uid)
			script := fmt.Sprintf(`cd %q && for i in $(seq 26); do cd %s || exit 9; done; echo pwned > f; echo ran`, w.outside, name)
			asRoot := *w
			asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller u again
			r := asRoot.runProg("unshare", "-m", "--propagation", "private", "python3", "-c", longBind, src, name, w.outside, uid,
				probe, "seccomp-exec", sysMountSetattr+"=38,"+sysLandlockCreateRuleset+"=38", bin, "--", "/bin/bash", "-c", script)
			if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "Read-only file system") {
				t.Errorf("exit %d, stdout %q, stderr %q; want the program run and its write refused", r.code, r.stdout, r.stderr)
			}
			if _, err := os.Lstat(filepath.Join(src, "f")); err == nil {
				t.Errorf("written through the mount at the long path: left writable")
			}
		})
	}
}

// mkdirChain makes n levels of name below dir, step by step (the whole
// path may pass PATH_MAX).
func mkdirChain(t *testing.T, dir, name string, n int) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	for i := 0; err == nil && i < n; i++ {
		if err = unix.Mkdirat(fd, name, 0o755); err == nil {
			var next int
			next, err = unix.Openat(fd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			unix.Close(fd)
			fd = next
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
}
