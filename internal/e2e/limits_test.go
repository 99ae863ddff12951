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

// forkBomb tries to start 300 sleepers; dash gives up at the first
// refused fork. Bounded either way.
const forkBomb = `i=0; while [ $i -lt 300 ]; do (sleep 3) & i=$((i+1)); done; echo all-started`

// omegaCgroups lists the omega-run cgroups present on the host.
func omegaCgroups() []string {
	var out []string
	for _, pattern := range []string{"/sys/fs/cgroup/*/omega-run-*", "/sys/fs/cgroup/*/*/omega-run-*", "/sys/fs/cgroup/omega-run-*"} {
		m, _ := filepath.Glob(pattern)
		out = append(out, m...)
	}
	return out
}

// leftoverCgroups lists the omega-run cgroups that were not there before
// and are still there after a moment: under go test ./..., the cgroups
// package's own tests make and remove groups of that name meanwhile.
func leftoverCgroups(before []string) []string {
	deadline := time.Now().Add(2 * time.Second)
	for {
		var left []string
		for _, g := range omegaCgroups() {
			if !slices.Contains(before, g) {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestForkBombContained: --pids (root, a cgroup) and --rlimit nproc
// (nobody; the kernel exempts real root from nproc) stop a fork bomb, the
// host can still fork, and no cgroup is left behind.
func TestForkBombContained(t *testing.T) {
	cases := []struct {
		name string
		u    user
		args []string
	}{
		{"pids", rootUser, []string{"--pids", "64"}},
		{"rlimit-nproc", nobody, []string{"--rlimit", "nproc=64"}},
	}
	for _, c := range cases {
		for _, mode := range confinedModes {
			t.Run(c.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, c.u)
				before := omegaCgroups()
				start := time.Now()
				r := w.run(append(append([]string{"--mode", mode}, c.args...), "--", "/bin/sh", "-c", forkBomb)...)
				if strings.Contains(r.stdout, "all-started") || r.code == 0 {
					t.Errorf("fork bomb not contained: exit %d, stdout %q", r.code, r.stdout)
				}
				if !strings.Contains(r.stderr, "Cannot fork") {
					t.Errorf("want the shell's fork failure, stderr %q", r.stderr)
				}
				if err := exec.Command("true").Run(); err != nil {
					t.Errorf("host cannot fork after the bomb: %v", err)
				}
				if left := leftoverCgroups(before); len(left) > 0 {
					t.Errorf("cgroups left behind: %v", left)
				}
				t.Logf("contained in %v", time.Since(start).Round(time.Millisecond))
			})
		}
	}
}

// TestMemoryLimit: a memory hog is OOM-killed inside its cgroup, omega-run
// exits 137 and says why, and the cgroup is gone afterwards.
func TestMemoryLimit(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			before := omegaCgroups()
			r := w.run("--mode", mode, "--memory", "64M", "--", "/usr/bin/python3", "-c", "a = bytearray(300 << 20); print('survived')")
			if r.code != 137 || strings.Contains(r.stdout, "survived") {
				t.Errorf("exit %d stdout %q, want 137 and no survivor", r.code, r.stdout)
			}
			// The limit as --memory was given: it read memory=67108864.
			if !strings.Contains(r.stderr, "OOM killer") || !strings.Contains(r.stderr, "(memory=64M)") {
				t.Errorf("no log line about the OOM kill at 64M: %q", r.stderr)
			}
			if left := leftoverCgroups(before); len(left) > 0 {
				t.Errorf("cgroups left behind: %v", left)
			}
			r = w.run("--mode", mode, "--memory", "64M", "--", "/usr/bin/python3", "-c", "a = bytearray(8 << 20); print('fine')")
			if r.code != 0 || strings.Contains(r.stderr, "OOM") {
				t.Errorf("a small program under the limit: exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}

// TestCgroupRefusals: clear errors where a cgroup cannot be had.
func TestCgroupRefusals(t *testing.T) {
	if r := newWorld(t, rootUser).run("--mode", "rwx", "--pids", "10", "--", "true"); r.code != 125 {
		t.Errorf("rwx --pids: exit %d, want 125", r.code)
	}
	if r := newWorld(t, nobody).run("--pids", "20", "--", "true"); r.code != 125 || !strings.Contains(r.stderr, "cgroup") {
		t.Errorf("nobody --pids: exit %d %q, want 125 naming the cgroup problem", r.code, r.stderr)
	}
	if r := newWorld(t, rootUser).run("--memory", "lots", "--", "true"); r.code != 125 {
		t.Errorf("bad --memory: exit %d, want 125", r.code)
	}
	_ = os.Getpid
}

// TestNprocRootWarning: the kernel never applies RLIMIT_NPROC to the
// host's uid 0, so --rlimit nproc for a program running as root is no
// limit. The launch says so (and refuses under --fail-closed); where the
// program runs as another user the limit holds and nothing is said.
func TestNprocRootWarning(t *testing.T) {
	const sign = "--rlimit nproc: the kernel does not apply it"
	script := `i=0; while [ $i -lt 8 ]; do (sleep 1) & i=$((i+1)); done; echo started-8`
	for _, c := range []struct {
		name string
		u    user
		args []string
		root bool
	}{
		{"root sandbox", rootUser, []string{"--mode", "sandbox"}, true},
		{"root rx", rootUser, []string{"--mode", "rx"}, true},
		{"root rwx", rootUser, []string{"--mode", "rwx"}, true},
		{"root --user nobody", rootUser, []string{"--mode", "sandbox", "--user", "nobody"}, false},
		{"nobody sandbox", nobody, []string{"--mode", "sandbox"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, c.u)
			args := append(c.args, "--rlimit", "nproc=4")
			r := w.run(append(args, "--", "/bin/sh", "-c", script)...)
			if strings.Contains(r.stderr, sign) != c.root || strings.Contains(r.stdout, "started-8") != c.root {
				t.Fatalf("%+v; want the warning and 8 processes started: %v", r, c.root)
			}
			if !c.root || c.args[1] == "rwx" { // rwx refuses --fail-closed
				return
			}
			r = w.run(append(args, "--fail-closed", "--", "/bin/sh", "-c", script)...)
			if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, sign) {
				t.Fatalf("--fail-closed: %+v; want 125 before the program runs", r)
			}
		})
	}
	// Root of a user namespace that nobody made is nobody to the kernel:
	// the limit holds, and nothing is said.
	t.Run("nobody's unshare -Ur", func(t *testing.T) {
		w := newWorld(t, nobody)
		r := w.runProg("unshare", "-Ur", bin, "--rlimit", "nproc=4", "--", "/bin/sh", "-c", script)
		if strings.Contains(r.stderr, sign) || strings.Contains(r.stdout, "started-8") {
			t.Fatalf("%+v; want the limit held and no warning", r)
		}
	})
}
