//go:build linux

package e2e

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestNetNone: a listener the test owns on the host's loopback gets no
// connection from a program run with --net none; the controls (--net
// host, rwx) do connect. rwx refuses --net none (rwx_test.go).
func TestNetNone(t *testing.T) {
	cases := []struct {
		mode, net string
		connects  bool
	}{
		{"rwx", "host", true},
		{"sandbox", "host", true},
		{"rx", "host", true},
		{"sandbox", "none", false},
		{"rx", "none", false},
	}
	for _, c := range cases {
		t.Run(c.mode+"/"+c.net, func(t *testing.T) {
			w := newWorld(t, nobody)
			ln, err := net.Listen("tcp4", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			r := w.run("--mode", c.mode, "--net", c.net, "--", probe, "connect", "tcp4", ln.Addr().String())
			ln.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
			conn, err := ln.Accept()
			if got := err == nil; got != c.connects {
				t.Errorf("listener got a connection: %v, want %v (probe: %s %s)", got, c.connects, r.stdout, r.stderr)
			}
			if conn != nil {
				conn.Close()
			}
		})
	}
}

// TestNetNoneRXSaysUDPStaysOpen: rx has no network namespace, and
// Landlock denies TCP only; a UDP datagram gets out (the listener here
// receives it), so the launch says so, and --fail-closed refuses it.
func TestNetNoneRXSaysUDPStaysOpen(t *testing.T) {
	w := newWorld(t, nobody)
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	script := `python3 -c 'import socket,sys; s=socket.socket(2,2); s.sendto(b"out", ("127.0.0.1", int(sys.argv[1])))' "$0"`
	port := strings.Split(pc.LocalAddr().String(), ":")[1]
	r := w.run("--mode", "rx", "--net", "none", "--", "/bin/sh", "-c", script, port)
	pc.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, _, err := pc.ReadFrom(make([]byte, 16)); err != nil {
		t.Fatalf("no datagram arrived (%v): the premise changed; stderr %q", err, r.stderr)
	}
	if !strings.Contains(r.stderr, "UDP (DNS too), raw and other sockets stay open") {
		t.Errorf("no warning that UDP stays open; stderr %q", r.stderr)
	}
	r = w.run("--mode", "rx", "--net", "none", "--fail-closed", "--", "/bin/echo", "ran")
	if r.code != 125 || strings.Contains(r.stdout, "ran") {
		t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want 125 and nothing run", r.code, r.stdout, r.stderr)
	}
}

// TestNetNoneEnvironment: the program is told, and loopback is up.
func TestNetNoneEnvironment(t *testing.T) {
	w := newWorld(t, nobody)
	r := w.run("--net", "none", "--", "/bin/sh", "-c", `echo "$OMEGA_SANDBOX/$OMEGA_SANDBOX_NETWORK_DISABLED"; `+probe+" udp-loopback")
	if !strings.Contains(r.stdout, "sandbox/1") || !strings.Contains(r.stdout, "ok") {
		t.Errorf("stdout %q (stderr %s), want sandbox/1 and a working loopback", r.stdout, r.stderr)
	}
}

// TestConfigNetNoneKeptAgainstProgramArguments: a program given without
// "--" keeps its own arguments; one that looks like omega-run's --net
// (sh -c … --net=host) took the config file's net = "none" away, and the
// program connected.
func TestConfigNetNoneKeptAgainstProgramArguments(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			writeFile(t, filepath.Join(w.dataDir, "config.toml"), "[sandbox]\nnet = \"none\"\n")
			ln, err := net.Listen("tcp4", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			r := w.run("--mode", mode, "/bin/sh", "-c", `echo "disabled=$OMEGA_SANDBOX_NETWORK_DISABLED"; exec "$1" connect tcp4 "$2"`,
				"--net=host", probe, ln.Addr().String())
			ln.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
			if conn, err := ln.Accept(); err == nil {
				conn.Close()
				t.Errorf("the program connected: the config's net = \"none\" was dropped (stdout %q, stderr %q)", r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "disabled=1") {
				t.Errorf("stdout %q, stderr %q; want disabled=1", r.stdout, r.stderr)
			}
		})
	}
}

