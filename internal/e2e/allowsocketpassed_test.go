//go:build linux

package e2e

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestNetNoneAllowSocketPassedSocket: an --allow-socket's host peer may
// pass the program a socket of the host's network namespace (SCM_RIGHTS),
// as a unix socket handed over may (TestNetNonePassedSocket); the program
// connects to it itself, so no look at the fds at the launch sees it.
// Without the host guard a TCP socket so passed connected to the host's
// loopback by TCP Fast Open's send, past Landlock's TCP rule. --net host
// is the control that the probe connects.
func TestNetNoneAllowSocketPassedSocket(t *testing.T) {
	for _, nm := range []string{"host", "none"} {
		t.Run(nm, func(t *testing.T) {
			for _, u := range users {
				w := newWorld(t, u)
				got := allowedPasserTry(t, w, nm)
				if want := nm == "host"; got != want {
					t.Errorf("%s: listener got a connection: %v, want %v", u.name, got, want)
				}
			}
		})
	}
}

// allowedPasserTry runs the probe with --allow-socket of a host peer that
// passes a fresh TCP socket when asked by a byte, and tells whether the
// test's loopback listener got a connection.
func allowedPasserTry(t *testing.T, w *world, netMode string) bool {
	path := filepath.Join(w.extra, "passer.sock")
	ul, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ul.Close()
	os.Chmod(path, 0o777)
	go func() {
		c, err := ul.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if _, err := c.Read(make([]byte, 1)); err != nil {
			return
		}
		s, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return
		}
		defer unix.Close(s)
		c.(*net.UnixConn).WriteMsgUnix([]byte{1}, unix.UnixRights(s), nil)
	}()
	got, r := reachesLoopback(t, func(addr string) result {
		return w.run("--net", netMode, "--allow-socket", path, "--", probe, "fastopen-passed-at", path, addr)
	})
	t.Logf("probe: exit %d %s %s", r.code, r.stdout, r.stderr)
	return got
}
