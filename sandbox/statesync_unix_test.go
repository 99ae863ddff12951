//go:build unix

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omega-run/omega-run/profiles"
)

// TestStateSyncPlanted: what an earlier confined run left as the working
// copy, with no home file to copy over it, must not hang or exhaust the
// next launch (os.ReadFile blocked on the FIFO and never ended on
// /dev/zero): it is refused with the path to remove.
func TestStateSyncPlanted(t *testing.T) {
	claude := profiles.ProgramFor("claude")
	cases := []struct {
		name  string
		plant func(work string) error
	}{
		{"fifo", func(work string) error { return syscall.Mkfifo(work, 0o600) }},
		{"symlink to /dev/zero", func(work string) error { return os.Symlink("/dev/zero", work) }},
		{"directory", func(work string) error { return os.Mkdir(work, 0o700) }},
		// The joining sessions' base digest, made a directory that the
		// launcher's rename cannot replace.
		{"base directory", func(work string) error { return os.MkdirAll(work+".omega-base/x", 0o700) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			work := filepath.Join(home, ".claude", ".claude.json")
			os.Mkdir(filepath.Join(home, ".claude"), 0o700)
			if err := c.plant(work); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := syncIn(home, nil, claude); done <- err }()
			select {
			case err := <-done:
				planted := work
				if strings.HasPrefix(c.name, "base") {
					planted = work + ".omega-base"
				}
				if err == nil || !strings.Contains(err.Error(), planted) || !strings.Contains(err.Error(), "remove it") {
					t.Errorf("syncIn = %v, want an error naming %s to remove", err, planted)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("syncIn hangs")
			}
		})
	}
}

// TestStateSyncLarge: Claude Code's state grows past readWorkCopy's cap
// (hundreds of MB); a large home file, or a large working copy left by an
// earlier run when there is no home file, is read as before, not refused.
func TestStateSyncLarge(t *testing.T) {
	claude := profiles.ProgramFor("claude")
	big := []byte(`{"s":"` + strings.Repeat("x", maxState) + `"}`)
	for _, at := range []string{".claude.json", ".claude/.claude.json"} {
		t.Run(at, func(t *testing.T) {
			home := t.TempDir()
			os.Mkdir(filepath.Join(home, ".claude"), 0o700)
			if err := os.WriteFile(filepath.Join(home, at), big, 0o600); err != nil {
				t.Fatal(err)
			}
			syncs, err := syncIn(home, nil, claude)
			if err != nil {
				t.Fatalf("syncIn: %v", err)
			}
			defer syncs[0].unlock()
			if fi, err := os.Stat(filepath.Join(home, ".claude", ".claude.json")); err != nil || fi.Size() != int64(len(big)) {
				t.Errorf("working copy: %v, %v; want %d bytes", fi, err, len(big))
			}
		})
	}
}

