package profiles

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzNew: New never panics; a policy it accepts has only absolute,
// clean paths, a Writable set of exactly the data dir, /tmp, ~/.claude
// and the --allow-write roots, no writable "/" outside rwx, and goes
// through New again unchanged.
func FuzzNew(f *testing.F) {
	f.Add("sandbox", "none", "/home/u", "", "/srv/a\n/srv/a/../b", uint8(0xff))
	f.Add("rx", "host", "/home/u", "/home/u/.omega", "/\n/tmp", uint8(1))
	f.Add("rwx", "", "/", "/..", "/x/./y/", uint8(3))
	f.Add("sandbox", "host", "/home/u", "/tmp/d", "relative\n/ok", uint8(2))
	f.Fuzz(func(t *testing.T, mode, net, home, dataDir, paths string, lists uint8) {
		in := Policy{Mode: Mode(mode), Net: Network(net), Home: home, DataDir: dataDir, Seccomp: "", FailClosed: lists&16 != 0}
		l := strings.Split(paths, "\n")
		for i, dst := range []*[]string{&in.AllowWrite, &in.Hide, &in.ReadOnly, &in.AllowSocket} {
			if lists&(1<<i) != 0 {
				*dst = l
			}
		}
		p, err := New(in)
		if err != nil {
			return
		}
		all := append([]string{p.DataDir, p.Home}, p.Writable...)
		for _, list := range [][]string{p.AllowWrite, p.Hide, p.ReadOnly, p.AllowSocket} {
			all = append(all, list...)
		}
		for _, path := range all {
			if !filepath.IsAbs(path) || filepath.Clean(path) != path {
				t.Fatalf("path %q is not absolute and clean: %+v", path, p)
			}
		}
		want := []string{p.DataDir, "/tmp", p.ClaudeDir()}
		for _, w := range append(want, p.AllowWrite...) {
			if !slices.Contains(p.Writable, w) {
				t.Fatalf("Writable %q lacks %q", p.Writable, w)
			}
		}
		for i, w := range p.Writable {
			if !slices.Contains(append(want, p.AllowWrite...), w) || slices.Contains(p.Writable[:i], w) {
				t.Fatalf("Writable %q: %q is extra or repeated", p.Writable, w)
			}
			if w == "/" && p.Mode != ModeRWX {
				t.Fatalf("%s mode with / writable: %+v", p.Mode, p)
			}
		}
		if again, err := New(p); err != nil || !reflect.DeepEqual(again, p) {
			t.Fatalf("New(New(x)) = %+v, %v; want %+v", again, err, p)
		}
	})
}

// FuzzWithin: Within is the lexical "path is root or below it" on clean
// paths, so that ".." cannot climb out of a root and "/ab" is not in "/a".
func FuzzWithin(f *testing.F) {
	for _, c := range [][2]string{{"/a/b", "/a"}, {"/ab", "/a"}, {"/a/../b", "/a"}, {"/a/..b", "/a"}, {"/", "/"}, {"/x", "/"}, {"a", "/a"}, {"/a", "a"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, path, root string) {
		if !filepath.IsAbs(path) || !filepath.IsAbs(root) {
			return // every Policy path is absolute
		}
		p, r := filepath.Clean(path), filepath.Clean(root)
		want := p == r || r == "/" || strings.HasPrefix(p, r+"/")
		if got := Within(path, root); got != want {
			t.Fatalf("Within(%q, %q) = %v, want %v", path, root, got, want)
		}
	})
}
