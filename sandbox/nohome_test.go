package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestHomeNotMade: a launch whose home does not exist (a service's
// HOME=/nonexistent) makes neither the home nor anything in it: the
// default data dir is refused, one given elsewhere is used, and
// ~/.claude is left out.
func TestHomeNotMade(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "nonexistent")
	for _, c := range []struct {
		name, dataDir, wantErr string
	}{
		{"default data dir", "", "home " + home + " does not exist"},
		{"data dir elsewhere", filepath.Join(dir, "data"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			pol, err := profiles.New(profiles.Policy{Mode: profiles.ModeRX, Home: home, DataDir: c.dataDir})
			if err != nil {
				t.Fatal(err)
			}
			err = ensureDirs(pol, func() error { return nil })
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("ensureDirs: %v; want %q", err, c.wantErr)
			}
			if _, err := os.Lstat(home); err == nil {
				t.Fatalf("the home %s was made", home)
			}
		})
	}
}
