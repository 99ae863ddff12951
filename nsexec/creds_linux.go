package nsexec

import (
	"os"

	"golang.org/x/sys/unix"
)

// Credentials are the ids the program runs as (--user, --group,
// --groups); nil keeps the caller's.
type Credentials struct {
	UID, GID uint32
	Groups   []uint32 // supplementary groups; empty clears them
}

// switchUser sets the ids of every thread (the Go runtime and libc
// broadcast set*id), so nothing in this process stays privileged.
func switchUser(c *Credentials) error {
	groups := make([]int, len(c.Groups))
	for i, g := range c.Groups {
		groups[i] = int(g)
	}
	if err := unix.Setgroups(groups); err != nil {
		return &os.SyscallError{Syscall: "setgroups", Err: err}
	}
	if err := unix.Setresgid(int(c.GID), int(c.GID), int(c.GID)); err != nil {
		return &os.SyscallError{Syscall: "setresgid", Err: err}
	}
	if err := unix.Setresuid(int(c.UID), int(c.UID), int(c.UID)); err != nil {
		return &os.SyscallError{Syscall: "setresuid", Err: err}
	}
	return nil
}
