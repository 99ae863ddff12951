package nsexec

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// faultSignals are the signals the Go runtime handles as faults (or
// throws on): SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGSTKFLT, SIGSYS.
var faultSignals = []unix.Signal{
	unix.SIGILL, unix.SIGTRAP, unix.SIGBUS, unix.SIGFPE,
	unix.SIGSEGV, unix.SIGSTKFLT, unix.SIGSYS,
}

// ignoreFaultSignals sets the fault signals to SIG_IGN in the Go PID 1.
// The kernel drops a signal sent to a pid namespace's init from inside
// only where its disposition is the default; the Go runtime has a handler
// for each, which crashed PID 1 with a traceback (exit 2, the program
// killed) on the program's `kill -SEGV 1` or a sigqueue of one (not
// seen as sent by a user: a "fault"). signal.Ignore cannot ignore them.
// A real fault of PID 1 still kills it: the kernel forces the default
// action on an ignored fault. The program gets the defaults back (Go's
// fork resets every signal its runtime handles).
func ignoreFaultSignals() error {
	ign := [4]uint64{1} // the kernel's struct sigaction: SIG_IGN, no flags
	for _, sig := range faultSignals {
		_, _, errno := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&ign[0])), 0, 8, 0, 0)
		if errno != 0 {
			return os.NewSyscallError("rt_sigaction", errno)
		}
	}
	return nil
}
