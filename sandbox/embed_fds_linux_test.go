package sandbox_test

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
	"golang.org/x/sys/unix"
)

// appendCases are commands that reach the program through the init
// stage: both confined modes, and rwx asked for an environment edit.
func appendCases(t *testing.T, script string) map[string]*exec.Cmd {
	t.Helper()
	cmds := map[string]*exec.Cmd{}
	for _, o := range []sandbox.Options{
		{Mode: sandbox.ModeSandbox}, {Mode: sandbox.ModeRX},
		{Mode: sandbox.ModeRWX, Process: sandbox.Process{SetEnv: []string{"A=1"}}},
	} {
		o.DataDir = t.TempDir()
		cmd, err := o.CommandContext(context.Background(), "sh", "-c", script)
		if err != nil {
			t.Fatal(err)
		}
		cmds[string(o.Mode)] = cmd
		// cmd.Run does not close the spec, and a later test counts fds.
		spec := cmd.ExtraFiles[0]
		t.Cleanup(func() { spec.Close() })
	}
	return cmds
}

// TestStartExtraFilesAppended: a file appended to cmd.ExtraFiles (the
// usual way to pass an fd) lands after the spec, where the init stage
// closed it before the program ran: the program simply lacked it.
// sandbox.Start refuses it as it refuses them replaced, leaving the file
// open.
func TestStartExtraFilesAppended(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for mode, cmd := range appendCases(t, "echo ran") {
		f := mustOpen(t, os.DevNull)
		cmd.ExtraFiles = append(cmd.ExtraFiles, f)
		err := sandbox.Start(cmd)
		if err == nil {
			cmd.Wait()
		}
		var se *sandbox.Error
		if !errors.As(err, &se) || se.Code != sandbox.ExitLauncher || !strings.Contains(err.Error(), "Options.ExtraFiles") {
			t.Errorf("%s: Start: %v; want a *sandbox.Error 125 naming Options.ExtraFiles", mode, err)
		}
		if _, err := f.Stat(); err != nil {
			t.Errorf("%s: the embedder's file was closed: %v", mode, err)
		}
		if _, err := cmd.ExtraFiles[0].Stat(); !errors.Is(err, os.ErrClosed) {
			t.Errorf("%s: the refused command's spec: %v; want it closed, not left to the garbage collector", mode, err)
		}
	}
}

// TestCmdStartExtraFilesAppended: the same through cmd.Run, which
// sandbox cannot see: the init stage refuses (125, naming Options.ExtraFiles)
// before the program runs. An fd this process leaked elsewhere
// (inherited without close-on-exec, as make's jobserver fds) is closed
// as before, not refused.
func TestCmdStartExtraFilesAppended(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	leak := leakFD(t, 60)
	for mode, cmd := range appendCases(t, "echo ran") {
		cmd.ExtraFiles = append(cmd.ExtraFiles, mustOpen(t, os.DevNull))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 125 || !strings.Contains(stderr.String(), "Options.ExtraFiles") || stdout.Len() > 0 {
			t.Errorf("%s: %v, stdout %q, stderr %q; want 125 naming Options.ExtraFiles before the program runs", mode, err, stdout.String(), stderr.String())
		}
	}
	for mode, cmd := range appendCases(t, "test -e /proc/self/fd/"+leak+" || echo closed") {
		out, err := cmd.Output()
		if err != nil || string(out) != "closed\n" {
			t.Errorf("%s, fd %s leaked to the launcher: %v, %q; want it closed for the program", mode, leak, err, out)
		}
	}
}

// TestPlainRWXExtraFiles: rwx without Process settings is a plain
// command, which passes appended files on as exec.Cmd does.
func TestPlainRWXExtraFiles(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd, err := sandbox.Command("sh", sandbox.ModeRWX, t.TempDir(), "-c", "echo got >&3")
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	err = sandbox.Start(cmd)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	if err := cmd.Wait(); err != nil || string(got) != "got\n" {
		t.Errorf("%v, fd 3 got %q; want \"got\\n\"", err, got)
	}
}

// leakFD puts /dev/null at fd without close-on-exec, as a parent that
// leaks fds leaves them, until the test ends.
func leakFD(t *testing.T, fd int) string {
	t.Helper()
	if err := unix.Dup2(int(mustOpen(t, os.DevNull).Fd()), fd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return strconv.Itoa(fd)
}
