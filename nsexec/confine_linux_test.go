package nsexec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/landlock"
)

// TestHeldRoots: each writable root is named by an fd opened without
// following symlinks, the device directories keep their names, a root
// swapped for a symlink is refused, and a missing root gets no rule (its
// path kept, go-landlock opened it again, following a symlink made there
// in between; the C stage skips it).
func TestHeldRoots(t *testing.T) {
	dir := t.TempDir()
	real, link, missing := filepath.Join(dir, "real"), filepath.Join(dir, "link"), filepath.Join(dir, "missing")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		writable []string
		want     []string // "fd": a /proc/self/fd/N of the root
		err      string
	}{
		{"root", []string{real}, []string{"fd"}, ""},
		{"device dir", []string{"/dev/shm"}, []string{"/dev/shm"}, ""},
		{"missing", []string{missing, real}, []string{"fd"}, ""},
		{"symlink", []string{link}, nil, "a symlink appeared on its path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, release, err := heldRoots(landlock.Rules{Writable: tt.writable})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v; want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			if len(got.Writable) != len(tt.want) {
				t.Fatalf("writable %q; want %q", got.Writable, tt.want)
			}
			for i, w := range tt.want {
				p := got.Writable[i]
				if w == "fd" {
					if target, err := os.Readlink(p); err != nil || target != real {
						t.Errorf("writable[%d] = %q (-> %q, %v); want an fd of %s", i, p, target, err, real)
					}
				} else if p != w {
					t.Errorf("writable[%d] = %q; want %q", i, p, w)
				}
			}
		})
	}
}
