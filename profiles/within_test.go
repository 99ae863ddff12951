package profiles

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		path, root string
		want       bool
	}{
		{"/a/b", "/a", true},
		{"/a", "/a", true},
		{"/a/", "/a", true},
		{"/a", "/a/", true},
		{"/ab", "/a", false}, // a sibling sharing the prefix
		{"/a", "/a/b", false},
		{"/x", "/", true},
		{"/", "/", true},
		{"/a/../b", "/a", false},
		{"/a/./b//c", "/a/b", true},
		{"/a/b/..", "/a", true},
		{"/..", "/", true},
		{"a/b", "a", true}, // relative: filepath.Rel decides
		{"a", "/a", false},
		{"/a", "a", false},
	} {
		if got := Within(c.path, c.root); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.path, c.root, got, c.want)
		}
		// The fast path agrees with filepath.Rel's reading.
		rel, err := filepath.Rel(c.root, c.path)
		if byRel := err == nil && rel != ".." && !strings.HasPrefix(rel, "../"); byRel != c.want {
			t.Errorf("filepath.Rel reads Within(%q, %q) as %v", c.path, c.root, byRel)
		}
	}
}
