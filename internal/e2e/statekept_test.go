//go:build linux

package e2e

import (
	"bytes"
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

// TestContestedSessionLeavesSharedCopy: a Claude Code session that could
// not take the state lock within its wait (a confined program holds it;
// before TestStateLockWaitsForLaunch's fix, another launch copying a state
// of hundreds of MB in or back) shares the working copy unlocked. Ending while another
// session's program still runs on that copy, it removed the copy (or
// copied it home) as if it were the last one out: the other Claude found
// no state, started afresh, and its copy back replaced the whole of
// ~/.claude.json with that fresh state. It now copies back only when it
// can take the lock alone at its end.
func TestContestedSessionLeavesSharedCopy(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := filepath.Join(w.home, ".claude")
			// a: marks its start, waits for go-a, then adds its key to
			// the state as Claude does (afresh where there is none).
			// b: waits for a's start and ends without a change.
			claude, state := fakeClaude(t, w, `d=$CLAUDE_CONFIG_DIR; f=$d/.claude.json
case $1 in
a) touch "$d/a-started"; while [ ! -e "$d/go-a" ]; do sleep 0.05; done
   if [ -f "$f" ]; then sed 's/}$/, "a": 1}/' "$f" > "$f.tmp" && mv "$f.tmp" "$f"; else echo '{"a": 1}' > "$f"; fi ;;
b) while [ ! -e "$d/a-started" ]; do sleep 0.05; done ;;
esac`)
			mustMkdir(t, dir)
			chownTree(t, w.home, u)
			release, held := holdLockConfined(t, w, dir)
			ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
			defer cancel()
			var bErr lockedBuffer
			b := w.cmd(ctx, "--", claude, "b")
			b.Stderr = &bErr
			if err := b.Start(); err != nil {
				t.Fatal(err)
			}
			waitForOutput(t, &bErr, "stayed taken") // b has given up waiting
			var aErr bytes.Buffer
			a := w.cmd(ctx, "--", claude, "a")
			a.Stderr = &aErr
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			release()
			<-held
			bDone := b.Wait()
			writeFile(t, filepath.Join(dir, "go-a"), "")
			if err := a.Wait(); err != nil || bDone != nil {
				t.Fatalf("a: %v %q; b: %v %q", err, aErr.String(), bDone, bErr.String())
			}
			got, _ := os.ReadFile(state)
			if want := `{"userID": "u", "a": 1}`; strings.TrimSpace(string(got)) != want {
				t.Errorf("~/.claude.json = %q, want %q (b's stderr %q)", got, want, bErr.String())
			}
			if w.exists(filepath.Join(dir, ".claude.json")) {
				t.Error("the working copy was left behind")
			}
		})
	}
}

// holdLock holds an exclusive flock on dir, as a launch copying its state
// does, for d; the channel closes once it lets go.
func holdLock(t *testing.T, dir string, d time.Duration) <-chan struct{} {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	time.AfterFunc(d, func() { f.Close(); close(done) })
	return done
}

// TestContestedSessionLastOutCopiesBack: a session that shared the
// working copy unlocked and ends with nothing else holding the lock is the
// last one out: its state goes home.
func TestContestedSessionLastOutCopiesBack(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := filepath.Join(w.home, ".claude")
			// The program ends once the holder has: go.
			claude, state := fakeClaude(t, w, `d=$CLAUDE_CONFIG_DIR; f=$d/.claude.json
while [ ! -e "$d/go" ]; do sleep 0.05; done
sed 's/}$/, "b": 1}/' "$f" > "$f.tmp" && mv "$f.tmp" "$f"`)
			mustMkdir(t, dir)
			chownTree(t, w.home, u)
			release, held := holdLockConfined(t, w, dir)
			ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
			defer cancel()
			var stderr lockedBuffer
			c := w.cmd(ctx, "--", claude)
			c.Stderr = &stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			waitForOutput(t, &stderr, "stayed taken")
			release()
			<-held
			writeFile(t, filepath.Join(dir, "go"), "")
			if err := c.Wait(); err != nil {
				t.Fatalf("%v, stderr %q", err, stderr.String())
			}
			if got, _ := os.ReadFile(state); strings.TrimSpace(string(got)) != `{"userID": "u", "b": 1}` {
				t.Errorf("~/.claude.json = %q, want the program's state", got)
			}
			if w.exists(filepath.Join(dir, ".claude.json")) {
				t.Error("the working copy was left behind")
			}
		})
	}
}

// holdLockConfined holds an exclusive flock on dir from a program confined
// by another launch (one that syncs no state) until release is called;
// held closes once that launch has ended.
func holdLockConfined(t *testing.T, w *world, dir string) (release func(), held <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	taken, let := filepath.Join(dir, "held"), filepath.Join(dir, "release")
	c := w.cmd(ctx, "--", "flock", "-x", dir, "sh", "-c",
		fmt.Sprintf("touch %s; while [ ! -e %s ]; do sleep 0.05; done", taken, let))
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); cancel(); close(done) }()
	release = func() { writeFile(t, let, "") }
	t.Cleanup(func() { release(); <-done })
	for end := time.Now().Add(w.timeout); !w.exists(taken); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the confined program never took the lock")
		}
	}
	return release, done
}

// waitForOutput waits until out (a command's stderr, being written) has
// want in it.
func waitForOutput(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); !strings.Contains(out.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no %q in %q", want, out.String())
		}
	}
}

// TestStateLockWaitsForLaunch: a Claude Code session waits for as long as
// another launch holds the state lock (copying a state of hundreds of MB
// in or back under load took longer than the 5 s wait; an unconfined
// process stands in for it here), and then syncs as usual: it shared the
// working copy unlocked, warning of a program left running, and one that
// started while the other copied back ran on a copy removed from under it.
// The wait is said, once, naming the holder: it has no end, and a launch
// stopped (Ctrl-Z) or stuck holding the lock kept the next one silent.
func TestStateLockWaitsForLaunch(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			dir := filepath.Join(w.home, ".claude")
			claude, state := fakeClaude(t, w, `f=$CLAUDE_CONFIG_DIR/.claude.json
sed 's/}$/, "b": 1}/' "$f" > "$f.tmp" && mv "$f.tmp" "$f"`)
			mustMkdir(t, dir)
			chownTree(t, w.home, u)
			start := time.Now()
			held := holdLock(t, dir, 7*time.Second)
			r := w.run("--", claude)
			select {
			case <-held:
			default:
				t.Errorf("the launch ended after %v, with the lock still held", time.Since(start))
			}
			// The wait, which has no end, is said once: a holder
			// stopped or stuck left the launch silent for good.
			want := fmt.Sprintf("omega-run: warning: state sync: waiting for process %d, which holds the lock on %s", os.Getpid(), dir)
			if r.code != 0 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 0 and only the wait said (%q)", r.code, r.stderr, want)
			}
			if got, _ := os.ReadFile(state); strings.TrimSpace(string(got)) != `{"userID": "u", "b": 1}` {
				t.Errorf("~/.claude.json = %q, want the program's state", got)
			}
		})
	}
}
