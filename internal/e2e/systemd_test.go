//go:build linux

package e2e

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// goInitStage tells whether the suite runs the Go init stage's build.
func goInitStage() bool { return strings.Contains(os.Getenv("OMEGA_E2E_TAGS"), "omega_goinit") }

// asService runs omega-run the way systemd starts a service: vars names
// variables set to omega-run's own pid (LISTEN_PID, SYSTEMD_EXEC_PID),
// which only the exec'd process can know, so a shell sets them and execs.
func (w *world) asService(vars []string, env []string, extra []*os.File, args ...string) result {
	w.t.Helper()
	set := ""
	for _, v := range vars {
		set += v + "=$$ "
	}
	script := "export " + set + "; exec \"$@\""
	return w.runWith(env, extra, "/bin/sh", append([]string{"-c", script, "sh", bin}, args...)...)
}

// activationSocket is a listening TCP socket as systemd hands one over:
// the listener and a dup of it to pass as fd 3; both close with t.
func activationSocket(t *testing.T) (net.Listener, *os.File) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	f, err := l.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return l, f
}

// TestSocketActivation: a socket-activated server under omega-run gets its
// listening socket at fd 3 and LISTEN_PID naming itself, so that
// sd_listen_fds(3) accepts it; checked from outside by a connection the
// server answers.
func TestSocketActivation(t *testing.T) {
	for _, u := range users {
		// rx-pids: cgroup limits make omega-run supervise an rx program
		// too (root only here), so that its pid is not omega-run's.
		for _, mode := range append(slices.Clone(confinedModes), "rx-pids") {
			if mode == "rx-pids" && u.uid != 0 {
				continue
			}
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				l, f := activationSocket(t)
				answer := make(chan string, 1)
				go func() {
					c, err := net.DialTimeout("tcp", l.Addr().String(), 5*time.Second)
					if err != nil {
						answer <- err.Error()
						return
					}
					defer c.Close()
					c.SetReadDeadline(time.Now().Add(20 * time.Second))
					line, err := bufio.NewReader(c).ReadString('\n')
					if err != nil {
						line += err.Error()
					}
					answer <- line
				}()
				args := []string{"--mode", mode}
				if mode == "rx-pids" {
					args = []string{"--mode", "rx", "--pids", "64"}
				}
				r := w.asService([]string{"LISTEN_PID"}, []string{"LISTEN_FDS=1"}, []*os.File{f},
					append(args, "--", probe, "listen-fds")...)
				if mode == "sandbox" && goInitStage() {
					// The Go init stage cannot set LISTEN_PID in the
					// program's process, and says so.
					if !strings.Contains(r.stderr, "LISTEN_PID keeps naming omega-run's pid") || r.code == 0 {
						t.Errorf("Go init stage: exit %d, no warning: %s", r.code, r.stderr)
					}
					f.Close()
					l.Close() // the waiting connection is reset
					<-answer
					return
				}
				if r.code != 0 {
					t.Errorf("server: exit %d: %s%s", r.code, r.stdout, r.stderr)
				}
				if got := <-answer; got != "hello from fd 3\n" {
					t.Errorf("the connection got %q, want the server's answer", got)
				}
			})
		}
	}
}

// TestSocketActivationNotOurs: fds systemd meant for another process
// (LISTEN_PID names someone else) are not passed on.
func TestSocketActivationNotOurs(t *testing.T) {
	w := newWorld(t, rootUser)
	_, f := activationSocket(t)
	for _, mode := range confinedModes {
		r := w.runWith([]string{"LISTEN_FDS=1", "LISTEN_PID=1"}, []*os.File{f}, "/bin/sh",
			"-c", `exec "$@"`, "sh", bin, "--mode", mode, "--", "/bin/sh", "-c", "test -e /proc/self/fd/3 && echo fd3-open")
		if strings.Contains(r.stdout, "fd3-open") {
			t.Errorf("%s: fd 3 reached the program though LISTEN_PID named another process", mode)
		}
	}
}

