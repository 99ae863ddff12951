package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
	"golang.org/x/sys/unix"
)

// commandWith makes a command while this process has f at fd (the
// launcher plans stream rules from its own fds 0-2), then puts fd back.
func commandWith(t *testing.T, fd int, f *os.File, mode sandbox.Mode, script string) *exec.Cmd {
	t.Helper()
	saved, err := unix.Dup(fd)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(saved)
	if err := unix.Dup2(int(f.Fd()), fd); err != nil {
		t.Fatal(err)
	}
	cmd, err := sandbox.Command("sh", mode, t.TempDir(), "-c", script)
	unix.Dup2(saved, fd)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// createIn creates a file named name in dir, for writing.
func createIn(t *testing.T, dir, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

var streamModes = []sandbox.Mode{sandbox.ModeSandbox, sandbox.ModeRX}

// TestOutputWithFileStdout: an embedder whose own stdout is a file (a
// service logging to one, nohup) captures a command's output through a
// pipe. The launcher looks at its own fds for the stream rules; the
// init stage then finds a pipe where the launcher saw a file, which
// failed every such command with 125.
func TestOutputWithFileStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real sandbox")
	}
	log := createIn(t, t.TempDir(), "log")
	for _, mode := range streamModes {
		cmd := commandWith(t, 1, log, mode, "echo captured")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || string(out) != "captured\n" {
			t.Errorf("%s: output %q, err %v, stderr %q", mode, out, err, stderr.String())
		}
	}
}

// TestStreamRuleNeedsWritableFD: the launcher plans a stream rule from its
// own fd 0 (a file open for writing); the command's stdin is another file,
// opened read-only, outside the writable set. The program must not be able
// to write it through /proc/self/fd/0.
func TestStreamRuleNeedsWritableFD(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real sandbox")
	}
	outside, err := os.MkdirTemp("/var/tmp", "omega-stream-") // not below /tmp: rx may write there
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(outside)
	rw := createIn(t, outside, "rw")
	target := filepath.Join(outside, "target")
	os.WriteFile(target, []byte("original\n"), 0o644)
	for _, mode := range streamModes {
		cmd := commandWith(t, 0, rw, mode, "echo changed > /proc/self/fd/0")
		in, err := os.Open(target)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = in
		cmd.Run()
		in.Close()
		if b, _ := os.ReadFile(target); string(b) != "original\n" {
			t.Errorf("%s: the read-only stdin's file was written: %q", mode, b)
		}
	}
}

// TestOutputToMemfd: a memfd as the command's stdout, where the launcher's
// own stdout is a file: Landlock takes no rule for a memfd, so the stream
// rule is left out instead of failing the command (125).
func TestOutputToMemfd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real sandbox")
	}
	log := createIn(t, t.TempDir(), "log")
	for _, mode := range streamModes {
		fd, err := unix.MemfdCreate("out", unix.MFD_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		out := os.NewFile(uintptr(fd), "memfd")
		cmd := commandWith(t, 1, log, mode, "echo to-memfd")
		var stderr strings.Builder
		cmd.Stdout, cmd.Stderr = out, &stderr
		err = cmd.Run()
		b, _ := os.ReadFile("/proc/self/fd/" + strconv.Itoa(fd))
		out.Close()
		if err != nil || string(b) != "to-memfd\n" {
			t.Errorf("%s: %v, output %q, stderr %q", mode, err, b, stderr.String())
		}
	}
}
