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
			go func() { _, err := syncIn(home, claude); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), work) || !strings.Contains(err.Error(), "remove it") {
					t.Errorf("syncIn = %v, want an error naming %s to remove", err, work)
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
	big := make([]byte, maxState+1)
	for _, at := range []string{".claude.json", ".claude/.claude.json"} {
		t.Run(at, func(t *testing.T) {
			home := t.TempDir()
			os.Mkdir(filepath.Join(home, ".claude"), 0o700)
			if err := os.WriteFile(filepath.Join(home, at), big, 0o600); err != nil {
				t.Fatal(err)
			}
			syncs, err := syncIn(home, claude)
			if err != nil {
				t.Fatalf("syncIn: %v", err)
			}
			if len(syncs[0].copied) != len(big) {
				t.Errorf("copied %d bytes, want %d", len(syncs[0].copied), len(big))
			}
		})
	}
}

// TestStateSyncHomePlanted: with --allow-write ~ a confined run can leave
// a FIFO at ~/.claude.json itself; the next launch refuses it at once.
func TestStateSyncHomePlanted(t *testing.T) {
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, ".claude"), 0o700)
	if err := syscall.Mkfifo(filepath.Join(home, ".claude.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := syncIn(home, profiles.ProgramFor("claude")); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("syncIn = %v, want a refusal", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("syncIn hangs")
	}
}