// notifySocket makes a datagram socket where systemd's lives, under /run
// (which sandbox mode replaces), writable by w's user, that receives
// the sender's credentials as systemd's does; it returns the socket.
func notifySocket(t *testing.T, w *world) (*net.UnixConn, string) {
	t.Helper()
	dir := runDir(t, "notify")
	os.Chmod(dir, 0o755)
	path := filepath.Join(dir, "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	os.Chmod(path, 0o777) // systemd's is 0777 too
	raw, _ := c.SyscallConn()
	raw.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_PASSCRED, 1) })
	return c, path
}

// notification is one datagram the service manager got.
type notification struct {
	msg string
	pid int32 // the sender's, in the manager's pid namespace
	fds int
}

// received is the datagram waiting on c; msg is "" when none arrived.
func received(c *net.UnixConn) notification {
	c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	b, oob := make([]byte, 4096), make([]byte, 4096)
	n, oobn, _, _, err := c.ReadMsgUnix(b, oob)
	if err != nil {
		return notification{}
	}
	got := notification{msg: string(b[:n]), pid: -1}
	msgs, _ := syscall.ParseSocketControlMessage(oob[:oobn])
	for _, m := range msgs {
		if cred, err := syscall.ParseUnixCredentials(&m); err == nil {
			got.pid = cred.Pid
		}
		if fds, err := syscall.ParseUnixRights(&m); err == nil {
			got.fds += len(fds)
			for _, fd := range fds {
				syscall.Close(fd)
			}
		}
	}
	return got
}

// asNotifyService runs omega-run with args as systemd starts a Type=notify
// service, and returns omega-run's pid (the unit's main process) too.
func (w *world) asNotifyService(path string, args ...string) (result, int) {
	w.t.Helper()
	c := w.cmdOf(context.Background(), "/bin/sh", append([]string{"-c", `umask ${UMASK:-022}; export SYSTEMD_EXEC_PID=$$; exec "$@"`, "sh", bin}, args...)...)
	c.Env = append(append(c.Env, "NOTIFY_SOCKET="+path), w.extraEnv...)
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		w.t.Fatal(err)
	}
	pid := c.Process.Pid
	c.Wait()
	return result{out.String(), errb.String(), shellStatus(c.ProcessState)}, pid
}

// TestNotifySocket: a Type=notify server under omega-run reaches systemd:
// where omega-run supervises it (sandbox mode, cgroup limits) through a
// relay of omega-run's, so that the message comes from the unit's main
// process (NotifyAccess=main) and carries no MAINPID= and no fd; run in
// place (rx, not as root: systemd takes MAINPID= from root for any pid)
// it talks to the socket itself. Checked from outside, by
// what arrives on the service manager's socket and from which pid.
func TestNotifySocket(t *testing.T) {
	variants := []struct {
		name  string
		args  []string
		relay bool
	}{
		{"sandbox", []string{"--mode", "sandbox"}, true},
		{"rx", []string{"--mode", "rx"}, false},
		{"rx-pids", []string{"--mode", "rx", "--pids", "64"}, true},
		{"sandbox-user", []string{"--mode", "sandbox", "--user", "nobody"}, true},
		{"rx-user", []string{"--mode", "rx", "--user", "nobody"}, false},
	}
	for _, u := range users {
		for _, v := range variants {
			if u.uid != 0 && (v.name == "rx-pids" || strings.HasSuffix(v.name, "-user")) {
				continue // cgroup limits and --user need root
			}
			// A program running as root is never the main process: systemd
			// takes MAINPID= from root for any pid, and signals it on stop.
			relay := v.relay || (v.name == "rx" && u.uid == 0)
			for _, how := range []string{"notify", "notify-sendto"} {
				t.Run(u.name+"/"+v.name+"/"+how, func(t *testing.T) {
					w := newWorld(t, u)
					c, path := notifySocket(t, w)
					// \r ends a line for systemd too: MAINPID= after it is
					// a line of its own, to be dropped.
					r, pid := w.asNotifyService(path, append(v.args, "--", probe, how, "READY=1\nSTATUS=serving\rMAINPID=1")...)
					got := received(c)
					want := "READY=1\nSTATUS=serving"
					if !relay {
						want = "READY=1\nSTATUS=serving\rMAINPID=1" // the program is the main process itself
					}
					if got.msg != want || got.pid != int32(pid) {
						t.Errorf("got %q from pid %d, want %q from omega-run's pid %d (exit %d: %s%s)", got.msg, got.pid, want, pid, r.code, r.stdout, r.stderr)
					}
				})
			}
		}
	}
}

