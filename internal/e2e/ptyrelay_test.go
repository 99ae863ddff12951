//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPtyRelay: with --pty the program still works as on the caller's
// terminal: its output and exit status pass through, typed input reaches
// it, its window starts at the caller's size, it is on a terminal (one of
// its own), and output written just before it exits is not lost; the
// caller's terminal settings are back afterwards.
func TestPtyRelay(t *testing.T) {
	for _, u := range users {
		t.Run(u.name+"/io", func(t *testing.T) {
			w := newWorld(t, u)
			out, code, _, tio := ptyRun(t, w, "hello\n", omegaArgs([]string{"--pty"}, "/bin/sh", "-c",
				`echo ready; read x; echo "got $x"; echo "size $(stty size)"; test -t 0 && test -t 1 && test -t 2 && echo tty; exit 7`)...)
			for _, want := range []string{"got hello", "size 24 80", "tty"} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in the terminal:\n%s", want, out)
				}
			}
			if code != 7 {
				t.Errorf("exit %d, want 7", code)
			}
			checkCooked(t, tio)
		})
		t.Run(u.name+"/no-ctty", func(t *testing.T) {
			// On a terminal that is not its controlling one (setsid, a
			// harness's pty in a session of its own) no job control
			// applies: omega-run relays, raw, as in a foreground.
			w := newWorld(t, u)
			args := append([]string{"setsid", "-w"}, omegaArgs([]string{"--pty"}, "/bin/sh", "-c", `echo ready; x=$(timeout --foreground 5 head -n 1); echo "got $x"; exit 5`)...)
			out, code, _, tio := ptyRun(t, w, "hello\n", args...)
			if code != 5 || !strings.Contains(out, "got hello") || strings.Contains(out, "\r\r\n") {
				t.Errorf("exit %d; want the typed line relayed, exit 5, and the caller's terminal raw meanwhile (no doubled CR); terminal:\n%q", code, out)
			}
			checkCooked(t, tio)
		})
		t.Run(u.name+"/no-ctty-ctrl-z", func(t *testing.T) {
			// There no shell can continue a stop: a Ctrl-Z typed for the
			// program (its terminal's job control) must not leave it
			// stopped for ever. The wrapper kills omega-run after 8 s.
			w := newWorld(t, u)
			wrap := []string{"setsid", "-w", "/bin/sh", "-c", `exec 3<&0; "$@" <&3 & p=$!; (sleep 8; kill -9 $p) >/dev/null 2>&1 3<&- & k=$!; wait $p; s=$?; kill $k; exit $s`, "sh"}
			out, code, _, tio := ptyRun(t, w, "\x1a", append(wrap, omegaArgs([]string{"--pty"}, probe, "ready-sleep")...)...)
			if code != 0 || !strings.Contains(out, "resumed") {
				t.Errorf("exit %d; want the program continued after the Ctrl-Z and exit 0; terminal:\n%q", code, out)
			}
			checkCooked(t, tio)
		})
		t.Run(u.name+"/resize", func(t *testing.T) {
			w := newWorld(t, u)
			// The caller's window resized: its terminal tells its
			// foreground group (omega-run) with SIGWINCH.
			out, ps := onNewPtyAt(t, 24, 80, func(m *os.File) {
				unix.IoctlSetWinsize(int(m.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 30, Col: 100})
			}, func(ctx context.Context) *exec.Cmd { return w.cmd(ctx, "--pty", "--", probe, "await-winch") }, nil)
			if !strings.Contains(out, "SIZE 30 100") || shellStatus(ps) != 0 {
				t.Errorf("want the program told of the new size 30×100; exit %d, terminal:\n%s", shellStatus(ps), out)
			}
		})
		t.Run(u.name+"/killed", func(t *testing.T) {
			w := newWorld(t, u)
			out, code, _, tio := ptyRun(t, w, "", omegaArgs([]string{"--pty"}, "/bin/sh", "-c", "kill -9 $$")...)
			if code != 137 {
				t.Errorf("exit %d, want 137; terminal:\n%s", code, out)
			}
			checkCooked(t, tio) // the caller's settings back however the program ends
		})
		t.Run(u.name+"/ctrl-c", func(t *testing.T) {
			// The caller's Ctrl-C now reaches the program through its
			// terminal alone; omega-run still dies of SIGINT with it, so
			// that a shell's loop stops (TestDiesOfForwardedSignal).
			w := newWorld(t, u)
			out, ps := onNewPtyThen(t, 24, 80, "\x03", func(ctx context.Context) *exec.Cmd {
				return w.cmd(ctx, "--pty", "--", "/bin/sh", "-c", "echo ready; exec sleep 10")
			}, nil)
			if ws := ps.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != unix.SIGINT {
				t.Errorf("wait status %v, want killed by SIGINT; terminal:\n%s", ps, out)
			}
		})
		t.Run(u.name+"/drain", func(t *testing.T) {
			w := newWorld(t, u)
			out, code, _, _ := ptyRun(t, w, "", omegaArgs([]string{"--pty"}, "/bin/sh", "-c",
				`head -c 300000 /dev/zero | tr '\0' x; echo; echo END`)...)
			i, j := strings.Index(out, "xxxx"), strings.LastIndex(out, "END")
			if i < 0 || j < i || code != 0 {
				t.Fatalf("exit %d, output or END missing: %d bytes, ends %q", code, len(out), out[max(0, len(out)-200):])
			}
			if n := strings.Count(out[i:j], "x"); n != 300000 {
				t.Errorf("%d of 300000 bytes", n)
			}
		})
	}
}

