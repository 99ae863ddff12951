//go:build linux

package main

import "golang.org/x/sys/unix"

// forkSyscalls are the process-creating calls besides clone and clone3.
var forkSyscalls = []uint32{unix.SYS_FORK, unix.SYS_VFORK}
