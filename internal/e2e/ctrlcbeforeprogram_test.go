//go:build linux

package e2e

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCtrlCBeforeProgram: a Ctrl-C typed at the terminal while the launch
// is still setting up, before the program exists, ends the launch, as it
// ends a plain `sleep 1; prog` or an exec in place: the program never got
// that key, and the launcher in the foreground forwards none. strace holds
// the launcher at its state lock's flock (Claude Code's, free) for 1.5 s,
// and the key comes 0.5 s in. Both init stages, root and nobody.
func TestCtrlCBeforeProgram(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("needs strace")
	}
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				claude, _ := fakeClaude(t, w, "sleep 1; echo ran")
				mustMkdir(t, filepath.Join(w.home, ".claude"))
				chownTree(t, w.home, u)
				master, slave := openPty(t)
				defer master.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				c := w.cmdOf(ctx, strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=flock",
					"-e", "inject=flock:delay_enter=1500000:when=1", b, "--", claude)
				c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
				if c.SysProcAttr == nil {
					c.SysProcAttr = &syscall.SysProcAttr{}
				}
				c.SysProcAttr.Setsid, c.SysProcAttr.Setctty, c.SysProcAttr.Ctty = true, true, 0
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				slave.Close()
				var buf lockedBuffer
				done := make(chan struct{})
				go func() { io.Copy(&buf, master); close(done) }()
				time.Sleep(500 * time.Millisecond)
				master.WriteString("\x03")
				c.Wait()
				<-done
				if out := buf.String(); strings.Contains(out, "ran") || shellStatus(c.ProcessState) != 130 {
					t.Errorf("exit %d, want 130 and the program not run; output:\n%s", shellStatus(c.ProcessState), out)
				}
			})
		}
	}
}