// TestWatchdogPID: under WatchdogSec=, systemd names the main process in
// WATCHDOG_PID; where omega-run supervises the program, the program must
// find its own pid there (sd_watchdog_enabled(3) says no watchdog
// otherwise, and systemd kills the unit for the pings it never sends).
func TestWatchdogPID(t *testing.T) {
	for _, mode := range []string{"sandbox", "rx"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			_, path := notifySocket(t, w)
			script := `test "$WATCHDOG_PID" = "$$" && echo mine || echo "not mine: $WATCHDOG_PID, program $$"`
			c := w.cmdOf(context.Background(), "/bin/sh", "-c", `export SYSTEMD_EXEC_PID=$$ WATCHDOG_PID=$$; exec "$@"`,
				"sh", bin, "--mode", mode, "--", "/bin/sh", "-c", script)
			c.Env = append(c.Env, "NOTIFY_SOCKET="+path, "WATCHDOG_USEC=30000000")
			out, err := c.CombinedOutput()
			if mode == "sandbox" && goInitStage() {
				if !strings.Contains(string(out), "WATCHDOG_PID keeps naming omega-run's pid") {
					t.Errorf("Go init stage: no warning: %s", out)
				}
				return
			}
			if err != nil || !strings.Contains(string(out), "mine\n") || strings.Contains(string(out), "not mine") {
				t.Errorf("%v: %s", err, out)
			}
		})
	}
}

// TestNotifyRelayUmask: a unit's tight UMask= does not lock the program
// (without capabilities, or a --user) out of the relay.
func TestNotifyRelayUmask(t *testing.T) {
	w := newWorld(t, nobody)
	c, path := notifySocket(t, w)
	w.extraEnv = []string{"UMASK=0277"}
	r, _ := w.asNotifyService(path, "--", probe, "notify", "READY=1")
	if got := received(c); got.msg != "READY=1" {
		t.Errorf("the manager got %q (exit %d: %s%s)", got.msg, r.code, r.stdout, r.stderr)
	}
}

// TestNotifyRelayDropsFDs: an fd sent along (FDSTORE=1) does not reach
// the service manager where omega-run relays; the rest of the text does.
func TestNotifyRelayDropsFDs(t *testing.T) {
	w := newWorld(t, rootUser)
	c, path := notifySocket(t, w)
	r, _ := w.asNotifyService(path, "--", probe, "notify-fd", "READY=1\nFDSTORE=1")
	if got := received(c); got.msg != "READY=1" || got.fds != 0 {
		t.Errorf("the service manager got %q with %d fds (exit %d: %s%s)", got.msg, got.fds, r.code, r.stdout, r.stderr)
	}
}

// TestNotifySocketNotOurs: a NOTIFY_SOCKET inherited from a service that
// did not start omega-run itself (a shell in it, an agent's tool) stays
// out of the sandbox: the program cannot signal that service.
func TestNotifySocketNotOurs(t *testing.T) {
	w := newWorld(t, rootUser)
	c, path := notifySocket(t, w)
	for _, how := range []string{"notify", "notify-sendto"} {
		r := w.runEnv([]string{"NOTIFY_SOCKET=" + path, "SYSTEMD_EXEC_PID=1"}, "--mode", "sandbox", "--", probe, how)
		if got := received(c); got.msg != "" || r.code == 0 {
			t.Errorf("%s: the service's notify socket got %q (exit %d: %s)", how, got.msg, r.code, r.stdout)
		}
	}
}

