//go:build linux

package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDeadStderrRunsProgram: with stderr a pipe nobody reads any more (a
// log reader that died, `2>&1 | head -1` once head is gone), omega-run's
// own lines fail to arrive, but the program still runs and its status is
// omega-run's, as in a plain run of a program that does not write to
// stderr. The Go runtime otherwise ends the launcher by SIGPIPE at its
// first line (141, the program never started), and a Go init stage, PID 1
// of its namespace, which that signal cannot kill, with exit status 2.
func TestDeadStderrRunsProgram(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				// info: omega-run writes a line in every mode (root's rx
				// run warns as well; a Go init stage warns too).
				out, code := w.runDeadStderr("--log-level", "info", "--mode", mode, "--", "/bin/sh", "-c", "echo ran; exit 7")
				if code != 7 || out != "ran\n" {
					t.Errorf("exit %d, stdout %q; want 7 and %q", code, out, "ran\n")
				}
			})
		}
	}
}

// TestDeadStderrFilterKills: the check for a filter around omega-run that
// would kill it (cinit_filterkills.c, before the Go runtime) says so and
// ends with 125 — with stderr dead too, where its line died of SIGPIPE
// (141), which a unit's RestartPreventExitStatus=125 does not stop.
func TestDeadStderrFilterKills(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		_, code := w.runDeadStderrOf(probe, "seccomp-exec", sysLandlockCreateRuleset+"=kill", bin, "--mode", "rx", "--", "/bin/echo", "ran")
		if code != 125 {
			t.Errorf("%s: exit %d; want 125", u.name, code)
		}
	}
}

// TestDeadStderrExecFails: a program that cannot be executed ends the
// launch with 126 (127 where it is missing) and a line, which a stderr
// nobody reads drops; sandbox mode's init stage, whose child execs the
// program, died of SIGPIPE at that line instead (141).
func TestDeadStderrExecFails(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx", "rwx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				bad := filepath.Join(w.extra, "bad")
				if err := os.WriteFile(bad, []byte("\x7fELF not one"), 0o755); err != nil {
					t.Fatal(err)
				}
				if _, code := w.runDeadStderr("--mode", mode, "--", bad); code != 126 {
					t.Errorf("exit %d; want 126", code)
				}
			})
		}
	}
}

// runDeadStderr runs omega-run with stderr a pipe whose read end is
// closed, and returns its stdout and status.
func (w *world) runDeadStderr(args ...string) (string, int) {
	w.t.Helper()
	return w.runDeadStderrOf(bin, args...)
}

// runDeadStderrOf is runDeadStderr for prog (a wrapper around omega-run).
func (w *world) runDeadStderrOf(prog string, args ...string) (string, int) {
	w.t.Helper()
	r, wr, err := os.Pipe()
	if err != nil {
		w.t.Fatal(err)
	}
	r.Close()
	defer wr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	c := w.cmdOf(ctx, prog, args...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, wr
	c.WaitDelay = 5 * time.Second
	c.Run()
	if ctx.Err() != nil {
		w.t.Fatalf("omega-run %q: still running after %v (killed)", args, w.timeout)
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n"), shellStatus(c.ProcessState)
}