// TestPtyStops: Ctrl-Z typed on the program's terminal stops the program
// and omega-run once, with the caller's terminal settings back for the
// shell's prompt; fg continues both (raw again), and the program ends.
// The same for a program that stops itself (vi's Ctrl-Z).
func TestPtyStops(t *testing.T) {
	for _, u := range users {
		t.Run(u.name+"/ctrl-z", func(t *testing.T) {
			w := newWorld(t, u)
			// Not sh -c 'echo ready; sleep 1': a Ctrl-Z that comes while
			// sh is in vfork stops its child before the exec, and sh,
			// waiting for it, never stops; on the caller's terminal
			// omega-run stopped by the key itself, with --pty only
			// through the program's stop.
			args := append([]string{probe, "job-shell"}, omegaArgs([]string{"--pty"}, probe, "ready-sleep")...)
			out, _, _, tio := ptyRun(t, w, "\x1a", args...)
			if n := strings.Count(out, "JOB STOPPED 20"); n != 1 || !strings.Contains(out, "resumed") || !strings.Contains(out, "JOB EXITED 0") || strings.Contains(out, "LEFT RAW") {
				t.Errorf("want one stop by SIGTSTP (20) with the terminal's settings back, then resumed and exit 0; got %d stops; terminal:\n%s", n, out)
			}
			checkCooked(t, tio)
		})
		t.Run(u.name+"/stty-while-stopped", func(t *testing.T) {
			// What the user sets at the prompt while the job is stopped
			// stays after it ends (as sudo re-reads it on resume), not the
			// settings from before the start.
			w := newWorld(t, u)
			args := append([]string{probe, "job-shell-stty"}, omegaArgs([]string{"--pty"}, probe, "ready-sleep")...)
			out, _, _, tio := ptyRun(t, w, "\x1a", args...)
			if !strings.Contains(out, "JOB STOPPED 20") || !strings.Contains(out, "JOB EXITED 0") {
				t.Fatalf("want one stop and exit 0; terminal:\n%s", out)
			}
			checkCooked(t, tio)
			if tio != nil && tio.Lflag&unix.ECHOCTL != 0 {
				t.Errorf("the caller's stty -echoctl while the job was stopped was undone at the end: %+v", tio)
			}
		})
		t.Run(u.name+"/stop-self", func(t *testing.T) {
			w := newWorld(t, u)
			args := append([]string{probe, "job-shell"}, omegaArgs([]string{"--pty"}, probe, "stop-self")...)
			out, _, _, tio := ptyRun(t, w, "", args...)
			if !strings.Contains(out, "JOB STOPPED 20") || !strings.Contains(out, "resumed") || !strings.Contains(out, "JOB EXITED 0") || strings.Contains(out, "LEFT RAW") {
				t.Errorf("want the job stopped by SIGTSTP (20) with the terminal's settings back, then resumed and exited 0; terminal:\n%s", out)
			}
			checkCooked(t, tio)
		})
	}
}

// checkCooked fails unless the terminal echoes, reads lines, turns keys
// into signals and processes output: not left raw.
func checkCooked(t *testing.T, tio *unix.Termios) {
	t.Helper()
	if tio == nil || tio.Lflag&(unix.ECHO|unix.ICANON|unix.ISIG) != unix.ECHO|unix.ICANON|unix.ISIG || tio.Oflag&unix.OPOST == 0 {
		t.Errorf("the caller's terminal was left changed: %+v", tio)
	}
}

// TestPtyLeftBehind: without user namespaces (no pid namespace) a process
// the program leaves behind, ignoring the hangup, keeps the pseudo-
// terminal open; omega-run still ends with the program, its output drained
// and the caller's terminal restored, not when that process does.
func TestPtyLeftBehind(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			args := append(noUserns(t, u.uid), omegaArgs([]string{"--pty"}, "/bin/sh", "-c",
				`(trap '' HUP; exec sleep 8) & echo bye; exit 4`)...)
			start := time.Now()
			out, code, _, tio := ptyRun(t, w, "", args...)
			if took := time.Since(start); took > 5*time.Second || code != 4 || !strings.Contains(out, "bye") {
				t.Errorf("took %v, exit %d; want exit 4 at once, the process left behind notwithstanding; terminal:\n%s", took.Round(time.Millisecond), code, out)
			}
			checkCooked(t, tio)
		})
	}
}
