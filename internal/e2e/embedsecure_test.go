//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// embedder is a program that embeds the sandbox package as README's
// "Embedding (Go)" has it: sandbox.Init first, then one command of MODE
// (its arguments), with its status. INIT names the init stage to run
// with the command's spec: the caller's choice, as anyone may exec any
// program with any fd 3.
const embedder = `package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/omega-run/omega-run/sandbox"
)

func main() {
	sandbox.Init()
	cmd, err := sandbox.Command(os.Args[1], sandbox.Mode(os.Getenv("MODE")), os.Getenv("DATA_DIR"), os.Args[2:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	if p := os.Getenv("INIT"); p != "" {
		cmd.Path = p
	}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := sandbox.Start(cmd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	var ee *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
}
`

// buildEmbedder builds embedder in dir against this module (offline, the
// module cache only) with the suite's tags, so both init stages.
func buildEmbedder(t *testing.T, dir string) string {
	t.Helper()
	module, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(module, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "main.go"), embedder)
	writeFile(t, filepath.Join(dir, "go.sum"), string(sum))
	writeFile(t, filepath.Join(dir, "go.mod"), "module embedder\n\ngo 1.26\n\nrequire github.com/omega-run/omega-run v0.0.0\n\n"+
		"replace github.com/omega-run/omega-run => "+module+"\n")
	exe := filepath.Join(dir, "embedder")
	build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs "+os.Getenv("OMEGA_E2E_TAGS"), "-o", exe, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the embedder: %v\n%s", err, out)
	}
	return exe
}

// TestElevatedEmbedderRefused is TestElevatedCopyRefused for a program
// that embeds the sandbox package: main is the embedder's, so only the
// init stage (nsexec.Init, through sandbox.Init) stands between a setuid
// or setgid copy and every user's programs run with its ids. nobody runs
// a command through the copy as its init stage, with a spec of nobody's
// (rx: no user namespace to shed the ids), and the copy's own sandboxed
// command: neither may run anything. The copies are removed at once.
// Root running the copy is not elevated and runs.
func TestElevatedEmbedderRefused(t *testing.T) {
	requireRoot(t)
	dir := usersDir(t, "embedder-") // all test users may run what is in it
	plain := buildEmbedder(t, dir)
	for _, c := range []struct {
		name string
		mode os.FileMode
	}{{"setuid", os.ModeSetuid}, {"setgid", os.ModeSetgid}} {
		t.Run(c.name, func(t *testing.T) {
			exe := filepath.Join(dir, c.name)
			if err := copyFile(plain, exe); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(exe) // no elevated copy outlives its test
			if err := os.Chown(exe, 0, 0); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(exe, 0o755|c.mode); err != nil {
				t.Fatal(err)
			}
			w := newWorld(t, nobody)
			r := w.runWith([]string{"MODE=rx", "DATA_DIR=" + w.dataDir, "INIT=" + exe}, nil, plain, "id")
			if lines := launchLines(r.stderr); r.code != 125 || r.stdout != "" || len(lines) != 1 ||
				!strings.Contains(lines[0], "privileges its caller does not have") {
				t.Errorf("its init stage with nobody's spec: status %d, stdout %q, stderr %q; want 125, nothing run, one line",
					r.code, r.stdout, r.stderr)
			}
			// A setuid copy takes itself for root, which wants a data dir
			// of root's; a setgid one cannot re-execute itself (it is
			// not dumpable) and fails before its init stage.
			data := w.dataDir
			if c.mode == os.ModeSetuid {
				data = filepath.Join(dir, "root-data")
				mustMkdir(t, data)
			}
			r = w.runWith([]string{"MODE=sandbox", "DATA_DIR=" + data}, nil, exe, "id")
			refused := strings.Contains(r.stderr, "privileges its caller does not have")
			if r.code == 0 || r.stdout != "" || (c.mode == os.ModeSetuid && (r.code != 125 || !refused)) {
				t.Errorf("its own command as nobody: status %d, stdout %q, stderr %q; want nothing run (setuid: 125, refused)",
					r.code, r.stdout, r.stderr)
			}
			rw := newWorld(t, rootUser)
			r = rw.runWith([]string{"MODE=rx", "DATA_DIR=" + rw.dataDir, "INIT=" + exe}, nil, plain, "id", "-u")
			if r.code != 0 || strings.TrimSpace(r.stdout) != "0" {
				t.Errorf("root: status %d, stdout %q, stderr %q; want it to run", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// launchLines are stderr's lines but logrus's (the embedder's launching
// line at Info).
func launchLines(stderr string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(l, "time=") {
			lines = append(lines, l)
		}
	}
	return lines
}
