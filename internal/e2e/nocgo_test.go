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

// TestWithoutCgo: a CGO_ENABLED=0 build runs, says seccomp is missing in
// check and --version, warns in sandbox mode, and refuses (125) when a
// profile is asked for explicitly or --fail-closed is set.
func TestWithoutCgo(t *testing.T) {
	requireRoot(t)
	nocgo := nocgoBinary(t)
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
