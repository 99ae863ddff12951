//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	nocgoOnce sync.Once
	nocgoErr  error
)

// nocgoBinary is a CGO_ENABLED=0 build of omega-run, built once.
func nocgoBinary(t *testing.T) string {
	t.Helper()
	nocgo := filepath.Join(root, "omega-run-nocgo")
	nocgoOnce.Do(func() {
		build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", nocgo, "../..")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			nocgoErr = fmt.Errorf("CGO_ENABLED=0 build: %v\n%s", err, out)
		}
	})
	if nocgoErr != nil {
		t.Fatal(nocgoErr)
	}
	return nocgo
}

// bothStages names the binaries that run each init stage: the one under
// test (the C stage, or the Go one with OMEGA_E2E_TAGS) and a build
// without cgo (the Go stage).
func bothStages(t *testing.T) map[string]string {
	t.Helper()
	return map[string]string{"default": bin, "no cgo": nocgoBinary(t)}
}

// TestWithoutCgo: a CGO_ENABLED=0 build runs, says in check and
// --version that it has the built-in seccomp profiles only (no
// libseccomp), confines the default launch without a seccomp warning,
// and refuses (125) a custom profile, which it cannot compile.
func TestWithoutCgo(t *testing.T) {
	requireRoot(t)
	nocgo := nocgoBinary(t)
	w := newWorld(t, nobody)
	if r := w.runProg(nocgo, "check"); !strings.Contains(r.stdout, "seccomp:         yes\n  libseccomp:    none (built without cgo)") {
		t.Errorf("check: exit %d\n%s", r.code, r.stdout)
	}
	if r := w.runProg(nocgo, "--version"); !strings.Contains(r.stdout, "built-in profiles only") {
		t.Errorf("--version: %q", r.stdout)
	}
	r := w.runProg(nocgo, "--", "/bin/sh", "-c", `echo ran; echo pwned > "$0"`, filepath.Join(w.outside, "sentinel"))
	if r.code == 125 || !strings.Contains(r.stdout, "ran") || strings.Contains(r.stderr, "seccomp") {
		t.Errorf("default run: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if sentinelChanged(w) {
		t.Error("Landlock and the mounts must confine writes")
	}
	prof := filepath.Join(w.extra, "custom.json")
	writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW"}`)
	r = w.runProg(nocgo, "--seccomp", prof, "--", "/bin/echo", "ran")
	if r.code != 125 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, "built without cgo and libseccomp") {
		t.Errorf("custom profile: exit %d stdout %q stderr %q, want 125 before anything runs", r.code, r.stdout, r.stderr)
	}
}

// TestBuiltinFiltersWithoutCgo: a CGO_ENABLED=0 build installs the
// built-in profiles' filters, compiled at build time (the same bytes as a
// cgo build's: sandbox's TestLaunchFiltersWithoutCgo). Before, it warned
// "no system call filter" and ran the program unfiltered: keyctl read
// the caller's session key in rx mode, TIOCSTI reached the kernel
// (ENOTTY on a non-terminal) and strict's unshare succeeded.
func TestBuiltinFiltersWithoutCgo(t *testing.T) {
	requireRoot(t)
	nocgo := nocgoBinary(t)
	keyctl := []string{probe, "read-session-key", "omega-e2e"}
	tiocsti := []string{probe, "tiocsti", "x"}
	unshare := []string{"/usr/bin/unshare", "-U", "/bin/true"}
	cases := []struct {
		name  string
		flags []string
		prog  []string
	}{
		{"rx/keyctl", []string{"--mode", "rx"}, keyctl},
		{"sandbox/keyctl", nil, keyctl},
		{"sandbox/net-none/keyctl", []string{"--net", "none"}, keyctl},
		{"rx/net-none/tiocsti", []string{"--mode", "rx", "--net", "none", "--seccomp", "default"}, tiocsti},
		{"sandbox/tiocsti", nil, tiocsti},
		{"sandbox/strict/unshare", []string{"--seccomp", "strict"}, unshare},
		{"rx/strict/net-none/unshare", []string{"--mode", "rx", "--seccomp", "strict", "--net", "none"}, unshare},
	}
	for _, u := range users {
		for _, c := range cases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				args := append([]string{"with-session-key", "omega-e2e", "KEYSECRET", nocgo}, c.flags...)
				r := w.runProg(probe, append(append(args, "--"), c.prog...)...)
				out := r.stdout + r.stderr
				if r.code == 0 || !strings.Contains(strings.ToLower(out), "operation not permitted") || strings.Contains(out, "KEYSECRET") {
					t.Errorf("%v: exit %d, stdout %q, stderr %q; want EPERM from the filter", c.prog, r.code, r.stdout, r.stderr)
				}
			})
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

// goUnblocks are the signals the Go runtime unblocks on every thread as it
// starts (its sigtable's _SigKill, _SigThrow and _SigUnblock ones, and
// SIGURG), before a build without cgo can read its mask.
const goUnblocks = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<4 | 1<<5 | 1<<6 | 1<<7 | 1<<10 | 1<<14 | 1<<15 |
	1<<16 | 1<<22 | 1<<26 | 1<<30 | 1<<31 | 1<<32 | 1<<33

// TestProgramSigmaskWithoutCgo: a CGO_ENABLED=0 build passes on what it
// can see of its caller's mask (README): the program's SigBlk is the
// caller's but for goUnblocks — SIGUSR2, SIGWINCH and 37 stay blocked,
// SIGINT and SIGTERM do not.
func TestProgramSigmaskWithoutCgo(t *testing.T) {
	requireRoot(t)
	nocgo := nocgoBinary(t)
	w := newWorld(t, nobody)
	blk := func(args ...string) uint64 {
		argv := []string{"with-signals", "-", callerBlocked}
		if args != nil {
			argv = append(append(argv, nocgo), append(args, "--")...)
		}
		r := w.runProg(probe, append(argv, "/bin/grep", "^SigBlk", "/proc/self/status")...)
		v, ok := sigField(r.stdout, "SigBlk")
		if r.code != 0 || !ok {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
		return v
	}
	want := blk() &^ goUnblocks
	if three := uint64(1<<11 | 1<<27 | 1<<36); want&three != three {
		t.Fatalf("the caller's exec: SigBlk %#x", want)
	}
	for _, mode := range []string{"rwx", "rx", "sandbox"} {
		if got := blk("--mode", mode); got != want {
			t.Errorf("%s: the program's SigBlk %#x, want %#x (the caller's but for what Go unblocks)", mode, got, want)
		}
	}
}
