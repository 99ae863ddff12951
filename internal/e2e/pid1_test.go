//go:build linux

package e2e

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPID1StaysUndumpable: after --user, the program runs as the same uid
// as PID 1, which holds the connect broker's listener: PID 1 must stay
// non-dumpable, or the program could read its memory (ptrace,
// /proc/1/mem, /proc/1/environ). Changing uids makes a process dumpable
// again when fs.suid_dumpable is 1, so the test sets it for its run.
func TestPID1StaysUndumpable(t *testing.T) {
	w := newWorld(t, rootUser)
	const sysctl = "/proc/sys/fs/suid_dumpable"
	old, err := os.ReadFile(sysctl)
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(sysctl, []byte("1"), 0o644); err != nil {
		t.Skipf("cannot set fs.suid_dumpable: %v", err)
	}
	t.Cleanup(func() { os.WriteFile(sysctl, old, 0o644) })
	r := w.run("--user", "nobody", "--", "/bin/sh", "-c",
		`id -u; if cat /proc/1/environ >/dev/null 2>&1; then echo PID 1 readable; else echo PID 1 refused; fi`)
	if r.stdout != "65534\nPID 1 refused\n" {
		t.Errorf("got %q (stderr %q), want the program as nobody and PID 1's environ refused", r.stdout, r.stderr)
	}
}

// TestLimitsBindOnlyTheProgram: --rlimit limits the program, not PID 1
// (whose connect broker needs fds and whose time is not the program's),
// and a limit PID 1 could not live with does not stop the start: nproc=1
// for a user who already has PID 1 running.
func TestLimitsBindOnlyTheProgram(t *testing.T) {
	w := newWorld(t, nobody)
	openFiles := func(args ...string) (pid1, self string) {
		t.Helper()
		r := w.run(append(args, "--", "/bin/sh", "-c", `grep "open files" /proc/1/limits; grep "open files" /proc/self/limits`)...)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if r.code != 0 || len(lines) != 2 {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
		return strings.Join(strings.Fields(lines[0]), " "), strings.Join(strings.Fields(lines[1]), " ")
	}
	plain, _ := openFiles()
	pid1, self := openFiles("--rlimit", "nofile=64")
	if pid1 != plain {
		t.Errorf("PID 1 with --rlimit nofile=64: %q, want it as without: %q", pid1, plain)
	}
	if self != "Max open files 64 64 files" {
		t.Errorf("the program with --rlimit nofile=64: %q", self)
	}
	// Shell builtins only: the program cannot fork. Its limit is 1 and
	// PID 1's tasks (1 to 2 in C, 8 to 10 or so in Go), which count too.
	r := w.run("--rlimit", "nproc=1", "--", "/bin/sh", "-c", `echo started
		while read -r l; do case $l in *processes*) echo "$l";; esac; done </proc/self/limits`)
	f := strings.Fields(strings.TrimPrefix(r.stdout, "started\n"))
	n := 0
	if len(f) == 5 && f[2] == f[3] {
		n, _ = strconv.Atoi(f[2])
	}
	if !strings.HasPrefix(r.stdout, "started\n") || n < 2 || n > 17 || r.code != 0 {
		t.Errorf("--rlimit nproc=1: exit %d, stdout %q, stderr %q; want the program started, limited to 1 and PID 1's tasks", r.code, r.stdout, r.stderr)
	}
}

// TestPID1Named: the program sees PID 1 named omega-run-init (ps,
// /proc/1/comm) in both init stages, started early or re-executed
// (--workdir keeps the C one from starting early); the Go one's, and
// the C one's re-executed, were "exe", after the /proc/self/exe they
// run through.
func TestPID1Named(t *testing.T) {
	bins := bothStages(t)
	for name, b := range bins {
		for _, u := range users {
			w := newWorld(t, u)
			for _, args := range [][]string{nil, {"--workdir", w.home}} {
				r := w.runProg(b, append(args, "--", "/bin/cat", "/proc/1/comm")...)
				if r.code != 0 || r.stdout != "omega-run-init\n" {
					t.Errorf("%s/%s %v: exit %d, stdout %q, stderr %q", name, u.name, args, r.code, r.stdout, r.stderr)
				}
			}
		}
	}
}
