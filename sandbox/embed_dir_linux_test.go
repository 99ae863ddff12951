package sandbox_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/omega-run/omega-run/sandbox"
)

// TestStartBadDir: a cmd.Dir that is missing, or not a directory, is
// named as what failed, in every mode. Through the init stage (whose
// command has a SysProcAttr, which turns off os.StartProcess's own look
// at Dir) the error was "fork/exec /proc/self/exe: no such file or
// directory", as if the binary itself were missing.
func TestStartBadDir(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	for _, c := range []struct {
		dir  string
		want error
	}{{filepath.Join(t.TempDir(), "missing"), fs.ErrNotExist}, {file, syscall.ENOTDIR}} {
		for _, mode := range []sandbox.Mode{sandbox.ModeSandbox, sandbox.ModeRX, sandbox.ModeRWX} {
			cmd, err := sandbox.Command("true", mode, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			cmd.Dir = c.dir
			err = sandbox.Start(cmd)
			if err == nil {
				cmd.Wait()
			}
			var se *sandbox.Error
			if !errors.Is(err, c.want) || !errors.As(err, &se) || se.Code != sandbox.ExitLauncher ||
				!strings.Contains(err.Error(), "chdir "+c.dir) {
				t.Errorf("%s, Dir %s: %v; want a *sandbox.Error 125 \"chdir %s: %v\"", mode, c.dir, err, c.dir, c.want)
			}
		}
	}
}