// TestStateSyncHomePlanted: with --allow-write ~ a confined run can leave
// a FIFO at ~/.claude.json itself; the next launch refuses it at once,
// not synced.
func TestStateSyncHomePlanted(t *testing.T) {
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, ".claude"), 0o700)
	if err := syscall.Mkfifo(filepath.Join(home, ".claude.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var syncs []*stateSync
	go func() {
		var err error
		syncs, err = syncIn(home, nil, profiles.ProgramFor("claude"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || len(syncs) != 0 {
			t.Errorf("syncIn = %d syncs, %v; want it not synced", len(syncs), err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("syncIn hangs")
	}
}

// TestStateSyncConcurrent: two launches of one tool share the working
// copy; the first one out leaves it to the other, which copies both
// programs' state back and removes it. A working copy no launch runs on
// and that differs from home is kept aside, not overwritten.
func TestStateSyncConcurrent(t *testing.T) {
	claude, home, homeFile, work := claudeHome(t, `{"s":"v0"}`)
	a, err := syncIn(home, nil, claude)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(work, []byte(`{"s":"a1"}`), 0o600) // A's program
	b, err := syncIn(home, nil, claude)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(work); string(got) != `{"s":"a1"}` {
		t.Fatalf("B's sync-in replaced the shared working copy: %q", got)
	}
	if w, err := a[0].syncOut(); err != nil || w != "" {
		t.Fatalf("A out: %q, %v", w, err)
	}
	if got, err := os.ReadFile(work); err != nil || string(got) != `{"s":"a1"}` {
		t.Fatalf("A took the working copy away from B: %q, %v", got, err)
	}
	os.WriteFile(work, []byte(`{"s":"a1b1"}`), 0o600) // B's program
	if w, err := b[0].syncOut(); err != nil || w != "" {
		t.Fatalf("B out: %q, %v", w, err)
	}
	if got, _ := os.ReadFile(homeFile); string(got) != `{"s":"a1b1"}` {
		t.Errorf("home = %q, want both programs' state", got)
	}
	if _, err := os.Stat(work); err == nil {
		t.Error("the last one out left the working copy")
	}
	// A run whose copy-back was refused left its state: kept aside.
	os.WriteFile(work, []byte(`{"s":"left"}`), 0o600)
	c, err := syncIn(home, nil, claude)
	if err != nil {
		t.Fatal(err)
	}
	defer c[0].syncOut()
	kept, _ := filepath.Glob(work + ".omega-kept-*")
	if len(kept) != 1 {
		t.Fatalf("kept %v", kept)
	}
	if got, _ := os.ReadFile(kept[0]); string(got) != `{"s":"left"}` {
		t.Errorf("kept %q, want the earlier state", got)
	}
}

// TestStateSyncJoinBaseline: what the first session's program wrote
// before a second joined goes home when the second, which changed
// nothing itself, is the last one out; a joiner that finds no working
// copy starts from home, not from nothing.
func TestStateSyncJoinBaseline(t *testing.T) {
	claude, home, homeFile, work := claudeHome(t, `{"s":"v0"}`)
	a, _ := syncIn(home, nil, claude)
	os.WriteFile(work, []byte(`{"s":"a1"}`), 0o600)
	b, err := syncIn(home, nil, claude)
	if err != nil {
		t.Fatal(err)
	}
	a[0].syncOut()
	b[0].syncOut()
	if got, _ := os.ReadFile(homeFile); string(got) != `{"s":"a1"}` {
		t.Errorf("home = %q, want the first program's a1", got)
	}
	a, _ = syncIn(home, nil, claude)
	os.Remove(work) // its program removed it
	b, err = syncIn(home, nil, claude)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(work); string(got) != `{"s":"a1"}` {
		t.Errorf("joiner's working copy = %q, want home's", got)
	}
	a[0].syncOut()
	b[0].syncOut()
	if got, _ := os.ReadFile(homeFile); string(got) != `{"s":"a1"}` {
		t.Errorf("home = %q after two untouched sessions", got)
	}
}

// claudeHome is a home with ~/.claude and a ~/.claude.json holding state.
func claudeHome(t *testing.T, state string) (claude *profiles.Program, home, homeFile, work string) {
	home = t.TempDir()
	homeFile, work = filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", ".claude.json")
	os.Mkdir(filepath.Join(home, ".claude"), 0o700)
	os.WriteFile(homeFile, []byte(state), 0o600)
	return profiles.ProgramFor("claude"), home, homeFile, work
}

// TestStateSyncBothLastOut: two sessions ending together, each holding
// its shared lock while the other tries for the exclusive one: the one
// that tries after the other let go copies back.
func TestStateSyncBothLastOut(t *testing.T) {
	claude, home, homeFile, work := claudeHome(t, `{"s":"v0"}`)
	a, _ := syncIn(home, nil, claude)
	b, _ := syncIn(home, nil, claude)
	os.WriteFile(work, []byte(`{"s":"ab"}`), 0o600)
	// A's first try fails on B's shared lock; B then ends: the retry in
	// lastOut is what lets the later one through.
	if lastOut(a[0].lock) {
		t.Fatal("A got the exclusive lock while B held its shared one")
	}
	if !lastOut(b[0].lock) {
		t.Fatal("B, after A let go, is not the last one out")
	}
	held := b[0].lock // exclusively now; syncOut would try again
	b[0].lock = nil
	b[0].syncOut()
	held.Close()
	a[0].done = true
	a[0].unlock()
	if got, _ := os.ReadFile(homeFile); string(got) != `{"s":"ab"}` {
		t.Errorf("home = %q, want the sessions' state", got)
	}
}

// TestStateSyncJoinKeepsUnconfinedChange: a session that joins after an
// unconfined run changed home takes the first session's baseline, so the
// last one out sees home changed and keeps the confined state instead of
// overwriting that change.
func TestStateSyncJoinKeepsUnconfinedChange(t *testing.T) {
	claude, home, homeFile, work := claudeHome(t, `{"s":"v0"}`)
	a, _ := syncIn(home, nil, claude)
	os.WriteFile(work, []byte(`{"s":"a1"}`), 0o600)
	os.WriteFile(homeFile, []byte(`{"s":"h1"}`), 0o600) // an unconfined run
	b, err := syncIn(home, nil, claude)
	if err != nil {
		t.Fatal(err)
	}
	a[0].syncOut()
	w, err := b[0].syncOut()
	if got, _ := os.ReadFile(homeFile); string(got) != `{"s":"h1"}` || w == "" || err != nil {
		t.Errorf("home = %q, warning %q, %v; want h1 kept and a warning", got, w, err)
	}
	if got, _ := os.ReadFile(work); string(got) != `{"s":"a1"}` {
		t.Errorf("working copy = %q, want the confined a1 kept", got)
	}
}

// TestStateSyncLargeBack: a home state larger than maxState (Claude
// Code's grows to hundreds of MB) goes back after the run changed it,
// and such a leftover of a run that could not copy it back is kept
// aside, not replaced: maxState bounds what the program may add, not the
// state it was given (before, every change was lost, with one warning).
func TestStateSyncLargeBack(t *testing.T) {
	claude := profiles.ProgramFor("claude")
	big := `{"s":"` + strings.Repeat("x", maxState) + `"`
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, ".claude"), 0o700)
	hf, work := filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", ".claude.json")
	if err := os.WriteFile(hf, []byte(big+`,"n":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	syncs, err := syncIn(home, nil, claude)
	if err != nil || len(syncs) != 1 {
		t.Fatalf("syncIn: %d, %v", len(syncs), err)
	}
	os.WriteFile(work, []byte(big+`,"n":2}`), 0o600)
	if w, err := syncs[0].syncOut(); w != "" || err != nil {
		t.Fatalf("syncOut: %q, %v; want it copied back", w, err)
	}
	if got, _ := os.ReadFile(hf); !strings.HasSuffix(string(got), `"n":2}`) {
		t.Errorf("home ends %q, want the program's state", got[max(0, len(got)-10):])
	}
	os.WriteFile(work, []byte(big+`,"n":3}`), 0o600) // a killed run's
	syncs, err = syncIn(home, nil, claude)
	if err != nil || len(syncs) != 1 {
		t.Fatalf("syncIn: %d, %v", len(syncs), err)
	}
	defer syncs[0].unlock()
	if kept, _ := filepath.Glob(work + ".omega-kept-*"); len(kept) != 1 {
		t.Errorf("kept %q, want the leftover moved aside", kept)
	}
}

// TestKeepLeftoverTwice: two leftovers kept within one second are both
// kept (the second was renamed onto the first).
func TestKeepLeftoverTwice(t *testing.T) {
	work := filepath.Join(t.TempDir(), ".claude.json")
	for _, s := range []string{`{"s":"one"}`, `{"s":"two"}`, `{"s":"three"}`} {
		os.WriteFile(work, []byte(s), 0o600)
		if err := keepLeftover(work, []byte(`{"s":"home"}`)); err != nil {
			t.Fatal(err)
		}
	}
	kept, _ := filepath.Glob(work + ".omega-kept-*")
	var all []string
	for _, k := range kept {
		b, _ := os.ReadFile(k)
		all = append(all, string(b))
	}
	for _, want := range []string{"one", "two", "three"} {
		if !strings.Contains(strings.Join(all, " "), want) {
			t.Errorf("leftover %q lost: kept %q", want, all)
		}
	}
}
