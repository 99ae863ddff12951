//go:build linux

package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
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
	strace := needStrace(t)
	for name, b := range bothStages(t) {
		for _, u := range users {
			t.Run(name+"/"+u.name, func(t *testing.T) {
				w := newWorld(t, u)
				claude, _ := fakeClaude(t, w, "sleep 1; echo ran")
				mustMkdir(t, filepath.Join(w.home, ".claude"))
				chownTree(t, w.home, u)
				p := startOnPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd {
					return w.cmdOf(ctx, strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=flock",
						"-e", "inject=flock:delay_enter=1500000:when=1", b, "--", claude)
				})
				time.Sleep(500 * time.Millisecond)
				p.master.WriteString("\x03")
				p.c.Wait()
				<-p.done
				if out := p.out.String(); strings.Contains(out, "ran") || shellStatus(p.c.ProcessState) != 130 {
					t.Errorf("exit %d, want 130 and the program not run; output:\n%s", shellStatus(p.c.ProcessState), out)
				}
			})
		}
	}
}
