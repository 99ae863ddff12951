package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStateSyncFirstUseHomeLinked: on first use (no ~/.claude.json yet)
// with $HOME named through a symlink (/home -> /var/home on Fedora
// Atomic, NFS automounts), the state is synced as with a home named by
// its real path: the link on the way is the home's, not the file's, and
// must not count as "missing behind a link" (review 2).
func TestStateSyncFirstUseHomeLinked(t *testing.T) {
	home, via := linkHome(t)
	for _, named := range []string{home, via} {
		os.Remove(filepath.Join(home, ".claude.json"))
		syncs := syncWith(t, named, nil)
		if len(syncs) != 1 {
			t.Errorf("home %s: %d syncs, want 1 (a missing ~/.claude.json syncs on first use)", named, len(syncs))
		}
		for _, s := range syncs {
			s.unlock()
		}
	}
}

// TestStateSyncPlainFileAlwaysSynced: a plain ~/.claude.json (no link
// anywhere) is synced whatever it holds: the target checks are there
// for links an earlier launch re-pointed, and a truncated file (a crash
// mid-write) left unsynced keeps Claude Code from saving anything
// (review 2).
func TestStateSyncPlainFileAlwaysSynced(t *testing.T) {
	home, _ := linkHome(t)
	for _, content := range []string{`{"a":`, "not json", "[]"} {
		writeState(t, filepath.Join(home, ".claude.json"), content)
		syncs := syncWith(t, home, nil)
		if len(syncs) != 1 {
			t.Errorf("~/.claude.json holding %q: %d syncs, want 1", content, len(syncs))
		}
		for _, s := range syncs {
			s.unlock()
		}
	}
}
