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

// Rlimit is one resource limit (--rlimit).
type Rlimit struct {
	Name       string
	Resource   int
	Soft, Hard uint64
}

// setRlimits applies the limits to this process; the program inherits
// them. Raising a hard limit needs privilege, so it goes before the
// capabilities are dropped.
func setRlimits(limits []Rlimit) error {
	for _, l := range limits {
		if err := unix.Setrlimit(l.Resource, &unix.Rlimit{Cur: l.Soft, Max: l.Hard}); err != nil {
			return &os.SyscallError{Syscall: "setrlimit(" + l.Name + ")", Err: err}
		}
	}
	return nil
}
