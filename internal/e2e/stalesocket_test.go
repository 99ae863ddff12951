//go:build linux

package e2e

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStaleOtherSockets: another user's directory holding a socket
// unlinked while bound (so it counts as moved, and the directory is read)
// and many socket files nothing is bound to any more (bind, close). Those
// files are no way in, yet they were masked as if bound: any local user
// could thus make every --net none launch fail (125 past fs.mount-max:
// 100,000 such files and one open fd did it) and every --net host one
// slow (0.8 s) and warn of sockets "bound". They stay unmasked now.
func TestStaleOtherSockets(t *testing.T) {
	requireRoot(t)
	dir := filepath.Join(root, "stale-others")
	mustMkdir(t, dir)
	t.Cleanup(func() { os.RemoveAll(dir) })
	const n = 1100 // past the 1,024 of other users' sockets --net host masks
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("s%04d", i))
		l, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: p, Net: "unixgram"})
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(p, 4242, 4242); err != nil {
			t.Fatal(err)
		}
	}
	held := filepath.Join(dir, "held")
	l, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: held, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := syscall.Unlink(held); err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		for _, netw := range []string{"host", "none"} {
			t.Run(u.name+"/"+netw, func(t *testing.T) {
				w := newWorld(t, u)
				r := w.run("--net", netw, "--", "/usr/bin/stat", "-c", "%F", filepath.Join(dir, "s0000"), filepath.Join(dir, fmt.Sprintf("s%04d", n-1)))
				if r.code != 0 || r.stdout != "socket\nsocket\n" || strings.Contains(r.stderr, "unix sockets bound") {
					t.Errorf("exit %d, stdout %q, stderr %q; want both files as they are, no warning", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}

// TestHostSocketOddPath: a host socket whose path has two spaces in a
// row or ends in one was looked for at the path with the spaces run
// together (the table's columns split on blanks), not found, and left
// unmasked: a datagram reached it. In a directory others may write, which
// the moved-socket scan does not read. rwx is the control.
func TestHostSocketOddPath(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			for _, name := range []string{"a  b.sock", "c.sock "} {
				t.Run(u.name+"/"+mode+"/"+name, func(t *testing.T) {
					w := newWorld(t, u)
					dir := filepath.Join(root, "odd-"+worldID(w))
					mustMkdir(t, dir)
					t.Cleanup(func() { os.RemoveAll(dir) })
					if err := os.Chmod(dir, 0o777); err != nil {
						t.Fatal(err)
					}
					p := filepath.Join(dir, name)
					got, send := boundSocket(t, "dgram", p)
					r := w.run("--mode", mode, "--", probe, send, p)
					if g, want := got(), mode == "rwx"; g != want {
						t.Errorf("got through: %v, want %v (exit %d, stdout %q, stderr %q)", g, want, r.code, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}
