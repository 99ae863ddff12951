//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNodeGypStateSaid: npm install of a native addon runs node-gyp,
// which fetches Node's headers into ~/.cache/node-gyp; confined, it
// failed there and the launch said nothing (npm's cache moved, as its
// hint says). Real npm and node-gyp, offline, on a one-file addon: the
// launch names ~/.cache/node-gyp and npm_config_devdir; with the hint
// pasted node-gyp writes in the workspace, unwarned (its download then
// fails, offline); given Node's headers (npm_config_nodedir) it writes
// nothing there, builds, and nothing is said; npm test is not told.
func TestNodeGypStateSaid(t *testing.T) {
	needAddonTools(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, proj, base := addonWorld(t, u, mode)
				ws := filepath.Join(w.dataDir, "workspace")
				r := w.run(append(base, npmInstall...)...)
				line := stateLine(r.stderr)
				gyp := filepath.Join(w.home, ".cache", "node-gyp")
				if r.code == 0 || !strings.Contains(line, "npm keeps state in "+gyp) || !strings.Contains(line, "--setenv npm_config_devdir=") {
					t.Fatalf("%+v; want node-gyp refused and the launch to name %s and npm_config_devdir", r, gyp)
				}
				r = w.run(append(append(base, pastedFlags(line)...), npmInstall...)...)
				if _, err := os.Stat(filepath.Join(ws, ".cache", "node-gyp")); stateLine(r.stderr) != "" || err != nil {
					t.Errorf("with the hint's flags %q: %+v, %v; want node-gyp to write in the workspace, unwarned", pastedFlags(line), r, err)
				}
				r = w.run(append(append(base, "--setenv", "npm_config_nodedir=/usr"), npmInstall...)...)
				if _, err := os.Stat(filepath.Join(proj, "build", "Release", "addon.node")); r.code != 0 || stateLine(r.stderr) != "" || err != nil {
					t.Errorf("given Node's headers: %+v, %v; want the addon built, unwarned", r, err)
				}
				if r = w.run(append(base, "--", "npm", "test")...); r.code != 0 || stateLine(r.stderr) != "" || !strings.Contains(r.stdout, "tested") {
					t.Errorf("npm test: %+v; want it run, unwarned", r)
				}
			})
		}
	}
}

// npmInstall is the offline npm install of addonWorld's addon.
var npmInstall = []string{"--", "npm", "install", "--offline", "--no-audit", "--no-fund"}

// needAddonTools skips a test that builds a native addon where npm or
// Node's headers are missing.
func needAddonTools(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	if _, err := os.Stat("/usr/include/node/node_api.h"); err != nil {
		t.Skip("Node's headers are not installed in /usr/include/node")
	}
}

// addonWorld is a world with a one-file native addon (its package.json's
// test script echoes "tested") in the writable directory proj, and the
// flags that launch npm there in mode with npm's cache in the workspace.
func addonWorld(t *testing.T, u user, mode string) (*world, string, []string) {
	t.Helper()
	w := newWorld(t, u)
	w.timeout = 3 * time.Minute
	proj := filepath.Join(w.extra, "addon")
	mustMkdir(t, proj)
	writeFile(t, filepath.Join(proj, "package.json"), `{"name":"omega-addon","version":"1.0.0","gypfile":true,"scripts":{"test":"echo tested"}}`+"\n")
	writeFile(t, filepath.Join(proj, "binding.gyp"), `{"targets":[{"target_name":"addon","sources":["addon.c"]}]}`+"\n")
	writeFile(t, filepath.Join(proj, "addon.c"), "#include <node_api.h>\nstatic napi_value init(napi_env env, napi_value exports) { return exports; }\nNAPI_MODULE(NODE_GYP_MODULE_NAME, init)\n")
	chownTree(t, w.extra, u)
	ws := filepath.Join(w.dataDir, "workspace")
	return w, proj, []string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--setenv", "npm_config_cache=" + ws + "/.npm"}
}

// TestNodeGypXDGCache: node-gyp keeps Node's headers in
// XDG_CACHE_HOME/node-gyp when XDG_CACHE_HOME is set (env-paths), not in
// ~/.cache/node-gyp; the launch named ~/.cache/node-gyp whatever
// XDG_CACHE_HOME said, so one outside the writable set was not named and
// one inside it was warned about. Real npm and node-gyp, offline, on
// addonWorld's addon; where node-gyp wrote is checked from outside.
func TestNodeGypXDGCache(t *testing.T) {
	needAddonTools(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, proj, base := addonWorld(t, u, mode)
				out := filepath.Join(w.outside, "xdg")
				r := w.run(append(append(base, "--setenv", "XDG_CACHE_HOME="+out), npmInstall...)...)
				line := stateLine(r.stderr)
				if r.code == 0 || !strings.Contains(line, "npm keeps state in "+out+"/node-gyp,") ||
					!strings.Contains(line, "--setenv npm_config_devdir=") || strings.Contains(line, "/.cache/node-gyp,") {
					t.Errorf("XDG_CACHE_HOME outside: %+v; want node-gyp refused and the launch to name %s/node-gyp alone, and npm_config_devdir", r, out)
				}
				in := filepath.Join(proj, ".xdg")
				r = w.run(append(append(base, "--setenv", "XDG_CACHE_HOME="+in), npmInstall...)...)
				if _, err := os.Stat(filepath.Join(in, "node-gyp")); stateLine(r.stderr) != "" || err != nil {
					t.Errorf("XDG_CACHE_HOME in the writable set: %+v, %v; want node-gyp to write there, unwarned", r, err)
				}
			})
		}
	}
}

