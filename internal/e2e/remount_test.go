//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOldKernelRemountsOddPaths: where the kernel has no mount_setattr
// (before 5.12) the sandbox remounts read-only each mount below its root
// that /proc/self/mountinfo lists. The kernel escapes only space, tab,
// newline and backslash there; the C init stage cut a field at \v, \f or
// \r too, so that a mount at such a path (a FUSE mount a user made), or a
// bind of a directory so named, was not found and stayed writable.
// Landlock is simulated away as well (it came in 5.13): only the mounts
// stop writes. Checked from outside: nothing reached the disk.
func TestOldKernelRemountsOddPaths(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			o := w.outside
			// Each bind: where the files land, and where the program writes.
			binds := [][2]string{
				{filepath.Join(o, "plain"), filepath.Join(o, "at\vpoint")}, // \v in the mount point
				{filepath.Join(o, "root\fdir"), filepath.Join(o, "dst")},   // \f in the mount's root
				{filepath.Join(o, "both\rdir"), filepath.Join(o, "both\rdir")},
			}
			host, args := "", []string{}
			for i, b := range binds {
				mustMkdir(t, b[0])
				mustMkdir(t, b[1])
				host += fmt.Sprintf(`mount --bind "$%d" "$%d" && `, 2*i+1, 2*i+2)
				args = append(args, b[0], b[1])
			}
			chownTree(t, o, u)
			host += fmt.Sprintf(`shift %d && exec setpriv --reuid=%d --regid=%d --clear-groups "$@"`, len(args), u.uid, u.gid)
			script := `for d; do echo pwned > "$d/f"; done; echo ran`
			asRoot := *w
			asRoot.u = rootUser // the wrapper mounts; setpriv makes the caller u again
			launch := []string{probe, "seccomp-exec", sysMountSetattr + "=38," + sysLandlockCreateRuleset + "=38",
				bin, "--", "/bin/sh", "-c", script, "sh"}
			for _, b := range binds {
				launch = append(launch, b[1])
			}
			r := asRoot.runProg("unshare", append(append([]string{"-m", "--propagation", "private", "/bin/sh", "-c", host, "sh"}, args...), launch...)...)
			if r.code != 0 || r.stdout != "ran\n" || !strings.Contains(r.stderr, "only the read-only mounts stop writes") {
				t.Errorf("exit %d, stdout %q, stderr %q; want the program run, without Landlock", r.code, r.stdout, r.stderr)
			}
			for _, b := range binds {
				if _, err := os.Lstat(filepath.Join(b[0], "f")); err == nil {
					t.Errorf("written through the mount at %q (of %q): left writable", b[1], b[0])
				}
			}
		})
	}
}
