//go:build linux && !cgo

package nsexec

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// blockedAtStart is the Go runtime's signal mask for its threads: its
// caller's without what the runtime unblocks as it starts (see
// BlockedAtStart). Read at package init, on a thread that no goroutine
// has changed the mask of yet.
var blockedAtStart = func() SignalSet {
	var old unix.Sigset_t
	if unix.PthreadSigmask(unix.SIG_BLOCK, nil, &old) != nil {
		return 0
	}
	return SignalSet(old.Val[0])
}()

// BlockedAtStart is the signal mask this process started with, as far as
// a build without cgo can tell: the Go runtime has by then unblocked on
// every thread (the one /proc/self/status shows too) the signals it
// handles itself — SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGTERM, SIGSYS, the
// faults, SIGCHLD, SIGURG, SIGPROF and 32-34 —, so a caller's block of
// those cannot be seen: they reach the program unblocked.
func BlockedAtStart() SignalSet { return blockedAtStart }

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
