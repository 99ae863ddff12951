//go:build linux

package e2e

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMovedHostSocket: a host socket renamed or linked after its bind
// (OpenSSH's ControlMaster binds a temporary name, links it to
// ControlPath and removes the first) is listed in /proc/net/unix under
// the path it was bound at, which is gone: it was left unmasked, and a
// datagram reached it by its new name (the connect broker of either init
// stage refuses a connect()). rwx is the control.
func TestMovedHostSocket(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"rwx", "sandbox"} {
			for _, kind := range []string{"dgram", "stream"} {
				t.Run(u.name+"/"+mode+"/"+kind, func(t *testing.T) {
					w := newWorld(t, u)
					dir := filepath.Join(root, "mv-"+worldID(w))
					mustMkdir(t, dir)
					t.Cleanup(func() { os.RemoveAll(dir) })
					final := filepath.Join(dir, "cm.sock")
					got, send := movedSocket(t, kind, filepath.Join(dir, "tmp.sock"), final)
					r := w.run("--mode", mode, "--", probe, send, final)
					if g, want := got(), mode == "rwx"; g != want {
						t.Errorf("got through: %v, want %v (exit %d, stdout %q, stderr %q)", g, want, r.code, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}

// boundSocket binds a socket of kind at path (mode 777) and returns a
// check that reports whether anything reached it and the probe's action
// that tries.
func boundSocket(t *testing.T, kind, path string) (func() bool, string) {
	t.Helper()
	if kind != "dgram" {
		return listenUnix(t, path), "connect-unix"
	}
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	os.Chmod(path, 0o777)
	return func() bool {
		c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		_, err := c.Read(make([]byte, 16))
		return err == nil
	}, "send-dgram"
}

// movedSocket binds a socket of kind at tmp, gives it the name final as
// OpenSSH does (a datagram one by rename, a stream one by link, tmp
// removed), and returns a check that reports whether anything reached it
// and the probe's action that tries.
func movedSocket(t *testing.T, kind, tmp, final string) (func() bool, string) {
	t.Helper()
	got, send := boundSocket(t, kind, tmp)
	if kind == "dgram" {
		if err := os.Rename(tmp, final); err != nil {
			t.Fatal(err)
		}
		return got, send
	}
	if err := os.Link(tmp, final); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(tmp); err != nil {
		t.Fatal(err)
	}
	return got, send
}