// TestNetNoneTCPPastLandlock: TCP Fast Open's implicit connect and MPTCP
// sockets get past Landlock's TCP rules (rx --net none); the launcher's
// filter fails them. The listener outside checks that nothing arrived;
// rx with --net host is the control that the probes connect.
func TestNetNoneTCPPastLandlock(t *testing.T) {
	for _, how := range []string{"tcp-fastopen", "mptcp-connect"} {
		for _, c := range []struct{ mode, net string }{{"rx", "host"}, {"rx", "none"}, {"sandbox", "none"}} {
			t.Run(how+"/"+c.mode+"/"+c.net, func(t *testing.T) {
				for _, u := range users {
					w := newWorld(t, u)
					got, r := reachesLoopback(t, func(addr string) result {
						return w.run("--mode", c.mode, "--net", c.net, "--", probe, how, addr)
					})
					if want := c.net == "host"; got != want {
						t.Errorf("%s: listener got a connection: %v, want %v (probe: %s %s)", u.name, got, want, r.stdout, r.stderr)
					}
				}
			})
		}
	}
}

// TestNetNoneListenUnbound: listen() on a socket never bound binds a free
// port itself, which Landlock's bind rule does not see; in rx --net none
// the host connects to it (open, README's threat model), in sandbox mode
// the port is in the program's own network namespace. rx's launch says so.
func TestNetNoneListenUnbound(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			for _, u := range users {
				w := newWorld(t, u)
				c := w.cmd(t.Context(), "--mode", mode, "--net", "none", "--", probe, "listen-unbound")
				out, err := c.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				var stderr strings.Builder
				c.Stderr = &stderr
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				sc := bufio.NewScanner(out)
				if !sc.Scan() {
					c.Wait()
					t.Fatalf("%s: the probe printed no port; stderr %s", u.name, stderr.String())
				}
				conn, err := net.DialTimeout("tcp4", "127.0.0.1:"+sc.Text(), time.Second)
				if conn != nil {
					conn.Close()
				}
				c.Process.Kill() // the probe would wait for a connection
				io.Copy(io.Discard, out)
				c.Wait()
				if got, want := err == nil, mode == "rx"; got != want {
					t.Errorf("%s: the host connected to the port listen() bound: %v, want %v (%v)", u.name, got, want, err)
				}
				if said := strings.Contains(stderr.String(), "a listen() without bind still gets a port"); said != (mode == "rx") {
					t.Errorf("%s: the launch warns of listen(): %v; stderr %q", u.name, said, stderr.String())
				}
			}
		})
	}
}

// TestNetNonePromptSaysLoopback: what `omega-run prompt --net none` tells
// a model about local servers matches what the launch does. Where the
// program's own server on 127.0.0.1 fails (Landlock denies TCP bind and
// connect in every confined mode), the prompt must say so: "no network
// access: connections to other machines fail" alone had an agent start a
// dev server or a test's listener and take the refusal for a bug.
func TestNetNonePromptSaysLoopback(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				served := w.run("--mode", mode, "--net", "none", "--", probe, "tcp-serve-self", "127.0.0.1:0")
				p := w.run("prompt", "--mode", mode, "--net", "none")
				if p.code != 0 {
					t.Fatalf("prompt: exit %d, stderr %q", p.code, p.stderr)
				}
				says := strings.Contains(p.stdout, "refused, on loopback too")
				if refused := served.code != 0; says != refused {
					t.Errorf("own loopback server refused: %v (%s), prompt says so: %v; prompt:\n%s",
						refused, strings.TrimSpace(served.stdout), says, p.stdout)
				}
			})
		}
	}
}

// TestLoopbackOnlyVsockSaid: in a network namespace with loopback only
// (unshare -n, an outer --net none) rx's --net none has nothing to warn
// about, but for vsock, which no network namespace separates: it stays
// open without a filter (--seccomp none), and is said, as the --net none
// gap was before the loopback check. A build without cgo filters with the
// built-in profiles too, and says nothing.
func TestLoopbackOnlyVsockSaid(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			asRoot := *w
			asRoot.u = rootUser // unshare -n needs root; setpriv makes the caller u again
			run := func(exe string, flags ...string) result {
				args := append([]string{"-n", "setpriv", "--reuid=" + strconv.Itoa(u.uid), "--regid=" + strconv.Itoa(u.gid), "--clear-groups",
					exe, "--mode", "rx", "--net", "none"}, flags...)
				return asRoot.runProg("unshare", append(args, "--", "/bin/sh", "-c", "echo ran")...)
			}
			for name, r := range map[string]result{"with the filter": run(bin), "without cgo": run(nocgoBinary(t))} {
				if r.code != 0 || strings.Contains(r.stderr, "--net none") || strings.Contains(r.stderr, "vsock") {
					t.Errorf("%s: exit %d, stderr %q; want nothing said of --net none", name, r.code, r.stderr)
				}
			}
			if r := run(bin, "--seccomp", "none"); !strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "vsock") {
				t.Errorf("--seccomp none: exit %d, stderr %q; want vsock said open", r.code, r.stderr)
			}
		})
	}
}

