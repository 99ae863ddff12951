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
		{"too large", func(work string) error { return os.WriteFile(work, make([]byte, maxState+1), 0o600) }},
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
