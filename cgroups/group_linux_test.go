//go:build linux

package cgroups

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPidsLimitRoot: a bounded fork loop (100 × `sleep 5 &`) in a group with
// pids=16 gets at most 15 children next to itself; the rest fail with EAGAIN,
// and Delete kills the orphaned sleeps.
func TestPidsLimitRoot(t *testing.T) {
	l := Limits{Pids: 16}
	requireRoot(t, l)
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("needs perl (a shell stops at its first failed fork)")
	}
	g := newGroup(t, l)
	// Wait to be placed, fork 100 sleeps counting failures, report, then
	// wait for stdin to close so the parent can look at the group.
	cmd := command(t, perl, "-e", `
		$| = 1; <STDIN>;
		my ($ok, $failed) = (0, 0);
		for (1..100) {
			my $pid = fork;
			if (!defined $pid) { $failed++ }
			elsif ($pid == 0) { exec "sleep", "5"; exit 127 }
			else { $ok++ }
		}
		print "started=$ok failed=$failed\n";
		<STDIN>;`)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	release, stdin := startIn(t, g, cmd)
	release()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the fork loop's report: %v", err)
	}
	var started, failed int
	if _, err := fmt.Sscanf(line, "started=%d failed=%d", &started, &failed); err != nil {
		t.Fatalf("report %q: %v", line, err)
	}
	pids, err := g.Pids()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("started=%d failed=%d, %d tasks in the group", started, failed, len(pids))
	if started+failed != 100 || started < 1 || started > 15 || len(pids) > 16 {
		t.Errorf("started=%d failed=%d tasks=%d; want at most 15 started (16 tasks with perl), the rest failed",
			started, failed, len(pids))
	}
	// The host is fine: this process can still start processes.
	if out, err := exec.Command("sh", "-c", "echo ok").Output(); err != nil || string(out) != "ok\n" {
		t.Errorf("starting a process outside the group: %q, %v", out, err)
	}
	// perl exits, its sleeps stay behind in the group: Delete kills them.
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("fork loop: %v", err)
	}
	if pids, _ := g.Pids(); len(pids) != started {
		t.Errorf("after perl exited the group holds %d tasks, want its %d sleeps", len(pids), started)
	}
	start := time.Now()
	deleteAndCheck(t, g)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Delete took %v: it should kill the sleeps, not wait for them", d)
	}
}

// TestMemoryOOMRoot: a program allocating 200M in a 64M group is killed by
// the OOM killer (SIGKILL) and OOMKilled says so, before and after Delete.
func TestMemoryOOMRoot(t *testing.T) {
	l := Limits{Memory: 64 << 20}
	requireRoot(t, l)
	g := newGroup(t, l)
	if oom, err := g.OOMKilled(); err != nil || oom {
		t.Fatalf("OOMKilled before anything ran = %v, %v; want false, nil", oom, err)
	}
	cmd := helperCmd(t, "memhog")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	release, _ := startIn(t, g, cmd)
	release()
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("memory hog: err = %v, want killed (output %q)", err, out.String())
	}
	if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("memory hog ended with %v, want SIGKILL (output %q)", err, out.String())
	}
	oom, err := g.OOMKilled()
	if err != nil || !oom {
		t.Errorf("OOMKilled = %v, %v; want true", oom, err)
	}
	deleteAndCheck(t, g)
	if oom, err := g.OOMKilled(); err != nil || !oom {
		t.Errorf("OOMKilled after Delete = %v, %v; want the saved true", oom, err)
	}
}

// TestMemoryNoOOMRoot: a small program in a 64M group exits normally and
// OOMKilled stays false.
func TestMemoryNoOOMRoot(t *testing.T) {
	l := Limits{Memory: 64 << 20}
	requireRoot(t, l)
	g := newGroup(t, l)
	cmd := command(t, "sh", "-c", "read _; head -c 8388608 /dev/zero | wc -c")
	var out strings.Builder
	cmd.Stdout = &out
	release, _ := startIn(t, g, cmd)
	release()
	if err := cmd.Wait(); err != nil || out.String() != "8388608\n" {
		t.Fatalf("small program: %v, output %q", err, out.String())
	}
	if oom, err := g.OOMKilled(); err != nil || oom {
		t.Errorf("OOMKilled = %v, %v; want false", oom, err)
	}
}

