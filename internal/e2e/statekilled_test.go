//go:build linux

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStateCopyBackKilled: omega-run killed (SIGKILL: an OOM kill, a
// unit's stop timeout) in the middle of the copy back, after it made its
// temporary file beside ~/.claude.json and before the rename, leaves
// ~/.claude.json whole and the program's state in the working copy —
// and the temporary file, a copy of the whole state (hundreds of MB for
// Claude Code), which no launch removed; a kill in the copy in leaves
// them in ~/.claude (planted here). The next launch, alone on the
// working copy (its lock), removes such files beside ~/.claude.json and
// in ~/.claude; other files stay. The copy back is held on its rename by
// strace's delay injection.
func TestStateCopyBackKilled(t *testing.T) {
	strace := needStrace(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				claude, state := fakeClaude(t, w, claudeSavesPid)
				other := filepath.Join(w.home, ".claude.json.omega-notes")
				writeFile(t, other, "the user's")
				chownTree(t, w.home, u)
				killInCopyBack(t, w, strace, "--mode", mode, "--", claude)
				temps, _ := filepath.Glob(filepath.Join(w.home, "..claude.json.omega-*"))
				if b, _ := os.ReadFile(state); len(temps) != 1 || string(b) != `{"userID": "u"}` {
					t.Fatalf("after the kill: temporary files %q, ~/.claude.json %q; want one and home as it was", temps, b)
				}
				// As a launch killed in its copy in leaves them.
				for _, n := range []string{"..claude.json.omega-1957142578", "..claude.json.omega-base.omega-3495971333"} {
					writeFile(t, filepath.Join(w.home, ".claude", n), `{"userID": "u"}`)
				}
				chownTree(t, w.home, u)
				r := w.run("--mode", mode, "--", claude)
				if r.code != 0 {
					t.Fatalf("next launch: exit %d, stderr %q", r.code, r.stderr)
				}
				left, _ := filepath.Glob(filepath.Join(w.home, "..claude.json.omega-*"))
				inClaude, _ := filepath.Glob(filepath.Join(w.home, ".claude", "..claude.json*"))
				if len(left)+len(inClaude) != 0 {
					t.Errorf("the next launch left the killed copy's temporary files %q %q", left, inClaude)
				}
				if !w.exists(other) {
					t.Error("the next launch removed ~/.claude.json.omega-notes, a file of the user's")
				}
				kept, _ := filepath.Glob(filepath.Join(w.home, ".claude", ".claude.json.omega-kept-*"))
				if b, _ := os.ReadFile(state); len(kept) != 1 || !strings.Contains(string(b), `"run"`) {
					t.Errorf("kept %q, ~/.claude.json %q; want the killed run's state kept aside and this run's home", kept, b)
				}
			})
		}
	}
}

// killInCopyBack runs omega-run with args under strace, each rename
// delayed, and kills omega-run (SIGKILL) once the copy back's temporary
// file is beside ~/.claude.json.
func killInCopyBack(t *testing.T, w *world, strace string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	wrapper := []string{"-f", "-qq", "-o", "/dev/null", "-e", "trace=renameat,renameat2", "-e", "inject=renameat,renameat2:delay_enter=300000", bin}
	c := w.cmdOf(ctx, strace, append(wrapper, args...)...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Wait()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if temps, _ := filepath.Glob(filepath.Join(w.home, "..claude.json.omega-*")); len(temps) == 0 {
			continue
		}
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(c.Process.Pid) + "/task/" + strconv.Itoa(c.Process.Pid) + "/children")
		for _, pid := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(pid)
			syscall.Kill(n, syscall.SIGKILL)
		}
		return
	}
	t.Fatal("no temporary file beside ~/.claude.json within 20 s")
}
