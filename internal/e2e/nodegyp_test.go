//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
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
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	if _, err := os.Stat("/usr/include/node/node_api.h"); err != nil {
		t.Skip("Node's headers are not installed in /usr/include/node")
	}
	for _, u := range users {
		for _, mode := range confinedModes {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				w.timeout = 3 * time.Minute
				proj := filepath.Join(w.extra, "addon")
				mustMkdir(t, proj)
				writeFile(t, filepath.Join(proj, "package.json"), `{"name":"omega-addon","version":"1.0.0","gypfile":true,"scripts":{"test":"echo tested"}}`+"\n")
				writeFile(t, filepath.Join(proj, "binding.gyp"), `{"targets":[{"target_name":"addon","sources":["addon.c"]}]}`+"\n")
				writeFile(t, filepath.Join(proj, "addon.c"), "#include <node_api.h>\nstatic napi_value init(napi_env env, napi_value exports) { return exports; }\nNAPI_MODULE(NODE_GYP_MODULE_NAME, init)\n")
				chownTree(t, w.extra, u)
				ws := filepath.Join(w.dataDir, "workspace")
				base := []string{"--mode", mode, "--allow-write", proj, "--workdir", proj, "--setenv", "npm_config_cache=" + ws + "/.npm"}
				install := []string{"--", "npm", "install", "--offline", "--no-audit", "--no-fund"}
				r := w.run(append(base, install...)...)
				line := stateLine(r.stderr)
				gyp := filepath.Join(w.home, ".cache", "node-gyp")
				if r.code == 0 || !strings.Contains(line, "npm keeps state in "+gyp) || !strings.Contains(line, "--setenv npm_config_devdir=") {
					t.Fatalf("%+v; want node-gyp refused and the launch to name %s and npm_config_devdir", r, gyp)
				}
				r = w.run(append(append(base, pastedFlags(line)...), install...)...)
				if _, err := os.Stat(filepath.Join(ws, ".cache", "node-gyp")); stateLine(r.stderr) != "" || err != nil {
					t.Errorf("with the hint's flags %q: %+v, %v; want node-gyp to write in the workspace, unwarned", pastedFlags(line), r, err)
				}
				r = w.run(append(append(base, "--setenv", "npm_config_nodedir=/usr"), install...)...)
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
