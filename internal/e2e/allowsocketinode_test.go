//go:build linux

package e2e

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAllowSocketInodeReused: the broker knows an --allow-socket by
// device and inode, recorded as the program starts. Removed on the host
// while the sandbox runs (a service restarting), its inode number went
// to the next file made on that file system — ext4 gives a freed one out
// at once — and a host socket bound there, outside the writable set,
// was reached as if allowed. PID 1 now holds each allowed socket open
// for the run, so its number stays taken.
func TestAllowSocketInodeReused(t *testing.T) {
	if !inodesReused(t) {
		t.Skip("this file system does not give a freed inode number out again at once")
	}
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			// Other files made meanwhile on the machine can take the
			// number first: a few tries.
			for try := 0; try < 5; try++ {
				if reached, reused := allowedInodeTry(t, w, try); reached {
					t.Fatalf("the program reached a host socket outside the writable set that took the removed --allow-socket's inode number")
				} else if reused {
					return
				}
			}
		})
	}
}

// allowedInodeTry runs one launch of TestAllowSocketInodeReused: whether
// the program reached the host socket, and whether that got the allowed
// one's inode number.
func allowedInodeTry(t *testing.T, w *world, try int) (reached, reused bool) {
	allowed, host := filepath.Join(w.extra, fmt.Sprintf("allowed%d.sock", try)), filepath.Join(w.extra, fmt.Sprintf("host%d.sock", try))
	ln, err := net.Listen("unix", allowed)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(allowed, 0o777)
	was := inode(t, allowed)
	c, out, stderr := startReady(t, w, "--allow-socket", allowed, "--", probe, "connect-unix-later", host)
	ln.Close() // removes the socket file too
	got := listenUnix(t, host+"~")
	now := inode(t, host+"~")
	if err := os.Rename(host+"~", host); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(out)
	c.Wait()
	t.Logf("allowed socket's inode %d, the host socket's %d; probe: %s %s", was, now, rest, stderr.String())
	return got(), was == now
}

// inodesReused tells whether a socket made right after another's removal
// gets its inode number here, as ext4 gives it.
func inodesReused(t *testing.T) bool {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	ln, err := net.Listen("unix", a)
	if err != nil {
		t.Fatal(err)
	}
	was := inode(t, a)
	ln.Close()
	ln, err = net.Listen("unix", b)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return inode(t, b) == was
}

func inode(t *testing.T, path string) uint64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}
