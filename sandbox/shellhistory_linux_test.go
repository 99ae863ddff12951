package sandbox

import (
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/profiles"
)

// TestRCSetsHistfileFIFO: an rc file that is a FIFO (planted where a
// writable ZDOTDIR is) is passed over, not opened to block the launch.
func TestRCSetsHistfileFIFO(t *testing.T) {
	home := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(home, ".zshrc"), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		rc, _ := rcSetsHistfile(profiles.Policy{Home: home}, home, []string{".zshrc"})
		done <- rc
	}()
	select {
	case rc := <-done:
		if rc != "" {
			t.Errorf("rcSetsHistfile = %q; want none", rc)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("rcSetsHistfile blocked on a FIFO")
	}
}
