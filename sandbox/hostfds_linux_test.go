package sandbox

import (
	"net"
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/profiles"
)

// TestLeadsToHostNet: an internet socket among the handed-over files is
// found, and a unix one, whose host peer may pass one over it; a pipe, a
// netlink socket (no route out) or a file is not. A unix socket as this
// test's own stdio made handsHostSocket's answer depend on the caller,
// so the fds are looked at one by one.
func TestLeadsToHostNet(t *testing.T) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	unixL, err := net.Listen("unix", t.TempDir()+"/s")
	if err != nil {
		t.Fatal(err)
	}
	defer unixL.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	nl, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(nl)
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(pair[0])
	defer unix.Close(pair[1])
	fd := func(l net.Listener) int {
		f, err := l.(interface{ File() (*os.File, error) }).File()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return int(f.Fd())
	}
	for _, c := range []struct {
		name string
		fd   int
		want bool
	}{
		{"pipe", int(r.Fd()), false},
		{"netlink", nl, false},
		{"unix listener", fd(unixL), true},
		{"unix datagram", pair[0], true},
		{"tcp", fd(tcp), true},
	} {
		if got := leadsToHostNet(c.fd); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if !(&plan{stdioLater: true}).handsHostSocket() {
		t.Error("an embedder's command, whose stdio is set later, does not take the guard")
	}
	if !(&plan{policy: profiles.Policy{AllowSocket: []string{"/run/x.sock"}}}).handsHostSocket() {
		t.Error("an --allow-socket, whose host peer may pass a socket, does not take the guard")
	}
}

// TestSendsAnywhere: a UDP socket handed over is said to send past --net
// none; a TCP, a unix datagram or a netlink one is not.
func TestSendsAnywhere(t *testing.T) {
	for _, c := range []struct {
		name               string
		domain, typ, proto int
		want               bool
	}{
		{"udp", unix.AF_INET, unix.SOCK_DGRAM, 0, true},
		{"udp6", unix.AF_INET6, unix.SOCK_DGRAM, 0, true},
		{"tcp", unix.AF_INET, unix.SOCK_STREAM, 0, false},
		{"unix datagram", unix.AF_UNIX, unix.SOCK_DGRAM, 0, false},
		{"netlink", unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE, false},
	} {
		fd, err := unix.Socket(c.domain, c.typ|unix.SOCK_CLOEXEC, c.proto)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := sendsAnywhere(fd); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		unix.Close(fd)
	}
}
