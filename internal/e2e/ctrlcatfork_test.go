//go:build linux

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCtrlCAtProgramFork: a Ctrl-C typed while PID 1 is about to fork the
// program, after it looked for what the terminal sent it before, ends the
// launch (130, the program not run), as one typed earlier does
// (TestCtrlCBeforeProgram). strace holds PID 1's last write before the
// fork (the raise of its oom_score_adj for the program) and the key
// comes once strace says so. Before, the C stage took the early keys
// before that write, and dropped this one after the fork as a key the
// program had got too: the program ran (exit 0). The C init stage, root
// and nobody; the Go one's runtime hands PID 1 the key whenever it gets
// to it, which may be after the fork (README: Limitations).
func TestCtrlCAtProgramFork(t *testing.T) {
	if goInitStage() {
		t.Skip("the Go init stage's runtime delivers the key on its own time (README: Limitations)")
	}
	strace := needStrace(t)
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			log := straceLogFor(t)
			p := startOnPty(t, 24, 80, "", func(ctx context.Context) *exec.Cmd {
				return w.cmdOf(ctx, strace, "-f", "-qq", "-o", log, "-e", "signal=none", "-e", "trace=pwrite64",
					"-e", "inject=pwrite64:delay_exit=1500000:when=1", bin, "--", "/bin/sh", "-c", "echo ran")
			})
			// The raise's write, printed as it is held.
			ctrlCWhenTraced(t, p, log, "(DELAYED)")
		})
	}
}

// straceLogFor is a file strace, run as any user, writes its log to.
func straceLogFor(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "omega-strace-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "strace.log")
}
