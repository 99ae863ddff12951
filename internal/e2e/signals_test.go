//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// trapScript prints "ready", then the number of every signal it gets,
// until it has seen one or its loop ends.
const trapScript = `for s in 1 2 3 6 10 12 14 15 18 28; do trap "echo got $s" $s; done
echo ready; i=0; while [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done`

// TestSignalForwarding sends each forwarded signal to omega-run (not on a
// terminal, so nothing else delivers it) and checks the program got it.
func TestSignalForwarding(t *testing.T) {
	sigs := []syscall.Signal{unix.SIGHUP, unix.SIGINT, unix.SIGQUIT, unix.SIGUSR1, unix.SIGUSR2, unix.SIGTERM, unix.SIGCONT, unix.SIGWINCH,
		unix.SIGABRT, unix.SIGALRM}
	for _, mode := range confinedModes {
		for _, sig := range sigs {
			t.Run(fmt.Sprintf("%s/%d", mode, sig), func(t *testing.T) {
				w := newWorld(t, nobody)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				c := w.cmd(ctx, "--mode", mode, "--", "/bin/sh", "-c", trapScript)
				out := startAndWaitReady(t, c)
				if err := c.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				line := readLine(t, out)
				if want := fmt.Sprintf("got %d", sig); line != want {
					t.Errorf("program printed %q, want %q", line, want)
				}
				c.Process.Kill()
				c.Wait()
			})
		}
	}
}

func startAndWaitReady(t *testing.T, c *exec.Cmd) *bufio.Reader {
	t.Helper()
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	if line := readLine(t, out); line != "ready" {
		t.Fatalf("first line %q, want ready", line)
	}
	return out
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	return strings.TrimSpace(line)
}

// openPty returns a new pseudo-terminal pair.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// onPty runs omega-run as the session leader of a new terminal, as a
// shell would, types keys after the program says ready, and returns the
// terminal output and exit status.
func onPty(t *testing.T, w *world, keys string, args ...string) (string, int) {
	t.Helper()
	return onPtyKeys(t, w, 24, 80, keys, args...)
}

func onPtySized(t *testing.T, w *world, rows, cols uint16, args ...string) (string, int) {
	t.Helper()
	return onPtyKeys(t, w, rows, cols, "", args...)
}

func onPtyKeys(t *testing.T, w *world, rows, cols uint16, keys string, args ...string) (string, int) {
	t.Helper()
	out, ps := onNewPty(t, rows, cols, keys, func(ctx context.Context) *exec.Cmd { return w.cmd(ctx, args...) })
	return out, shellStatus(ps)
}

// onNewPty starts the command mk makes as the session leader of a new
// terminal of rows × cols, as a shell would, types keys once it says
// ready (none: at once), and returns what the terminal showed and how
// the command ended.
func onNewPty(t *testing.T, rows, cols uint16, keys string, mk func(context.Context) *exec.Cmd) (string, *os.ProcessState) {
	t.Helper()
	return onNewPtyThen(t, rows, cols, keys, mk, nil)
}

// onNewPtyThen is onNewPty that calls after with the terminal's master
// once the command has ended, to look at the terminal left behind.
func onNewPtyThen(t *testing.T, rows, cols uint16, keys string, mk func(context.Context) *exec.Cmd, after func(master *os.File)) (string, *os.ProcessState) {
	t.Helper()
	var atReady func(*os.File)
	if keys != "" {
		atReady = func(m *os.File) { m.WriteString(keys) }
	}
	return onNewPtyAt(t, rows, cols, atReady, mk, after)
}

// onNewPtyAt is onNewPtyThen that calls atReady (nil: none) with the
// master once the output says ready, instead of typing keys.
func onNewPtyAt(t *testing.T, rows, cols uint16, atReady func(master *os.File), mk func(context.Context) *exec.Cmd, after func(master *os.File)) (string, *os.ProcessState) {
	t.Helper()
	return onNewPtyTyped(t, rows, cols, "", atReady, mk, after)
}

// onNewPtyTyped is onNewPtyAt with ahead typed on the terminal before
// the command starts (still in its cooked mode).
func onNewPtyTyped(t *testing.T, rows, cols uint16, ahead string, atReady func(master *os.File), mk func(context.Context) *exec.Cmd, after func(master *os.File)) (string, *os.ProcessState) {
	t.Helper()
	p := startOnPty(t, rows, cols, ahead, mk)
	if atReady != nil {
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(p.out.String(), "ready") && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		atReady(p.master)
	}
	p.c.Wait()
	if after != nil {
		after(p.master)
	}
	<-p.done
	return p.out.String(), p.c.ProcessState
}

// ptyStarted is a command started by startOnPty: what its terminal shows
// collects in out until done.
type ptyStarted struct {
	c      *exec.Cmd
	master *os.File
	out    *lockedBuffer
	done   chan struct{}
}

