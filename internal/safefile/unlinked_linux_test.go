package safefile

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestUnlinkedPasses: a file with no link left (a deleted config handed
// over as /proc/self/fd/N) has no path anyone could swap: it is read,
// though its path does not resolve (TestPathGoneWhileRead: a linked one
// is refused).
func TestUnlinkedPasses(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(p, []byte("mode = \"rx\"\n"), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.Remove(p)
	if _, err := Read("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), 64, Named); err != nil {
		t.Errorf("deleted: %v, want read", err)
	}
}
