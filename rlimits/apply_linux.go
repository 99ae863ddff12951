//go:build linux

package rlimits

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Apply sets every limit on the calling process, in order. Call it in the
// process that will execve the program (limits survive fork and execve).
//
// A kept side (KeepSoft/KeepHard) is read from the process first; a kept soft
// limit above the new hard limit is lowered to it (the kernel refuses soft >
// hard). This matters for nofile: the Go runtime raises its own soft nofile
// limit to the hard limit at startup, so "nofile=:4096" run from a Go process
// ends with soft = hard = 4096, not with the soft limit the shell had. Raising a
// hard limit needs CAP_SYS_RESOURCE (in the initial user namespace), and
// nofile cannot go above fs.nr_open; both fail with EPERM, reported with that
// hint. unix.Setrlimit goes through syscall.Setrlimit, which tells the Go
// runtime that RLIMIT_NOFILE was set on purpose, so os/exec and syscall.Exec
// pass it on instead of restoring the soft limit Go found at startup.
func Apply(ls []Limit) error { return ApplyTo(0, ls) }

// ApplyTo is Apply for process pid (0: the calling one) through
// prlimit(2); kept sides are still read from the calling process.
func ApplyTo(pid int, ls []Limit) error {
	for _, l := range ls {
		if err := applyOne(pid, l); err != nil {
			return err
		}
	}
	return nil
}

func applyOne(pid int, l Limit) error {
	if l.Resource < 0 {
		return fmt.Errorf("rlimits: %s: no resource number", l.Name)
	}
	want := unix.Rlimit{Cur: l.Soft, Max: l.Hard}
	if l.KeepSoft || l.KeepHard {
		var cur unix.Rlimit
		if err := unix.Getrlimit(l.Resource, &cur); err != nil {
			return fmt.Errorf("rlimits: %s: %w", l.Name, &os.SyscallError{Syscall: "getrlimit", Err: err})
		}
		if l.KeepSoft {
			want.Cur = min(cur.Cur, want.Max)
		}
		if l.KeepHard {
			want.Max = cur.Max
		}
	}
	if want.Cur > want.Max {
		return fmt.Errorf("rlimits: %s: soft limit %s would be above hard limit %s",
			l.Name, FormatValue(want.Cur), FormatValue(want.Max))
	}
	var err error
	if pid == 0 {
		err = unix.Setrlimit(l.Resource, &want)
	} else {
		err = unix.Prlimit(pid, l.Resource, &want, nil)
	}
	if err != nil {
		err = &os.SyscallError{Syscall: "setrlimit", Err: err}
		if errors.Is(err, unix.EPERM) {
			return fmt.Errorf("rlimits: %s=%s:%s: %w (raising a hard limit needs CAP_SYS_RESOURCE; nofile is capped by fs.nr_open)",
				l.Name, FormatValue(want.Cur), FormatValue(want.Max), err)
		}
		return fmt.Errorf("rlimits: %s=%s:%s: %w", l.Name, FormatValue(want.Cur), FormatValue(want.Max), err)
	}
	return nil
}