// startOnPty starts the command mk makes (30 s at most) as the session
// leader of a new terminal of rows × cols, with ahead typed first.
func startOnPty(t *testing.T, rows, cols uint16, ahead string, mk func(context.Context) *exec.Cmd) ptyStarted {
	t.Helper()
	master, slave := openPty(t)
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetWinsize(int(master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		t.Fatal(err)
	}
	if _, err := master.WriteString(ahead); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	c := mk(ctx)
	c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.Setsid, c.SysProcAttr.Setctty, c.SysProcAttr.Ctty = true, true, 0
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	p := ptyStarted{c: c, master: master, out: &lockedBuffer{}, done: make(chan struct{})}
	go func() { io.Copy(p.out, master); close(p.done) }()
	return p
}

// TestCtrlC: Ctrl-C at the terminal ends the program with 130, and a
// program that traps SIGINT sees it exactly once. Two SIGINTs close
// together may merge into one: PID 1's leaving the caller's group, which
// keeps the second from being sent, is TestPID1LeavesCallersGroup's.
func TestCtrlC(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode+"/ends-sleep", func(t *testing.T) {
			w := newWorld(t, nobody)
			_, code := onPty(t, w, "\x03", "--mode", mode, "--", "/bin/sh", "-c", "echo ready; exec sleep 100")
			if code != 130 {
				t.Errorf("exit %d, want 130", code)
			}
		})
		t.Run(mode+"/delivered-once", func(t *testing.T) {
			w := newWorld(t, nobody)
			// A Go probe handles each delivery at once; a shell would
			// coalesce two close signals and hide a duplicate.
			out, code := onPty(t, w, "\x03", "--mode", mode, "--", probe, "sigint-count")
			if n := strings.Count(out, "GOT-INT"); n != 1 || code != 0 {
				t.Errorf("SIGINT seen %d times (exit %d), want once (exit 0); output:\n%s", n, code, out)
			}
		})
	}
}

// TestIgnoredSignalsStayIgnored: `nohup omega-run -- prog &` survives
// the hangup, and a caller's ignored SIGTERM reaches neither omega-run
// nor the program: the signals are sent to omega-run's whole process
// group, as a terminal or a shell sends them, and to omega-run alone.
// After a moment, both still run (the program then ends itself).
func TestIgnoredSignalsStayIgnored(t *testing.T) {
	for _, mode := range []string{"sandbox", "rx", "rwx"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			c := w.cmdOf(ctx, probe, "with-signals", "1,15", "", bin, "--mode", mode, "--",
				"/bin/sh", "-c", "echo ready; sleep 1; echo alive")
			c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: c.SysProcAttr.Credential}
			out := startAndWaitReady(t, c)
			for _, sig := range []syscall.Signal{unix.SIGHUP, unix.SIGTERM} {
				syscall.Kill(-c.Process.Pid, sig)
				syscall.Kill(c.Process.Pid, sig)
			}
			line := readLine(t, out)
			c.Wait()
			if code := shellStatus(c.ProcessState); line != "alive" || code != 0 {
				t.Errorf("program printed %q, exit %d; want alive and 0 (HUP and TERM ignored)", line, code)
			}
		})
	}
}

// TestZombiesReaped: an orphan reparented to the sandbox's PID 1 is
// reaped while the program still runs.
func TestZombiesReaped(t *testing.T) {
	w := newWorld(t, nobody)
	script := `sh -c 'sleep 0.1 & exit 0'; sleep 0.5; ps -eo stat= | grep -c '^Z' || true`
	r := w.sh("sandbox", script)
	if got := strings.TrimSpace(r.stdout); got != "0" {
		t.Errorf("zombies inside the sandbox: %q, want 0 (stderr %s)", got, r.stderr)
	}
}

// TestParentDeathKillsTree: SIGKILL to omega-run ends everything inside,
// also where the init stage switched to another user (which clears the
// parent-death signal).
func TestParentDeathKillsTree(t *testing.T) {
	for _, c := range []struct {
		name string
		u    user
		args []string
	}{
		{"nobody", nobody, nil},
		{"root with --user nobody", rootUser, []string{"--user", "nobody"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, c.u)
			ws := filepath.Join(w.dataDir, "workspace")
			os.Chmod(ws, 0o777)
			marker := filepath.Join(ws, "marker")
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			script := fmt.Sprintf(`(sleep 1; echo alive > %q) & echo ready; wait`, marker)
			cmd := w.cmd(ctx, append(c.args, "--", "/bin/sh", "-c", script)...)
			startAndWaitReady(t, cmd)
			cmd.Process.Kill()
			cmd.Wait()
			time.Sleep(1500 * time.Millisecond)
			if w.exists(marker) {
				t.Error("a process inside the sandbox outlived omega-run")
			}
		})
	}
}

