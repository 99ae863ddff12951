//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoXDGCache: with GOCACHE unset, go keeps its build cache in
// XDG_CACHE_HOME/go-build (os.UserCacheDir); the launch named
// ~/.cache/go-build whatever XDG_CACHE_HOME said, so a cache outside the
// writable set went unnamed (go vet failed on it) and one inside was
// warned about on every launch. Real go; a relative XDG_CACHE_HOME, which
// go refuses before it writes, names no cache.
func TestGoXDGCache(t *testing.T) {
	env := goToolEnv(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				proj := goProject(t, w)
				chownTree(t, w.extra, u)
				ws := filepath.Join(w.dataDir, "workspace")
				base := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--setenv", "GOPATH=" + ws + "/go"}
				vet := func(xdg string) result {
					return w.runEnv(env, append(base, "--setenv", "XDG_CACHE_HOME="+xdg, "--", "go", "vet", ".")...)
				}
				out := filepath.Join(w.outside, "xdg")
				r := vet(out)
				if line := stateLine(r.stderr); r.code == 0 || !strings.Contains(line, "go keeps state in "+out+"/go-build,") ||
					!strings.Contains(line, "--setenv GOCACHE=") || strings.Contains(line, ".cache/go-build,") {
					t.Errorf("XDG_CACHE_HOME outside: %+v; want go refused and the launch to name %s/go-build alone, and GOCACHE", r, out)
				}
				in := filepath.Join(proj, ".xdg")
				r = vet(in)
				if _, err := os.Stat(filepath.Join(in, "go-build")); r.code != 0 || stateLine(r.stderr) != "" || err != nil {
					t.Errorf("XDG_CACHE_HOME in the writable set: %+v, %v; want go to work, its cache there, unwarned", r, err)
				}
				r = vet("rel")
				if r.code == 0 || stateLine(r.stderr) != "" || !strings.Contains(r.stderr, "XDG_CACHE_HOME is relative") {
					t.Errorf("a relative XDG_CACHE_HOME: %+v; want go's own refusal, no state warning", r)
				}
			})
		}
	}
}

// TestPipXDGCache: pip keeps its cache in XDG_CACHE_HOME/pip
// (platformdirs; a relative one from its working directory), else
// PIP_CACHE_DIR's or --cache-dir's; the launch named ~/.cache/pip
// whatever these said. Real pip (Debian's), whose pip cache dir prints
// the place, or names it when it finds it unwritable and turns the cache
// off: the launch names that same place, and nothing when it is writable.
func TestPipXDGCache(t *testing.T) {
	const pip = "/usr/bin/pip3"
	if _, err := os.Stat(pip); err != nil {
		t.Fatalf("%s is needed for this test", pip)
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				chownTree(t, w.extra, u)
				out := filepath.Join(w.outside, "xdg")
				base := []string{"--mode", mode, "--allow-write", w.extra, "--workdir", w.extra,
					"--setenv", "PYTHONUSERBASE=" + w.extra + "/.local"}
				for _, c := range []struct {
					name, want string // want: the cache, outside
					args       []string
				}{
					{"XDG_CACHE_HOME outside", out + "/pip", []string{"--setenv", "XDG_CACHE_HOME=" + out}},
					{"XDG_CACHE_HOME in the writable set", "", []string{"--setenv", "XDG_CACHE_HOME=" + w.extra + "/xdg"}},
					{"a relative XDG_CACHE_HOME, from the working directory", "", []string{"--setenv", "XDG_CACHE_HOME=xdg"}},
					{"PIP_CACHE_DIR before XDG_CACHE_HOME", "", []string{"--setenv", "XDG_CACHE_HOME=" + out, "--setenv", "PIP_CACHE_DIR=" + w.extra + "/pc"}},
					{"--cache-dir before PIP_CACHE_DIR", out + "/pc", []string{"--setenv", "PIP_CACHE_DIR=" + w.extra + "/pc", "--", pip, "cache", "dir", "--cache-dir", out + "/pc"}},
				} {
					args := append(append([]string{}, base...), c.args...)
					if !slices.Contains(c.args, "--") {
						args = append(args, "--", pip, "cache", "dir")
					}
					r := w.run(args...)
					line := stateLine(r.stderr)
					said := strings.Contains(line, "pip keeps state in "+c.want+",") && strings.Contains(line, "--setenv PIP_CACHE_DIR=") &&
						!strings.Contains(line, "/.cache/pip,")
					if c.want == "" && (r.code != 0 || line != "" || !strings.HasPrefix(r.stdout, w.extra+"/")) ||
						c.want != "" && (!said || !strings.Contains(r.stdout+r.stderr, c.want)) {
						t.Errorf("%s: %+v; want pip's cache named where pip has it (%q outside, none in the writable set)", c.name, r, c.want)
					}
				}
			})
		}
	}
}

// TestPipCacheOptions: pip takes a long option shortened to a prefix no
// other option starts with (--no-cache, --cache-d=DIR), the last cache
// option on its command line over PIP_NO_CACHE_DIR, and passes over an
// empty no-cache-dir in its config. The launch named ~/.cache/pip for
// --no-cache and --cache-d=DIR, and nothing for --cache-dir DIR after
// PIP_NO_CACHE_DIR=1 or under an empty no-cache-dir, where pip used the
// cache. Real pip (Debian's) running pip cache dir, as TestPipXDGCache;
// PIP_NO_CACHE_DIR=false turns the cache off (pip's odd reading), said
// nothing before and still does not.
func TestPipCacheOptions(t *testing.T) {
	const pip = "/usr/bin/pip3"
	if _, err := os.Stat(pip); err != nil {
		t.Fatalf("%s is needed for this test", pip)
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				conf := filepath.Join(w.extra, "pip.conf")
				writeFile(t, conf, "[global]\nno-cache-dir =\n")
				chownTree(t, w.extra, u)
				out := filepath.Join(w.outside, "pc")
				base := []string{"--mode", mode, "--allow-write", w.extra, "--workdir", w.extra,
					"--setenv", "PYTHONUSERBASE=" + w.extra + "/.local"}
				for _, c := range []struct {
					name, want string // want: the cache, outside; "" for off
					args       []string
				}{
					{"--no-cache", "", []string{"--", pip, "cache", "dir", "--no-cache"}},
					{"--cache-d=DIR", out, []string{"--", pip, "cache", "dir", "--cache-d=" + out}},
					{"--cache-dir after PIP_NO_CACHE_DIR", out, []string{"--setenv", "PIP_NO_CACHE_DIR=1", "--", pip, "cache", "dir", "--cache-dir", out}},
					{"an empty no-cache-dir", filepath.Join(w.home, ".cache", "pip"), []string{"--setenv", "PIP_CONFIG_FILE=" + conf, "--", pip, "cache", "dir"}},
					{"PIP_NO_CACHE_DIR=false", "", []string{"--setenv", "PIP_NO_CACHE_DIR=false", "--", pip, "cache", "dir"}},
				} {
					r := w.run(append(append([]string{}, base...), c.args...)...)
					line := stateLine(r.stderr)
					said := strings.Contains(line, "pip keeps state in "+c.want+",") && strings.Contains(line, "--setenv PIP_CACHE_DIR=")
					if c.want == "" && (line != "" || !strings.Contains(r.stderr, "cache is disabled")) ||
						c.want != "" && (!said || !strings.Contains(r.stdout+r.stderr, c.want)) {
						t.Errorf("%s: %+v; want pip's cache named where pip has it (%q outside, none when off)", c.name, r, c.want)
					}
				}
			})
		}
	}
}
