//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The caller's terminal is the one a shell runs omega-run on; with --pty
// the program gets a pseudo-terminal of its own instead. Each attack runs
// without --pty too, where it must still work (README's open rows): a
// control that the test does reproduce it.
var ptyCases = []struct {
	name  string
	flags []string
}{{"shared", nil}, {"pty", []string{"--pty"}}}

// ptyRun runs args (a probe wrapper, then omega-run) on a new 24×80
// terminal as its session leader, types keys after "ready", and returns
// the terminal's output, the command's status, and the terminal's size
// and settings once it has ended.
func ptyRun(t *testing.T, w *world, keys string, args ...string) (string, int, *unix.Winsize, *unix.Termios) {
	t.Helper()
	var ws *unix.Winsize
	var tio *unix.Termios
	out, ps := onNewPtyThen(t, 24, 80, keys, func(ctx context.Context) *exec.Cmd { return w.cmdOf(ctx, args[0], args[1:]...) },
		func(m *os.File) {
			ws, _ = unix.IoctlGetWinsize(int(m.Fd()), unix.TIOCGWINSZ)
			tio, _ = unix.IoctlGetTermios(int(m.Fd()), unix.TCGETS) // the slave's, on a master
		})
	return out, shellStatus(ps), ws, tio
}

func omegaArgs(flags []string, prog ...string) []string {
	return append(append(append([]string{bin}, flags...), "--"), prog...)
}

// TestPtyWindowSize: the program's TIOCSWINSZ on its terminal resizes the
// caller's and sends the caller's foreground process group (the shell's
// job omega-run is in) SIGWINCH; with --pty it changes only its own.
func TestPtyWindowSize(t *testing.T) {
	for _, u := range users {
		for _, c := range ptyCases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				args := append([]string{probe, "count-winch"}, omegaArgs(c.flags, probe, "set-winsize", "11", "22")...)
				out, code, ws, _ := ptyRun(t, w, "", args...)
				if code != 0 || ws == nil || !strings.Contains(out, "ok") {
					t.Fatalf("exit %d, size %v; terminal:\n%s", code, ws, out)
				}
				changed := ws.Row != 24 || ws.Col != 80
				signalled := !strings.Contains(out, "WINCH 0")
				if want := c.flags == nil; changed != want || signalled != want {
					t.Errorf("caller's terminal %d×%d, signalled %v; want changed and signalled: %v; terminal:\n%s", ws.Row, ws.Col, signalled, want, out)
				}
			})
		}
	}
}

// TestPtyStealLine: a program that makes itself the foreground process
// group of its terminal, with SIGTTIN and SIGTTOU ignored, reads the line
// the user types next (a sudo password) while omega-run runs in the
// background (cmd &); with --pty it takes only its own terminal, and
// omega-run does not read the caller's from the background.
func TestPtyStealLine(t *testing.T) {
	for _, u := range users {
		for _, c := range ptyCases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				args := append([]string{probe, "job-bg"}, omegaArgs(c.flags, probe, "steal-line")...)
				out, _, _, _ := ptyRun(t, w, "hunter2\n", args...)
				if !strings.Contains(out, "JOB EXITED") {
					t.Fatalf("the job did not end; terminal:\n%s", out)
				}
				if stole, want := strings.Contains(out, "GOT hunter2"), c.flags == nil; stole != want {
					t.Errorf("program read the typed line: %v, want %v; terminal:\n%s", stole, want, out)
				}
			})
		}
	}
}

// TestPtyTerminalSettings: a program that turns its terminal's echo off
// and exits leaves the caller's terminal without echo (a password typed
// next shows nothing, or a shell looks dead); with --pty it changes only
// its own, and omega-run puts back the raw mode it set.
func TestPtyTerminalSettings(t *testing.T) {
	for _, u := range users {
		for _, c := range ptyCases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				out, code, _, tio := ptyRun(t, w, "", omegaArgs(c.flags, probe, "no-echo")...)
				if code != 0 || tio == nil {
					t.Fatalf("exit %d; terminal:\n%s", code, out)
				}
				kept := tio.Lflag&(unix.ECHO|unix.ICANON|unix.ISIG) == unix.ECHO|unix.ICANON|unix.ISIG && tio.Oflag&unix.OPOST != 0
				if want := c.flags != nil; kept != want {
					t.Errorf("caller's terminal settings kept: %v, want %v (lflag %#o, oflag %#o)", kept, want, tio.Lflag, tio.Oflag)
				}
			})
		}
	}
}

// TestPtyWhereNotUsed: --pty is refused (125, one line) where the program
// replaces omega-run (rx, rwx), changes nothing without a terminal on
// fds 0–2, and works without user namespaces, where the init stage itself
// takes the pseudo-terminal (no PID 1).
func TestPtyWhereNotUsed(t *testing.T) {
	for _, mode := range []string{"rx", "rwx"} {
		r := newWorld(t, nobody).run("--mode", mode, "--pty", "--", "true")
		if r.code != 125 || !strings.Contains(r.stderr, "--pty needs --mode sandbox") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want 125 and one line", mode, r.code, r.stderr)
		}
	}
	r := newWorld(t, nobody).run("--log-level", "debug", "--pty", "--", "/bin/sh", "-c", "test -t 0 || test -t 1 || echo no-tty")
	if r.code != 0 || !strings.Contains(r.stdout, "no-tty") || !strings.Contains(r.stderr, "--pty: none of") {
		t.Errorf("no terminal: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, u := range users {
		t.Run("no-userns/"+u.name, func(t *testing.T) {
			w := newWorld(t, u)
			args := append(noUserns(t, u.uid), omegaArgs([]string{"--pty"}, "/bin/sh", "-c",
				`echo ready; read x; echo "got $x"; stty -echo; exit 3`)...)
			out, code, _, tio := ptyRun(t, w, "hello\n", append([]string{probe, "job-shell"}, args...)...)
			if !strings.Contains(out, "user namespaces are unavailable") || !strings.Contains(out, "got hello") || !strings.Contains(out, "JOB EXITED 3") {
				t.Errorf("exit %d; want the fallback's warning, the typed line and exit 3; terminal:\n%s", code, out)
			}
			checkCooked(t, tio)
		})
	}
}
