//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHostSocketBindAlias: a host directory bind mounted at another path
// (mount --bind /srv/app /mnt/app, a unit's BindPaths=) shows a host
// socket under a second name, which /proc/net/unix does not give: the
// mask covered the bound path only, and a datagram reached the socket
// through the other one, with --net none too (the connect broker refuses
// a connect()). rwx is the control.
func TestHostSocketBindAlias(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			for _, kind := range []string{"dgram", "stream"} {
				t.Run(u.name+"/"+mode+"/"+kind, func(t *testing.T) {
					w := newWorld(t, u)
					src, alias := filepath.Join(root, "ba-"+worldID(w)), filepath.Join(root, "bb-"+worldID(w))
					mustMkdir(t, src)
					mustMkdir(t, alias)
					if err := syscall.Mount(src, alias, "", syscall.MS_BIND, ""); err != nil {
						t.Skipf("bind mount: %v", err)
					}
					t.Cleanup(func() { syscall.Unmount(alias, syscall.MNT_DETACH); os.RemoveAll(src); os.Remove(alias) })
					got, send := boundSocket(t, kind, filepath.Join(src, "s.sock"))
					args := []string{"--mode", mode}
					if mode == "sandbox" {
						args = append(args, "--net", "none")
					}
					r := w.run(append(args, "--", probe, send, filepath.Join(alias, "s.sock"))...)
					if g, want := got(), mode == "rwx"; g != want {
						t.Errorf("got through: %v, want %v (exit %d, stdout %q, stderr %q)", g, want, r.code, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}

// TestStoreBindAlias: a home that a host bind mount also shows at another
// path (/home a bind of /data/home) kept its credential stores in sight
// there: the mask covered ~/.ssh at $HOME only, and the program read the
// key through the other path. rwx is the control.
func TestStoreBindAlias(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				secretAt(t, w, ".ssh/id_rsa")
				alias := filepath.Join(root, "ha-"+worldID(w))
				mustMkdir(t, alias)
				if err := syscall.Mount(w.home, alias, "", syscall.MS_BIND, ""); err != nil {
					t.Skipf("bind mount: %v", err)
				}
				t.Cleanup(func() { syscall.Unmount(alias, syscall.MNT_DETACH); os.Remove(alias) })
				r := w.run("--mode", mode, "--", "/bin/cat", filepath.Join(alias, ".ssh/id_rsa"))
				if read, want := strings.Contains(r.stdout, "SECRET"), mode == "rwx"; read != want {
					t.Errorf("read the key through %s: %v, want %v (stdout %q, stderr %q)", alias, read, want, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestStoreBindAliasShadowed: the same as TestStoreBindAlias where the
// path $HOME names lies under a mount point that a later mount covers (a
// tmpfs at /a/home, then a bind of the home's parent at /a): the mount a
// store is on was taken from its path, so the covered tmpfs was taken
// for it, no alias was found, and the program read the key at the home's
// other path. rwx is the control.
func TestStoreBindAliasShadowed(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				key := secretAt(t, w, ".ssh/id_rsa")
				top := filepath.Join(root, "hs-"+worldID(w))
				home := filepath.Join(top, filepath.Base(w.home))
				mustMkdir(t, home)
				if err := syscall.Mount("tmpfs", home, "tmpfs", 0, ""); err != nil {
					t.Skipf("tmpfs: %v", err)
				}
				t.Cleanup(func() { syscall.Unmount(home, syscall.MNT_DETACH); os.RemoveAll(top) })
				if err := syscall.Mount(filepath.Dir(w.home), top, "", syscall.MS_BIND, ""); err != nil {
					t.Skipf("bind mount: %v", err)
				}
				t.Cleanup(func() { syscall.Unmount(top, syscall.MNT_DETACH) })
				r := w.runEnv([]string{"HOME=" + home}, "--mode", mode, "--", "/bin/cat", key)
				if read, want := strings.Contains(r.stdout, "SECRET"), mode == "rwx"; read != want {
					t.Errorf("HOME=%s, read %s: %v, want %v (stdout %q, stderr %q)", home, key, read, want, r.stdout, r.stderr)
				}
			})
		}
	}
}
