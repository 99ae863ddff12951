package nsexec

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Init runs the init stage and never returns. The caller checks
// os.Args[1] == InitArg first.
func Init() {
	// Every restriction below is applied to this thread only and reaches
	// the program through execve or fork from this very thread.
	runtime.LockOSThread()
	err := runInit()
	code := 125
	var ee *ExecError
	if errors.As(err, &ee) {
		code = ee.Code
	}
	fmt.Fprintf(os.Stderr, "omega-run: init: %v\n", err)
	os.Exit(code)
}

// runInit returns only on failure.
func runInit() error {
	s, err := readSpec()
	if err != nil {
		return err
	}
	w := warner{json: s.LogJSON}
	if s.Mounts != nil {
		if err := setupMounts(s.Mounts); err != nil {
			if !errors.Is(err, unix.EPERM) || s.FailClosed {
				return fmt.Errorf("mounts: %w", err)
			}
			// Ubuntu's AppArmor userns restriction: clone worked but the
			// namespace holds no privilege. Landlock still confines writes.
			w.warn("mount namespace unusable (" + err.Error() + "): /proc and /dev are the host's; " +
				"on Ubuntu allow user namespaces for omega-run with an AppArmor profile (see README)")
		}
	}
	if s.Loopback {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("loopback: %w", err)
		}
	}
	if s.Probe {
		os.Exit(0)
	}
	env := programEnv(os.Environ(), s.Env, s.Unsetenv)
	if err := confine(s, w); err != nil {
		return err
	}
	if !s.PID1 {
		return execProgram(s.Path, s.Argv, env)
	}
	return supervise(s, env)
}

// programEnv is the inherited environment without the unset names, plus
// the spec's additions (which win).
func programEnv(inherited, add, unset []string) []string {
	env := make([]string, 0, len(inherited)+len(add))
	for _, kv := range inherited {
		k, _, _ := strings.Cut(kv, "=")
		if hasKey(add, k) || slices.Contains(unset, k) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, add...)
}

func hasKey(env []string, key string) bool {
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == key {
			return true
		}
	}
	return false
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
	return &ExecError{Code: code, Err: fmt.Errorf("exec %s: %w", path, err)}
}

// execProgram replaces this process with the program. Only fds 0-2 (and
// those the caller asked to keep) survive.
func execProgram(path string, argv, env []string) error {
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fmt.Errorf("close_range: %w", err)
	}
	return execFailure(path, unix.Exec(path, argv, env))
}
