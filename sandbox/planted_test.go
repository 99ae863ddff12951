package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestCheckPlantedEveryOS: a writable root reached through a symlink in
// the data dir (a confined program's: ~/.omega/workspace/proj -> ~) is
// refused on every OS. On macOS checkPlanted was a stub, and the Seatbelt
// profile followed the link: the next launch's --allow-write
// ~/.omega/workspace/proj was the whole home. This test is untagged so
// that macOS runs it too.
func TestCheckPlantedEveryOS(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, ".omega")
	if err := os.MkdirAll(filepath.Join(data, "workspace"), 0o700); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(data, "workspace", "proj")
	if err := os.Symlink(home, proj); err != nil {
		t.Fatal(err)
	}
	pol, err := profiles.New(profiles.Policy{Mode: ModeRX, Home: home, DataDir: data, AllowWrite: []string{proj}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = checkPlanted(pol)
	if err == nil || !strings.Contains(err.Error(), "leads through the symlink "+proj) {
		t.Errorf("checkPlanted = %v, want the planted link refused", err)
	}
}
