package nsexec

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// execProgram replaces this process with s's program, with env. Only fds
// 0-2 and the keep fds after them survive.
func execProgram(s *Spec, env []string) error {
	if err := closeFrom(3 + s.KeepFDs); err != nil {
		return err
	}
	if err := setProgramMask(s.BlockedSignals); err != nil { // see sigmask_linux.go
		return err
	}
	return execFailure(s.Path, unix.Exec(s.Path, s.Argv, env))
}

// ExecError carries the exit code for a failed execve (126/127).
type ExecError struct {
	Code int
	Err  error
}

func (e *ExecError) Error() string { return e.Err.Error() }
func (e *ExecError) Unwrap() error { return e.Err }

func execFailure(path string, err error) error {
	code := 126
	if errors.Is(err, unix.ENOENT) {
		code = 127
	}
	return &ExecError{Code: code, Err: fmt.Errorf("exec %s: %w%s", path, err, execHint(path, err))}
}
