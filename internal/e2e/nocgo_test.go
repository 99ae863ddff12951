//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWithoutCgo: a CGO_ENABLED=0 build runs, says seccomp is missing in
// check and --version, warns in sandbox mode, and refuses (125) when a
// profile is asked for explicitly or --fail-closed is set.
func TestWithoutCgo(t *testing.T) {
	requireRoot(t)
	nocgo := filepath.Join(root, "omega-run-nocgo")
	build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", nocgo, "../..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 build: %v\n%s", err, out)
	}
	w := newWorld(t, nobody)
	if r := w.runProg(nocgo, "check"); r.code != 1 || !strings.Contains(r.stdout, "seccomp:         no: not compiled in") {
		t.Errorf("check: exit %d\n%s", r.code, r.stdout)
	}
	if r := w.runProg(nocgo, "--version"); !strings.Contains(r.stdout, "not compiled in") {
		t.Errorf("--version: %q", r.stdout)
	}
	r := w.runProg(nocgo, "--", "/bin/sh", "-c", `echo ran; echo pwned > "$0"`, filepath.Join(w.outside, "sentinel"))
	if r.code == 125 || !strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "seccomp is not compiled into this omega-run") {
		t.Errorf("default run: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if sentinelChanged(w) {
		t.Error("without seccomp, Landlock and the mounts must still confine writes")
	}
	for _, args := range [][]string{{"--seccomp", "default"}, {"--fail-closed"}} {
		r := w.runProg(nocgo, append(args, "--", "/bin/echo", "ran")...)
		if r.code != 125 || strings.Contains(r.stdout, "ran") {
			t.Errorf("%v: exit %d stdout %q, want 125 before anything runs", args, r.code, r.stdout)
		}
	}
}
