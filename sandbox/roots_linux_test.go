package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestCanonicalRoots(t *testing.T) {
	// Not under /tmp, which is a writable root itself.
	base, err := os.MkdirTemp("/var/tmp", "omega-roots-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir, _ := filepath.EvalSymlinks(base)
	home, dots, proj := filepath.Join(dir, "home"), filepath.Join(dir, "dotfiles", "claude"), filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(home, ".omega", "tmp"), dots, filepath.Join(proj, "real")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(dots, filepath.Join(home, ".claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(proj, "rel")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		allowWrite []string
		plant      bool   // replace <data-dir>/tmp with a symlink
		want       string // "" for success, else part of the error
	}{
		{"the user's own ~/.claude link", nil, false, ""},
		{"a root through a link inside another root", []string{proj, filepath.Join(proj, "rel")}, false, "symlink " + filepath.Join(proj, "rel")},
		{"~/.claude inside --allow-write ~", []string{home}, false, "symlink " + filepath.Join(home, ".claude")},
		{"a planted private /tmp", nil, true, "the sandbox's /tmp"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := filepath.Join(home, ".omega", "tmp")
			if c.plant {
				os.Rename(tmp, tmp+".old")
				os.Symlink(dir, tmp)
				t.Cleanup(func() { os.Remove(tmp); os.Rename(tmp+".old", tmp) })
			}
			pol, err := profiles.New(profiles.Policy{Mode: profiles.ModeSandbox, Home: home, AllowWrite: c.allowWrite})
			if err != nil {
				t.Fatal(err)
			}
			// As a launch does: before and after creating what is missing.
			known, err := checkPlanted(pol)
			var canon map[string]string
			if err == nil {
				canon, err = canonicalRoots(pol, known)
			}
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want == "":
				if got := canon[filepath.Join(home, ".claude")]; got != dots {
					t.Errorf("~/.claude -> %q, want %q", got, dots)
				}
			case err == nil || !strings.Contains(err.Error(), c.want):
				t.Errorf("err %v, want one containing %q", err, c.want)
			}
		})
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
		{"a root inside a root", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := pinDirs(c.readOnly, []string{"/w", "/tmp", "/w/inner"})
			if c.readOnly == nil {
				got = pinDirs(nil, []string{"/w", "/tmp", "/w/a/b/inner"})
				c.want = []string{"/w/a", "/w/a/b"}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
}
