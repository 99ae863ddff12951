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

// TestCheckSeccompRefused: where the kernel refuses seccomp(2) (no
// CONFIG_SECCOMP_FILTER, a filter around omega-run), every confined
// launch ends with 125, saying what to do; check said "seccomp: yes" and
// exit 0 there, and the launch only "seccomp: install: function not
// implemented".
func TestCheckSeccompRefused(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			noSeccomp := []string{probe, "seccomp-exec", "317=38"} // seccomp(2) on x86_64: ENOSYS
			if r := w.under(noSeccomp, "--", "/bin/true"); r.code != 125 || !strings.Contains(r.stderr, "--seccomp none runs without") {
				t.Errorf("a launch without seccomp(2): exit %d, stderr %q; want 125 and what to do", r.code, r.stderr)
			}
			r := w.under(noSeccomp, "check")
			if r.code != 1 || !strings.Contains(r.stdout, "seccomp:         no: the kernel refuses seccomp(2)") {
				t.Errorf("check: exit %d\n%s", r.code, r.stdout)
			}
		})
	}
}
