//go:build linux

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledStatesAllKept: each Claude Code session killed with its state
// in the working copy leaves it for the next launch to move aside, and
// none is lost when that happens more than once in a second (a harness
// killing short sessions): the kept copies were named to the second, and
// the later one replaced the earlier, its state gone unsaid.
func TestKilledStatesAllKept(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			claude, _ := fakeClaude(t, w, `printf '{"userID": "u", "run": "%s"}' "$1" > "$CLAUDE_CONFIG_DIR/.claude.json"; [ "$1" = last ] || exec sleep 30`)
			chownTree(t, w.home, u)
			work := filepath.Join(w.home, ".claude", ".claude.json")
			// Three kills close together: from a second's start, so
			// that two of the keeps fall in one second.
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
			const runs = 3
			for i := range runs {
				killWithState(t, w, claude, work, fmt.Sprintf("run%d", i))
			}
			if r := w.run("--", claude, "last"); r.code != 0 { // keeps the last one aside
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			kept, _ := filepath.Glob(work + ".omega-kept-*")
			var all string
			for _, k := range kept {
				b, _ := os.ReadFile(k)
				all += string(b) + "\n"
			}
			// A killed run copies nothing back: each one's state is
			// kept aside by the launch after it.
			for i := range runs {
				if want := fmt.Sprintf(`"run%d"`, i); !strings.Contains(all, want) {
					t.Errorf("the state of killed run %d is lost: kept %d file(s) %q", i, len(kept), all)
				}
			}
		})
	}
}

// killWithState starts a session of claude (given run as its argument)
// and kills omega-run with SIGKILL once the program has written its
// state into the working copy.
func killWithState(t *testing.T, w *world, claude, work, run string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	c := w.cmd(ctx, "--", claude, run)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Wait()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, _ := os.ReadFile(work); strings.Contains(string(b), `"`+run+`"`) {
			break
		}
		if time.Now().After(end) {
			c.Process.Kill()
			t.Fatalf("%s: the program never wrote its state", run)
		}
	}
	c.Process.Signal(syscall.SIGKILL)
}
