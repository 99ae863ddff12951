//go:build linux

package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// everyday is the work a coding agent does in its workspace; it prints
// only results, so its output is comparable across runs and homes.
const everyday = `set -e
cd "$WS"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t GIT_CONFIG_NOSYSTEM=1
mkdir repo && cd repo && git init -q && echo hi > a && git add a && git commit -qm one && echo more >> a && git commit -qam two
echo "git: $(git log --format=%s | tr '\n' ' ')"
cd "$WS" && mkdir gomod && cd gomod
printf 'module example.com/hello\n\ngo 1.22\n' > go.mod
printf 'package main\nimport "fmt"\nfunc main() { fmt.Println("go: built and ran") }\n' > main.go
GOCACHE="$GOCACHE" GOPATH="$WS/gopath" GOFLAGS=-buildvcs=false GOTOOLCHAIN=local go build -o hello . && ./hello
cd "$WS" && /usr/bin/python3 -m venv venv && ./venv/bin/python -c 'import sys; print("python: venv", sys.prefix.endswith("venv"))'
mkdir -p pkg && cd pkg && printf '{"name":"tiny","version":"1.0.0","main":"i.js"}' > package.json && echo 'module.exports = 42' > i.js
npm pack --silent --cache "$WS/npmcache" >/dev/null && cd "$WS" && mkdir app && cd app && echo '{"name":"app","version":"1.0.0"}' > package.json
npm install --silent --no-audit --no-fund --offline --cache "$WS/npmcache" ../pkg/tiny-1.0.0.tgz >/dev/null
node -e 'console.log("node: tiny =", require("tiny"))'
cd "$WS" && printf 'all:\n\t@echo make: ran\n' > Makefile && make
tar -cf t.tar Makefile && mkdir x && tar -xf t.tar -C x && cmp Makefile x/Makefile && echo "tar: round trip"
if command -v sqlite3 >/dev/null; then sqlite3 db 'create table t(x); insert into t values (7); select "sqlite: " || x from t;'; fi
`

// TestEverydayTools: the same work gives the same output unconfined and
// confined, as root and as nobody. All six runs are parallel subtests, so
// the test keeps -parallel slots busy instead of waiting per user.
func TestEverydayTools(t *testing.T) {
	requireRoot(t)
	for _, tool := range []string{"git", "go", "node", "npm", "make", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed for this test", tool)
		}
	}
	caches := warmGoCaches(t)
	for _, u := range users {
		gocache := caches[u.name]
		t.Run(u.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			outputs := map[string]string{}
			// Cleanup runs once the parallel mode subtests have ended.
			t.Cleanup(func() {
				for _, mode := range confinedModes {
					if outputs[mode] != outputs["rwx"] {
						t.Errorf("%s/%s output differs from unconfined:\n%s\nvs\n%s", u.name, mode, outputs[mode], outputs["rwx"])
					}
				}
				if !strings.Contains(outputs["rwx"], "tar: round trip") {
					t.Errorf("%s: the script did not get to the end:\n%s", u.name, outputs["rwx"])
				}
			})
			for _, mode := range []string{"rwx", "sandbox", "rx"} {
				t.Run(mode, func(t *testing.T) {
					t.Parallel()
					w := newWorld(t, u)
					w.timeout = 5 * time.Minute
					ws := w.dataDir + "/workspace"
					r := w.runEnv([]string{"WS=" + ws, "GOCACHE=" + gocache, "PATH=/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin"},
						"--mode", mode, "--allow-write", gocache, "--", "/bin/sh", "-c", everyday)
					if r.code != 0 {
						t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
					}
					mu.Lock()
					outputs[mode] = r.stdout
					mu.Unlock()
				})
			}
		})
	}
}

// warmGoCaches gives each user a Go build cache of their own, shared by
// the modes (writable through --allow-write), holding what the script's
// build needs: parallel cold builds of the standard library on two CPUs
// took minutes under load. The cache is built once, unconfined, and
// copied for the other users: a cold build costs ~15 s of CPU, a copy
// (34 MB) a fraction of one.
func warmGoCaches(t *testing.T) map[string]string {
	t.Helper()
	goTool, _ := exec.LookPath("go")
	caches := map[string]string{}
	for i, u := range users {
		gocache := filepath.Join(root, "gocache-"+u.name)
		caches[u.name] = gocache
		if i == 0 {
			mustMkdir(t, gocache)
			chownTree(t, gocache, u)
			warm := newWorld(t, u)
			warm.timeout = 5 * time.Minute
			if r := warm.runWith([]string{"GOCACHE=" + gocache, "GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false"}, nil, goTool, "build", "fmt"); r.code != 0 {
				t.Fatalf("warming the Go build cache: exit %d, stderr %s", r.code, r.stderr)
			}
		} else if out, err := exec.Command("cp", "-a", caches[users[0].name], gocache).CombinedOutput(); err != nil {
			t.Fatalf("copying the Go build cache: %v: %s", err, out)
		}
		chownTree(t, gocache, u)
	}
	return caches
}