// TestParentDeathDuringUserSwitch: omega-run is SIGKILLed after the init
// stage changed ids, which clears its parent-death signal, and before it
// set the signal again (the probe stalls that prctl until omega-run is
// dead). The program must not run; the probe, a subreaper, waits for
// every orphan, so the marker is checked once all has run.
func TestParentDeathDuringUserSwitch(t *testing.T) {
	w := newWorld(t, rootUser)
	ws := filepath.Join(w.dataDir, "workspace")
	os.Chmod(ws, 0o777)
	marker := filepath.Join(ws, "marker")
	r := w.runProg(probe, "lose-parent", bin, "--user", "nobody", "--", "/bin/sh", "-c", "echo ran > "+marker)
	if !strings.Contains(r.stderr, "lose-parent: killed the launcher") {
		t.Fatalf("the probe never saw the id switch: exit %d, stderr %q", r.code, r.stderr)
	}
	if w.exists(marker) {
		t.Error("the program ran after omega-run died during the id switch")
	}
}

// TestTerminal: the program keeps a working terminal: window size, raw
// mode, /dev/tty.
func TestTerminal(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, nobody)
			script := `stty size; stty size </dev/tty; stty raw -echo </dev/tty && stty -a </dev/tty | grep -o -- -icanon; stty sane; echo ready`
			out, code := onPtySized(t, w, 33, 111, "--mode", mode, "--", "/bin/sh", "-c", script)
			if code != 0 || strings.Count(out, "33 111") != 2 || !strings.Contains(out, "-icanon") {
				t.Errorf("exit %d, terminal output:\n%s", code, out)
			}
		})
	}
}

// TestTerminalReopened: the terminal opened again by the name of an fd
// on it (stty -F /dev/stdout, isatty(open("/dev/stdin"))) takes ioctls
// too: it gets a stream rule, as a written file does. As root: the test's
// pty is root's, 0620.
func TestTerminalReopened(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			script := `stty -F /dev/stdout size; python3 -c 'import os; print("tty", os.isatty(os.open("/dev/stdin", os.O_RDONLY)))'`
			out, code := onPtySized(t, w, 33, 111, "--mode", mode, "--", "/bin/sh", "-c", script)
			if code != 0 || !strings.Contains(out, "33 111") || !strings.Contains(out, "tty True") {
				t.Errorf("exit %d, terminal output:\n%s", code, out)
			}
		})
	}
}

// lockedBuffer is written by a copying goroutine and polled by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNewPtyInside: a program can make its own pseudo-terminal (script,
// tmux, expect, an agent's shell tool): /dev/ptmx and the sandbox's own
// /dev/pts get their Landlock device rules.
func TestNewPtyInside(t *testing.T) {
	for _, u := range users {
		for _, mode := range confinedModes {
			w := newWorld(t, u)
			r := w.run("--mode", mode, "--", "/usr/bin/python3", "-c",
				`import os; m, s = os.openpty(); os.write(s, b"x"); print("pty", os.read(m, 1).decode())`)
			if r.code != 0 || r.stdout != "pty x\n" {
				t.Errorf("%s/%s: %+v", u.name, mode, r)
			}
		}
	}
}

// TestDiesOfForwardedSignal: a program ended by the SIGINT, SIGHUP or
// SIGTERM omega-run received ends omega-run by that signal too, as an
// exec in place does: a shell's loop stops at Ctrl-C only when its child
// died of SIGINT (status 130 says the child handled it). A program's own
// exit 130, with no signal, stays an exit status.
func TestDiesOfForwardedSignal(t *testing.T) {
	for _, mode := range confinedModes {
		for _, sig := range []syscall.Signal{unix.SIGINT, unix.SIGHUP, unix.SIGTERM} {
			t.Run(fmt.Sprintf("%s/%d", mode, sig), func(t *testing.T) {
				w := newWorld(t, nobody)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				c := w.cmd(ctx, "--mode", mode, "--", "/bin/sh", "-c", "echo ready; exec sleep 100")
				startAndWaitReady(t, c)
				if err := c.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				c.Wait()
				if ws := c.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
					t.Errorf("wait status %v, want killed by signal %d", c.ProcessState, sig)
				}
			})
		}
		t.Run(mode+"/exit-130", func(t *testing.T) {
			w := newWorld(t, nobody)
			c := w.cmd(context.Background(), "--mode", mode, "--", "/bin/sh", "-c", "exit 130")
			c.Run()
			if ws := c.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() || ws.ExitStatus() != 130 {
				t.Errorf("wait status %v, want exit status 130", c.ProcessState)
			}
		})
	}
}
