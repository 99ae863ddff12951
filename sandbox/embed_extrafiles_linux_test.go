package sandbox_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
	"golang.org/x/sys/unix"
)

// extraFilesCases are the launches Options.ExtraFiles goes through: both
// confined modes, rwx through the init stage (an environment edit) and
// rwx's plain command.
var extraFilesCases = map[string]sandbox.Options{
	"sandbox":   {Mode: sandbox.ModeSandbox},
	"rx":        {Mode: sandbox.ModeRX},
	"rwx-init":  {Mode: sandbox.ModeRWX, Process: sandbox.Process{SetEnv: []string{"A=1"}}},
	"rwx-plain": {Mode: sandbox.ModeRWX},
}

// TestOptionsExtraFiles: a pipe given as Options.ExtraFiles reaches the
// program as fd 3, started with Start and with cmd.Run alike. An
// embedder had no way to pass one: cmd.ExtraFiles carries the spec, and
// PreserveFDs passes this process's fds 3 and up, which in a Go program
// are the runtime's (its cgroup CPU files), not the embedder's.
func TestOptionsExtraFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for name, o := range extraFilesCases {
		for _, viaStart := range []bool{true, false} {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			o.DataDir, o.ExtraFiles = t.TempDir(), []*os.File{w}
			cmd, err := o.CommandContext(context.Background(), "sh", "-c", "echo got >&3")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if viaStart {
				err = sandbox.Start(cmd)
			} else {
				err = cmd.Start()
			}
			w.Close()
			if err != nil {
				t.Fatalf("%s (Start %v): %v", name, viaStart, err)
			}
			got, _ := io.ReadAll(r)
			r.Close()
			if err := cmd.Wait(); err != nil || string(got) != "got\n" {
				t.Errorf("%s (Start %v): %v, fd 3 got %q, stderr %q; want \"got\\n\"", name, viaStart, err, got, stderr.String())
			}
		}
	}
}

// TestOptionsExtraFilesAfterPreserved: the extra files follow the
// preserved fds, in order.
func TestOptionsExtraFilesAfterPreserved(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	if _, err := unix.FcntlInt(3, unix.F_GETFD, 0); err != nil {
		t.Skip("this test process has no fd 3 to preserve")
	}
	a, b := mustOpen(t, os.DevNull), mustOpen(t, "/proc/version")
	o := sandbox.Options{DataDir: t.TempDir(), PreserveFDs: 1, ExtraFiles: []*os.File{a, b}}
	cmd, err := o.CommandContext(context.Background(), "sh", "-c",
		`test -e /proc/self/fd/3 && readlink /proc/self/fd/4 && head -c 5 <&5 && echo && test ! -e /proc/self/fd/6 && echo none-after`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if want := "/dev/null\nLinux\nnone-after\n"; err != nil || string(out) != want {
		t.Errorf("%v, %q; want %q", err, out, want)
	}
}

// TestOptionsExtraFilesHostDir: a directory of the host given as an
// extra file would let the program walk the host's tree below the
// sandbox's mounts (openat on it); sandbox mode refuses it with 125
// before the program runs, as it refuses a preserved one.
func TestOptionsExtraFilesHostDir(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	os.WriteFile(dir+"/secret", []byte("SECRET"), 0o600)
	o := sandbox.Options{DataDir: t.TempDir(), ExtraFiles: []*os.File{mustOpen(t, dir)}}
	cmd, err := o.CommandContext(context.Background(), "sh", "-c", "cat /proc/self/fd/3/secret; echo ran")
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != sandbox.ExitLauncher || strings.Contains(string(out), "ran") {
		t.Errorf("%v, output %q; want exit 125 before the program runs", err, out)
	}
}

// TestOptionsExtraFilesRefused: nil entries, closed files (which failed
// the start as "fork/exec /proc/self/exe: bad file descriptor"), and Run,
// which passes this process's own fds, are refused with 125 before
// anything starts.
func TestOptionsExtraFilesRefused(t *testing.T) {
	var se *sandbox.Error
	o := sandbox.Options{DataDir: t.TempDir(), ExtraFiles: []*os.File{nil}}
	if _, err := o.CommandContext(context.Background(), "true"); !errors.As(err, &se) || se.Code != sandbox.ExitLauncher {
		t.Errorf("nil extra file: %v; want a *sandbox.Error 125", err)
	}
	closed := mustOpen(t, os.DevNull)
	closed.Close()
	o.ExtraFiles = []*os.File{closed}
	if _, err := o.CommandContext(context.Background(), "true"); !errors.As(err, &se) || se.Code != sandbox.ExitLauncher || !strings.Contains(err.Error(), "closed") {
		t.Errorf("closed extra file: %v; want a *sandbox.Error 125 saying it is closed", err)
	}
	o.ExtraFiles = []*os.File{mustOpen(t, os.DevNull)}
	if _, err := o.Run("true"); !errors.As(err, &se) || se.Code != sandbox.ExitLauncher || !strings.Contains(err.Error(), "CommandContext") {
		t.Errorf("Run: %v; want a *sandbox.Error 125 naming CommandContext", err)
	}
}