// TestNetNoneActivatedSocket: a socket the service manager hands over
// (socket activation) lives in the host's network namespace, not the
// sandbox's. Disconnected (connect to AF_UNSPEC), a TCP listener is a
// closed TCP socket there, which TCP Fast Open's send connects past
// Landlock's TCP rule: sandbox mode --net none reached the host's
// loopback (and any address) through it. --net host is the control that
// the probe connects.
func TestNetNoneActivatedSocket(t *testing.T) {
	for _, c := range []struct{ mode, net string }{{"sandbox", "host"}, {"sandbox", "none"}, {"rx", "none"}} {
		t.Run(c.mode+"/"+c.net, func(t *testing.T) {
			for _, u := range users {
				w := newWorld(t, u)
				_, f := activationSocket(t)
				got, r := reachesLoopback(t, func(addr string) result {
					return w.asService([]string{"LISTEN_PID"}, []string{"LISTEN_FDS=1"}, []*os.File{f},
						"--mode", c.mode, "--net", c.net, "--", probe, "fastopen-fd3", addr)
				})
				if want := c.net == "host"; got != want {
					t.Errorf("%s: listener got a connection: %v, want %v (probe: exit %d %s %s)", u.name, got, want, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// TestNetNonePassedSocket: a unix socket handed over (stdin, a preserved
// fd) reaches a host peer, which may pass the program a socket of the
// host's network namespace at run time (SCM_RIGHTS: a node cluster's
// primary hands its workers sockets so), after the launch looked at the
// fds. Sandbox mode took the host guard only for an internet socket
// handed at the start, so a TCP socket passed in later connected to the
// host's loopback by TCP Fast Open's send, past Landlock. --net host is
// the control that the probe connects.
func TestNetNonePassedSocket(t *testing.T) {
	for _, c := range []struct{ mode, net string }{{"sandbox", "host"}, {"sandbox", "none"}, {"rx", "none"}} {
		t.Run(c.mode+"/"+c.net, func(t *testing.T) {
			for _, u := range users {
				w := newWorld(t, u)
				ours, theirs := passingPeer(t)
				got, r := reachesLoopback(t, func(addr string) result {
					defer ours.Close()
					return w.runWith(nil, []*os.File{theirs}, bin, "--mode", c.mode, "--net", c.net, "--preserve-fds", "1",
						"--", probe, "fastopen-passed", addr)
				})
				if want := c.net == "host"; got != want {
					t.Errorf("%s: listener got a connection: %v, want %v (probe: exit %d %s %s)", u.name, got, want, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// passingPeer is a host peer of a unix socketpair that, asked by a byte,
// passes a fresh TCP socket of this network namespace over it: the test
// keeps ours, the program gets theirs as a file.
func passingPeer(t *testing.T) (ours *os.File, theirs *os.File) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, theirs = os.NewFile(uintptr(fds[0]), "peer"), os.NewFile(uintptr(fds[1]), "handed")
	t.Cleanup(func() { ours.Close(); theirs.Close() })
	go func() {
		if _, err := ours.Read(make([]byte, 1)); err != nil {
			return
		}
		s, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return
		}
		defer unix.Close(s)
		unix.Sendmsg(fds[0], []byte{1}, unix.UnixRights(s), nil, 0)
	}()
	return ours, theirs
}

// TestNetNoneHandedMPTCP: an MPTCP listener handed over (systemd's
// SocketProtocol=mptcp) lives in the host's network namespace, and
// Landlock's TCP rules do not cover MPTCP: disconnected (connect to
// AF_UNSPEC) and connected again, it reached the host's loopback from
// sandbox mode with --net none. The connect broker now refuses a
// connect() on a socket of another network namespace than the
// sandbox's; under a custom profile that refuses socket() too, which
// the Go init stage's PID 1 needs to learn its namespace: it asked
// after installing the profile, and so checked nothing. --net host is
// the control that the probe connects.
func TestNetNoneHandedMPTCP(t *testing.T) {
	const noSocket = `{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":["socket"],"action":"SCMP_ACT_ERRNO"}]}`
	for _, c := range []struct{ name, net, profile string }{{"host", "host", ""}, {"none", "none", ""}, {"none/no-socket", "none", noSocket}} {
		t.Run(c.name, func(t *testing.T) {
			for _, u := range users {
				w := newWorld(t, u)
				args := []string{"--net", c.net}
				if c.profile != "" {
					path := filepath.Join(w.extra, "profile.json")
					writeFile(t, path, c.profile)
					args = append(args, "--seccomp", path)
				}
				s, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, unix.IPPROTO_MPTCP)
				if err != nil {
					t.Fatalf("an MPTCP socket: %v", err)
				}
				f := os.NewFile(uintptr(s), "mptcp")
				defer f.Close()
				if err := unix.Bind(s, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
					t.Fatal(err)
				}
				if err := unix.Listen(s, 8); err != nil {
					t.Fatal(err)
				}
				got, r := reachesLoopback(t, func(addr string) result {
					return w.asService([]string{"LISTEN_PID"}, []string{"LISTEN_FDS=1"}, []*os.File{f},
						append(args, "--", probe, "connect-fd3", addr)...)
				})
				if want := c.net == "host"; got != want {
					t.Errorf("%s: listener got a connection: %v, want %v (probe: exit %d %s %s)", u.name, got, want, r.code, r.stdout, r.stderr)
				}
				if c.net == "none" && (!strings.Contains(r.stdout, "permission denied") || !strings.Contains(r.stderr, "network namespace other than the sandbox's")) {
					t.Errorf("%s: want the connect refused (EACCES) and said: exit %d, stdout %q, stderr %q", u.name, r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// TestNetNoneHandedDatagramSaid: a UDP socket handed over (systemd's
// ListenDatagram=) lives in the host's network namespace, and sends to
// any address with sendto, which neither Landlock nor the sandbox's
// namespace sees: sandbox mode with --net none ran the program without
// a word, and the datagram arrived. Now the launch says so, and
// --fail-closed refuses (125) before the program runs. A TCP listener
// handed over, which stays as it came, is the control: no warning.
func TestNetNoneHandedDatagramSaid(t *testing.T) {
	const said = "fd 3 is a datagram or raw socket of the host's network"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer pc.Close()
			handed, err := net.ListenPacket("udp4", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer handed.Close()
			f, err := handed.(*net.UDPConn).File()
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			script := `python3 -c 'import socket,sys; s=socket.socket(fileno=3); s.sendto(b"out", ("127.0.0.1", int(sys.argv[1])))' "$0"`
			port := strings.Split(pc.LocalAddr().String(), ":")[1]
			r := w.runWith(nil, []*os.File{f}, bin, "--net", "none", "--preserve-fds", "1", "--", "/bin/sh", "-c", script, port)
			pc.SetReadDeadline(time.Now().Add(2 * time.Second))
			if _, _, err := pc.ReadFrom(make([]byte, 16)); err != nil {
				t.Fatalf("no datagram arrived (%v): the premise changed; exit %d, stderr %q", err, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, said) {
				t.Errorf("no warning that the handed UDP socket sends anywhere; stderr %q", r.stderr)
			}
			r = w.runWith(nil, []*os.File{f}, bin, "--net", "none", "--preserve-fds", "1", "--fail-closed", "--", "/bin/echo", "ran")
			if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, said) {
				t.Errorf("--fail-closed: exit %d, stdout %q, stderr %q; want 125, said, and nothing run", r.code, r.stdout, r.stderr)
			}
			_, tcp := activationSocket(t)
			r = w.runWith(nil, []*os.File{tcp}, bin, "--net", "none", "--preserve-fds", "1", "--fail-closed", "--", "/bin/echo", "ran")
			if r.code != 0 || r.stderr != "" {
				t.Errorf("a TCP listener handed over: exit %d, stderr %q; want it run without a word", r.code, r.stderr)
			}
		})
	}
}

// reachesLoopback listens on the host's loopback, runs launch with that
// address, and tells whether anything connected there.
func reachesLoopback(t *testing.T, launch func(addr string) result) (bool, result) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := launch(ln.Addr().String())
	ln.(*net.TCPListener).SetDeadline(time.Now().Add(300 * time.Millisecond))
	conn, err := ln.Accept()
	if conn != nil {
		conn.Close()
	}
	return err == nil, r
}
