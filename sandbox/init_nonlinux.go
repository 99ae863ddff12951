//go:build !linux

package sandbox

import (
	"errors"
	"io/fs"
	"os"
)

// InitArg is argv[1] of the init stage, which exists only on Linux.
const InitArg = "__omega_run_init__"

// Init does nothing outside Linux: macOS runs sandbox-exec and other
// systems run the program plainly, neither through an init stage.
func Init() {}

// Release does nothing outside Linux: no init stage is started early.
func Release() {}

// gitScan is Linux's look at the repositories a sandbox may change.
type gitScan struct{}

// execErr is the error of an exec in place (macOS's sandbox-exec, other
// systems' plain exec), with the exit code a shell would give.
func execErr(path string, err error) error {
	code := ExitNotExecutable
	if errors.Is(err, fs.ErrNotExist) {
		code = ExitNotFound
	}
	return &Error{Code: code, Err: &os.PathError{Op: "exec", Path: path, Err: err}}
}

// Exit is os.Exit: only Linux runs the program as a child.
func Exit(code int) { os.Exit(code) }
