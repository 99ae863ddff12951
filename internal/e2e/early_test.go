//go:build linux

package e2e

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEarlyStartDecided: the CLI starts a sandbox init stage before it
// has read its config file, from the command line alone; the config file
// then decides. A config asking for --net none must get a network
// namespace (the early init stage has none: it is dropped), one asking
// for rx or rwx must run the program in place with no init stage left as
// its child; judged from outside by a listener the test owns and by a
// subreaper around omega-run. No config is the control: the early init
// stage runs the program, which reaches the listener.
func TestEarlyStartDecided(t *testing.T) {
	cases := []struct {
		config, mode string
		connects     bool
	}{
		{"", "sandbox", true},
		{`net = "none"`, "sandbox", false},
		{`mode = "rx"`, "rx", true},
		{`mode = "rwx"`, "rwx", true},
	}
	for _, u := range users {
		for _, c := range cases {
			t.Run(u.name+"/"+c.mode+"/"+strings.ReplaceAll(c.config, " ", ""), func(t *testing.T) {
				w := newWorld(t, u)
				if c.config != "" {
					writeFile(t, filepath.Join(w.dataDir, "config.toml"), "[sandbox]\n"+c.config+"\n")
				}
				ln, err := net.Listen("tcp4", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				// The shell's children: the cat that lists them, nothing else.
				script := `echo "mode $OMEGA_SANDBOX children $(cat /proc/$$/task/$$/children | wc -w)"; ` +
					probe + " connect tcp4 " + ln.Addr().String()
				r := w.runProg(probe, "subreaper", bin, "--", "/bin/sh", "-c", script)
				ln.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
				conn, err := ln.Accept()
				if conn != nil {
					conn.Close()
				}
				if got := err == nil; got != c.connects {
					t.Errorf("listener got a connection: %v, want %v (stdout %q stderr %q)", got, c.connects, r.stdout, r.stderr)
				}
				if want := "mode " + c.mode + " children 1\n"; !strings.Contains(r.stdout, want) || r.code != 0 {
					t.Errorf("stdout %q (stderr %q, exit %d), want %q and nothing left behind", r.stdout, r.stderr, r.code, want)
				}
			})
		}
	}
}

// TestEarlyStartEnvironment: a variable set twice in omega-run's
// environment reaches the program once, with its first value, as Go's
// os.Environ passes it — no early init stage, which would have the raw
// environment, is started then. The harness's exec.Cmd would drop the duplicate itself,
// so omega-run is started with syscall.ForkExec.
func TestEarlyStartEnvironment(t *testing.T) {
	w := newWorld(t, rootUser)
	for _, env := range [][]string{{"DUP=first", "DUP=second"}, {"DUP=first"}} {
		r, wr, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		// env(1) prints its environment as it got it (a shell would
		// keep one of the two itself).
		argv := []string{bin, "--", "/usr/bin/env"}
		pid, err := syscall.ForkExec(bin, argv, &syscall.ProcAttr{
			Dir:   w.home,
			Env:   append([]string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}, env...),
			Files: []uintptr{0, wr.Fd(), 2},
		})
		wr.Close()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(r)
		r.Close()
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		var dups []string
		for _, kv := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(kv, "DUP=") {
				dups = append(dups, kv)
			}
		}
		if got := strings.Join(dups, " "); got != "DUP=first" || ws.ExitStatus() != 0 {
			t.Errorf("env %q: the program saw %q (exit %d), want DUP=first once", env, got, ws.ExitStatus())
		}
	}
}

// TestEarlyStartInheritance: what the caller leaves the launcher that Go
// would not pass on — ignored signals (other than SIGHUP and SIGINT) and
// closed standard fds — reaches the program as through a Go parent:
// default dispositions, /dev/null. The early init stage is a fork of the
// caller's process before the Go runtime, so it must undo both itself.
func TestEarlyStartInheritance(t *testing.T) {
	w := newWorld(t, nobody)
	for _, mode := range []string{"sandbox", "rx"} {
		script := `trap '' PIPE TERM USR1; exec ` + bin + ` --mode ` + mode +
			` -- /bin/sh -c 'grep SigIgn /proc/self/status; readlink /proc/self/fd/0' <&-`
		r := w.runProg("/bin/sh", "-c", script)
		if want := "SigIgn:\t0000000000000000\n/dev/null\n"; r.stdout != want {
			t.Errorf("%s: stdout %q (stderr %q), want %q", mode, r.stdout, r.stderr, want)
		}
	}
}
