//go:build linux

package cgroups

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the programs the tests confine: with helperEnv
// set it waits for one line on stdin (the parent's "you are placed"), then
// runs the named helper instead of the tests.
const helperEnv = "OMEGA_CGROUPS_TEST_HELPER"

func TestMain(m *testing.M) {
	if h, ok := os.LookupEnv(helperEnv); ok {
		os.Exit(runHelper(h))
	}
	os.Exit(m.Run())
}

func runHelper(h string) int {
	if h == "new" {
		// Report what New says to this (unprivileged) process.
		g, err := New("", Limits{Pids: 4, Memory: 64 << 20})
		if err == nil {
			_ = g.Delete()
		}
		fmt.Println(err, errors.Is(err, ErrUnavailable))
		return 0
	}
	var b [1]byte
	if _, err := os.Stdin.Read(b[:]); err != nil {
		fmt.Fprintln(os.Stderr, "helper: waiting for the go-ahead:", err)
		return 3
	}
	switch h {
	case "memhog":
		// 200 MiB, every page touched so that it is really charged.
		buf := make([]byte, 200<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1
		}
		fmt.Println("allocated", len(buf))
	case "spin":
		// Busy for one second of wall-clock time on one thread.
		for end := time.Now().Add(time.Second); time.Now().Before(end); {
		}
	default:
		fmt.Fprintln(os.Stderr, "helper: unknown", h)
		return 3
	}
	return 0
}

// requireRoot skips unless this is root and the host offers a writable
// cgroup with the controllers l needs.
func requireRoot(t *testing.T, l Limits) {
	t.Helper()
	if testing.Short() {
		t.Skip("creates cgroups; skipped with -short")
	}
	if os.Geteuid() != 0 {
		t.Skip("requires root")
	}
	if err := Probe(l); err != nil {
		t.Skipf("no usable cgroup here: %v", err)
	}
}

// newGroup creates a group for l and deletes it when the test ends, then
// checks that its directories are gone.
func newGroup(t *testing.T, l Limits) *Group {
	t.Helper()
	g, err := New("", l)
	if err != nil {
		t.Fatalf("New(%v): %v", l, err)
	}
	t.Cleanup(func() { deleteAndCheck(t, g) })
	return g
}

func deleteAndCheck(t *testing.T, g *Group) {
	t.Helper()
	dirs := g.Dirs()
	if err := g.Delete(); err != nil {
		t.Errorf("Delete: %v", err)
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after Delete (stat: %v)", d, err)
		}
	}
}

// startIn starts cmd inside g the way omega-run does: through
// CLONE_INTO_CGROUP on v2, with Add right after Start on v1. cmd must wait
// for a line on stdin before doing anything; release sends that line. The
// returned stdin is cmd's.
func startIn(t *testing.T, g *Group, cmd *exec.Cmd) (release func(), stdin io.WriteCloser) {
	t.Helper()
	if fd, ok := g.FD(); ok {
		cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	if _, ok := g.FD(); !ok {
		if err := g.Add(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
	}
	pids, err := g.Pids()
	if err != nil {
		t.Fatal(err)
	}
	if len(pids) != 1 || pids[0] != cmd.Process.Pid {
		t.Fatalf("group holds %v, want just the child %d", pids, cmd.Process.Pid)
	}
	return func() {
		if _, err := io.WriteString(stdin, "go\n"); err != nil {
			t.Errorf("releasing the child: %v", err)
		}
	}, stdin
}

// command is exec.Command with a deadline, so that a hung test still gets
// to its cleanups (which remove the groups).
func command(t *testing.T, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return exec.CommandContext(ctx, name, args...)
}

// helperCmd runs this test binary as helper h.
func helperCmd(t *testing.T, h string) *exec.Cmd {
	cmd := command(t, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+h)
	return cmd
}

// readFile reads a cgroup file.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