// TestCPUQuotaRoot: with cpus=0.5 a busy loop gets about half a CPU.
func TestCPUQuotaRoot(t *testing.T) {
	l := Limits{CPUs: 0.5}
	requireRoot(t, l)
	g := newGroup(t, l)
	switch g.Version() {
	case 1:
		dir := g.Dirs()[0]
		quota := strings.TrimSpace(readFile(t, filepath.Join(dir, "cpu.cfs_quota_us")))
		period := strings.TrimSpace(readFile(t, filepath.Join(dir, "cpu.cfs_period_us")))
		if quota != "50000" || period != "100000" {
			t.Errorf("cfs quota/period = %s/%s, want 50000/100000", quota, period)
		}
	case 2:
		if got := readFile(t, filepath.Join(g.Dirs()[0], "cpu.max")); got != "50000 100000\n" {
			t.Errorf("cpu.max = %q, want \"50000 100000\"", got)
		}
	}
	cmd := helperCmd(t, "spin")
	release, _ := startIn(t, g, cmd)
	release()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	used := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	t.Logf("1s of spinning used %v of CPU", used)
	if used > 750*time.Millisecond {
		t.Errorf("1s of spinning used %v of CPU, want about 0.5s", used)
	}
}

// TestDeleteKillsRoot: Delete kills what is still running in the group.
func TestDeleteKillsRoot(t *testing.T) {
	l := Limits{Pids: 8, Memory: 32 << 20, CPUs: 1}
	requireRoot(t, l)
	g := newGroup(t, l)
	if v := g.Version(); (v == 1 && len(g.Dirs()) != 3) || (v == 2 && len(g.Dirs()) != 1) {
		t.Errorf("cgroup v%d with dirs %v", v, g.Dirs())
	}
	for _, d := range g.Dirs() {
		if !strings.HasPrefix(filepath.Base(d), fmt.Sprintf("omega-run-%d-", os.Getpid())) {
			t.Errorf("group dir %s is not named omega-run-<pid>-<rand>", d)
		}
	}
	cmd := command(t, "sh", "-c", "read _; sleep 60")
	release, _ := startIn(t, g, cmd)
	release()
	deleteAndCheck(t, g)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("sleep after Delete: %v, want killed", err)
	}
	if err := g.Delete(); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if err := g.Add(os.Getpid()); err == nil {
		t.Error("Add after Delete succeeded")
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New("", Limits{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("New without limits: %v, want ErrInvalid", err)
	}
	if _, err := New("", Limits{Memory: 1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("New with 1 byte of memory: %v, want ErrInvalid", err)
	}
	for _, name := range []string{".", "..", "a/b", "../x"} {
		if _, err := New(name, Limits{Pids: 1}); !errors.Is(err, ErrInvalid) {
			t.Errorf("New(%q): %v, want ErrInvalid", name, err)
		}
	}
}

// TestNameTakenRoot: New never adopts an existing group.
func TestNameTakenRoot(t *testing.T) {
	l := Limits{Pids: 4}
	requireRoot(t, l)
	g := newGroup(t, l)
	if g2, err := New(g.Name(), l); err == nil {
		_ = g2.Delete()
		t.Fatalf("New(%q) reused an existing group", g.Name())
	} else if !errors.Is(err, os.ErrExist) {
		t.Errorf("New(%q): %v, want ErrExist", g.Name(), err)
	}
}

// TestUnprivilegedRoot: for a user without a writable cgroup, New fails with
// ErrUnavailable and says what to do.
func TestUnprivilegedRoot(t *testing.T) {
	requireRoot(t, Limits{Pids: 4, Memory: 64 << 20})
	// The test binary's own directory is private to root: run a copy.
	dir := t.TempDir()
	bin := filepath.Join(dir, "cgroups.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := command(t, bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=new")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper as nobody: %v: %s", err, out)
	}
	t.Logf("as nobody: %s", out)
	if !strings.HasSuffix(string(out), " true\n") || !strings.Contains(string(out), "permission denied") ||
		!strings.Contains(string(out), "root") {
		t.Errorf("New as nobody: %s; want ErrUnavailable saying permission denied and what to do", out)
	}
}
