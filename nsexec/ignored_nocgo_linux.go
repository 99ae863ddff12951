//go:build linux && !cgo

package nsexec

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// ignoredAtStart reads the dispositions now: without a C constructor,
// the Go runtime has already replaced those it handles, and only what it
// left alone shows SIG_IGN (see IgnoredAtStart).
func ignoredAtStart() SignalSet {
	var set SignalSet
	for sig := 1; sig <= 64; sig++ {
		var old [4]uint64 // the kernel's struct sigaction; the handler comes first
		_, _, errno := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), 0, uintptr(unsafe.Pointer(&old[0])), 8, 0, 0)
		if errno == 0 && old[0] == 1 { // SIG_IGN
			set |= 1 << (sig - 1)
		}
	}
	return set
}
