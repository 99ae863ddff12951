//go:build linux

package rlimits

import "golang.org/x/sys/unix"

// resourceNumber returns the RLIMIT_* number for a known name. The numbers
// differ between Linux architectures (mips, sparc), hence x/sys/unix.
func resourceNumber(name string) int {
	switch name {
	case "as":
		return unix.RLIMIT_AS
	case "core":
		return unix.RLIMIT_CORE
	case "cpu":
		return unix.RLIMIT_CPU
	case "fsize":
		return unix.RLIMIT_FSIZE
	case "memlock":
		return unix.RLIMIT_MEMLOCK
	case "nofile":
		return unix.RLIMIT_NOFILE
	case "msgqueue":
		return unix.RLIMIT_MSGQUEUE
	case "nproc":
		return unix.RLIMIT_NPROC
	case "sigpending":
		return unix.RLIMIT_SIGPENDING
	case "stack":
		return unix.RLIMIT_STACK
	}
	return -1
}