// TestNodeGypNpmOptions: npm's command comes after its options, some of
// which take a value (--loglevel warn, -C DIR, as npm's parser reads
// them); npm install after two of them was taken for no build, and the
// launch did not name ~/.cache/node-gyp, where node-gyp failed. Real
// npm and node-gyp, offline, on addonWorld's addon, run from its parent
// with the addon given as npm's prefix; npm test so spelled is not told.
func TestNodeGypNpmOptions(t *testing.T) {
	needAddonTools(t)
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w, proj, base := addonWorld(t, u, mode)
				base[slices.Index(base, "--workdir")+1] = w.extra
				gyp := filepath.Join(w.home, ".cache", "node-gyp")
				for _, opts := range [][]string{{"--loglevel", "warn", "--prefix", proj}, {"-C", proj, "--color", "always", "--install-strategy", "hoisted"}} {
					args := append(append(append(base, "--", "npm"), opts...), npmInstall[2:]...)
					r := w.run(args...)
					if line := stateLine(r.stderr); r.code == 0 || !strings.Contains(line, "npm keeps state in "+gyp+",") {
						t.Errorf("npm %q install: %+v; want node-gyp refused and the launch to name %s", opts, r, gyp)
					}
				}
				r := w.run(append(base, "--", "npm", "--loglevel", "warn", "--prefix", proj, "test")...)
				if r.code != 0 || stateLine(r.stderr) != "" || !strings.Contains(r.stdout, "tested") {
					t.Errorf("npm --loglevel warn --prefix DIR test: %+v; want it run, unwarned", r)
				}
			})
		}
	}
}

// TestNodeGypNpmWords: npm runs a command named by an alias, a prefix of
// just one command or alias, or in camelCase (npm reb, npm installTest:
// npm's deref), and node-gyp takes its devdir and nodedir from npm's
// --devdir=DIR and --nodedir=DIR, and first from the package config's
// variables (npm_package_config_node_gyp_devdir, node-gyp's documented
// way since npm 11). The launch named nothing for npm reb and npm
// installTest, where node-gyp failed in ~/.cache/node-gyp; named
// npm_config_devdir's place, or nothing, where node-gyp wrote elsewhere;
// and named ~/.cache/node-gyp where node-gyp wrote in the writable set,
// or was given Node's headers. Real npm and node-gyp, offline, on
// addonWorld's addon. What is read does not depend on the user or the
// mode: each case runs once, the users and modes taken in turn, the
// cases side by side (each in all four, one after the other: 24 npm
// runs, 200 s on this loaded machine; 12 s so).
func TestNodeGypNpmWords(t *testing.T) {
	needAddonTools(t)
	opts := strings.Join(npmInstall[3:], " ") // after install
	for i, c := range []struct {
		name string
		args string // omega-run's, then npm's; {ws}, {out} and {in} put in
		want string // the place named ({gyp}: ~/.cache/node-gyp); "" for none, the addon built or node-gyp's devdir in
	}{
		{"npm-reb", "-- npm reb", "{gyp}"},
		{"npm-installTest", "-- npm installTest " + opts, "{gyp}"},
		{"npm-devdir", "--setenv npm_config_devdir={ws}/gyp -- npm --devdir={out} install " + opts, "{out}"},
		{"package-config-devdir", "--setenv npm_config_devdir={ws}/gyp --setenv npm_package_config_node_gyp_devdir={out} -- npm install " + opts, "{out}"},
		{"package-config-devdir-writable", "--setenv npm_package_config_node_gyp_devdir={in} -- npm install " + opts, ""},
		{"npm-nodedir", "-- npm install --nodedir=/usr " + opts, ""},
	} {
		k := -1 // the user and mode, 0 to 3
		for _, u := range users {
			for _, mode := range confinedModes {
				if k++; k != i%(len(users)*len(confinedModes)) {
					continue
				}
				t.Run(c.name+"/"+u.name+"/"+mode, func(t *testing.T) {
					t.Parallel()
					w, proj, base := addonWorld(t, u, mode)
					in := filepath.Join(proj, ".gyp")
					put := strings.NewReplacer("{ws}", filepath.Join(w.dataDir, "workspace"), "{out}", filepath.Join(w.outside, "gyp"),
						"{in}", in, "{gyp}", filepath.Join(w.home, ".cache", "node-gyp"))
					r := w.run(append(base, strings.Fields(put.Replace(c.args))...)...)
					line, want := stateLine(r.stderr), put.Replace(c.want)
					switch {
					case want != "":
						if r.code == 0 || !strings.Contains(line, "npm keeps state in "+want+",") {
							t.Errorf("%+v; want node-gyp refused and the launch to name %s", r, want)
						}
					case strings.Contains(c.name, "nodedir"):
						if _, err := os.Stat(filepath.Join(proj, "build", "Release", "addon.node")); r.code != 0 || line != "" || err != nil {
							t.Errorf("%+v, %v; want the addon built, unwarned", r, err)
						}
					default:
						if _, err := os.Stat(in); line != "" || err != nil {
							t.Errorf("%+v, %v; want node-gyp to write in %s, unwarned", r, err, in)
						}
					}
				})
			}
		}
	}
}