// TestSystemdSocketActivate: the same with systemd's own tool, which sets
// LISTEN_FDS, LISTEN_PID and LISTEN_FDNAMES as systemd does.
func TestSystemdSocketActivate(t *testing.T) {
	tool, err := exec.LookPath("systemd-socket-activate")
	if err != nil {
		t.Skip("systemd-socket-activate is not installed (TestSocketActivation covers the protocol)")
	}
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := l.Addr().String()
			l.Close() // the tool binds it again
			done := make(chan result, 1)
			go func() { done <- w.runProg(tool, "-l", addr, bin, "--mode", mode, "--", probe, "listen-fds") }()
			var line string
			for i := 0; i < 100; i++ { // until the tool listens
				c, err := net.DialTimeout("tcp", addr, time.Second)
				if err != nil {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				c.SetReadDeadline(time.Now().Add(20 * time.Second))
				line, _ = bufio.NewReader(c).ReadString('\n')
				c.Close()
				break
			}
			r := <-done
			if mode == "sandbox" && goInitStage() {
				if !strings.Contains(r.stderr, "LISTEN_PID keeps naming omega-run's pid") || r.code == 0 {
					t.Errorf("Go init stage: exit %d, no warning: %s", r.code, r.stderr)
				}
				return
			}
			if line != "hello from fd 3\n" || r.code != 0 {
				t.Errorf("got %q; exit %d: %s%s", line, r.code, r.stdout, r.stderr)
			}
		})
	}
}

// collect gathers what the service manager gets until quiet for 500 ms.
func collect(c *net.UnixConn) <-chan []notification {
	out := make(chan []notification, 1)
	go func() {
		var all []notification
		for {
			n := received(c)
			if n.msg == "" {
				out <- all
				return
			}
			all = append(all, n)
		}
	}()
	return out
}

// TestNotifyRelayLastWords: what the program sends right before it exits
// (STOPPING=1 after a burst) still reaches the service manager.
func TestNotifyRelayLastWords(t *testing.T) {
	w := newWorld(t, rootUser)
	c, path := notifySocket(t, w)
	got := collect(c)
	r, _ := w.asNotifyService(path, "--", probe, "notify-many", "200")
	all := <-got
	if len(all) != 201 || all[len(all)-1].msg != "STOPPING=1" {
		last := ""
		if len(all) > 0 {
			last = all[len(all)-1].msg
		}
		t.Errorf("the manager got %d messages, the last %q; want 201 ending in STOPPING=1 (exit %d: %s)", len(all), last, r.code, r.stderr)
	}
}

// TestNotifyRelayPathTooLong: where the relay's path cannot fit a socket
// address (a deep TMPDIR), omega-run says so and runs the program; it
// used to wait for a relay that never started.
func TestNotifyRelayPathTooLong(t *testing.T) {
	w := newWorld(t, rootUser)
	_, path := notifySocket(t, w)
	deep := filepath.Join(w.extra, strings.Repeat("d", 90))
	mustMkdir(t, deep)
	w.timeout = 10 * time.Second
	r := w.runWith([]string{"NOTIFY_SOCKET=" + path, "TMPDIR=" + deep}, nil, "/bin/sh",
		"-c", `export SYSTEMD_EXEC_PID=$$; exec "$@"`, "sh", bin, "--mode", "rx", "--pids", "64", "--", "/bin/true")
	if r.code != 0 || !strings.Contains(r.stderr, "too long for a socket address") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestExplainService: explain shows what omega-run would pass on from the
// service manager that started it, and the fds it keeps.
func TestExplainService(t *testing.T) {
	w := newWorld(t, nobody)
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := w.asService([]string{"LISTEN_PID", "SYSTEMD_EXEC_PID"}, []string{"LISTEN_FDS=1", "NOTIFY_SOCKET=/run/systemd/notify"},
		[]*os.File{f}, "explain")
	for _, want := range []string{"fds:         3 passed on", "service:     socket activation", "service:     readiness", "preserve-fds=systemd socket activation (LISTEN_FDS)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
}
