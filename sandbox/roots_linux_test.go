package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestResolveRoot(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	data, outside := filepath.Join(dir, "data"), filepath.Join(dir, "outside")
	for _, d := range []string{data, outside, filepath.Join(outside, "real")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(data, "tmp"):       outside,                        // planted in the data dir
		filepath.Join(dir, "mine"):       filepath.Join(outside, "real"), // the user's own link
		filepath.Join(dir, "rel"):        "outside/real",                 // relative
		filepath.Join(outside, "nested"): filepath.Join(data, "tmp"),     // leads through a planted one
	}
	for l, target := range links {
		if err := os.Symlink(target, l); err != nil {
			t.Fatal(err)
		}
	}
	writable := []string{data}
	for _, c := range []struct {
		path, want, err string
	}{
		{data, data, ""},
		{filepath.Join(dir, "mine"), filepath.Join(outside, "real"), ""},
		{filepath.Join(dir, "rel"), filepath.Join(outside, "real"), ""},
		{filepath.Join(data, "tmp"), "", "inside the writable " + data},
		{filepath.Join(outside, "nested"), "", "symlink " + filepath.Join(data, "tmp")},
		{filepath.Join(dir, "missing"), "", "no such file"},
	} {
		got, err := resolveRoot(c.path, "root", writable)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want one containing %q", c.path, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.path, got, err, c.want)
		}
	}
}

func TestPinDirs(t *testing.T) {
	for _, c := range []struct {
		name           string
		readOnly, want []string
	}{
		{"in the root", []string{"/w/config.toml"}, nil},
		{"git", []string{"/w/p/.git/config", "/w/p/.git/hooks"}, []string{"/w/p", "/w/p/.git"}},
		{"deepest root wins", []string{"/w/inner/a/.envrc"}, []string{"/w/inner/a"}},
		{"host /tmp is not a root", []string{"/tmp/x/.envrc"}, nil},
		{"outside every root", []string{"/etc/x"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := pinDirs(c.readOnly, []string{"/w", "/tmp", "/w/inner"})
			if !slices.Equal(got, c.want) {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
}
