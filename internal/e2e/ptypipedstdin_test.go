//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPtyPipedStdinKeys: with stdin a pipe and stdout the caller's
// terminal (seq 100 | omega-run --pty -- less), the program reads its
// keys from its terminal, as a pager does. omega-run read keys only from
// a stdin on the terminal, so nothing reached the program's terminal:
// less waited for ever, and its q was echoed on the caller's. The pipe
// still reaches the program as stdin, and the caller's terminal settings
// are back afterwards.
func TestPtyPipedStdinKeys(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			prog := `echo ready; k=$(timeout --foreground 5 head -n 1 </dev/tty); echo "key=$k"; read -r s; echo "stdin=$s"`
			args := append([]string{"/bin/sh", "-c", `printf 'piped\n' | "$@"`, "sh"}, omegaArgs([]string{"--pty"}, "/bin/sh", "-c", prog)...)
			out, code, _, tio := ptyRun(t, w, "hello\r", args...)
			if code != 0 || !strings.Contains(out, "key=hello") || !strings.Contains(out, "stdin=piped") {
				t.Errorf("exit %d; want the typed key read from the program's terminal and the pipe as its stdin; terminal:\n%q", code, out)
			}
			checkCooked(t, tio)
		})
		t.Run(u.name+"/ctrl-c", func(t *testing.T) {
			// The caller's Ctrl-C still signals the whole job: what
			// writes into the pipe ends with the program, as it did.
			w := newWorld(t, u)
			args := append([]string{"/bin/sh", "-c", `sleep 25 | "$@"`, "sh"}, omegaArgs([]string{"--pty"}, "/bin/sh", "-c", "echo ready; exec sleep 25")...)
			start := time.Now()
			out, _, _, tio := ptyRun(t, w, "\x03", args...)
			if took := time.Since(start); took > 15*time.Second {
				t.Errorf("the job ended after %v: the Ctrl-C did not reach the writer into the pipe; terminal:\n%q", took, out)
			}
			checkCooked(t, tio)
		})
		t.Run(u.name+"/ctrl-z-fg", func(t *testing.T) {
			// Ctrl-Z stops the job, omega-run with it; a shell puts its
			// own settings back at the stop (bash does), and after fg the
			// caller's terminal must be raw again: a key without Enter
			// reaches a program reading single keys (less).
			w := newWorld(t, u)
			prog := `echo ready; stty raw -echo </dev/tty; k=$(timeout --foreground 8 dd bs=1 count=1 2>/dev/null </dev/tty); stty sane </dev/tty; echo "key=$k"`
			args := append([]string{probe, "job-shell-restore", "/bin/sh", "-c", `printf 'piped\n' | "$@"`, "sh"}, omegaArgs([]string{"--pty"}, "/bin/sh", "-c", prog)...)
			out, ps := onNewPtyAt(t, 24, 80, func(m *os.File) {
				m.WriteString("\x1a")
				time.Sleep(1500 * time.Millisecond)
				m.WriteString("x")
			}, func(ctx context.Context) *exec.Cmd { return w.cmdOf(ctx, args[0], args[1:]...) }, nil)
			if !strings.Contains(out, "JOB STOPPED") || !strings.Contains(out, "key=x") || shellStatus(ps) != 0 {
				t.Errorf("exit %d; want the job stopped, continued, and the key read without Enter; terminal:\n%q", shellStatus(ps), out)
			}
		})
	}
}
