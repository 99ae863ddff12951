//go:build linux && !cgo

package nsexec

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The other threads' bounding sets stay: AllThreadsSyscall stops the
// world once a call, and the bounding set takes one a capability: 41
// cost 6-8 ms a launch here (the launch's third). Once a thread has no
// capabilities and no_new_privs its bounding set is inert: an execve
// gains nothing beyond the permitted set it had (none) under
// no_new_privs, capset cannot add to the inheritable set without
// CAP_SETPCAP, and a multithreaded process cannot enter a new user
// namespace; PID 1's other threads never execve anyway.

// otherThreadsConfined: AllThreadsSyscall reaches every thread.
const otherThreadsConfined = true

// dropOnAllThreads clears the ambient and all other capabilities and sets
// no_new_privs on every thread of this process, this one included, with the Go
// runtime's AllThreadsSyscall, which stops the world, so no thread
// escapes, and panics if the threads' results differ: they are alike
// here (confine cleared this thread's already; clearing again is no
// error).
func dropOnAllThreads() error {
	if err := allThreads("prctl(PR_CAP_AMBIENT_CLEAR_ALL)", unix.SYS_PRCTL, unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	err := allThreads("capset", unix.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0)
	runtime.KeepAlive(&hdr)
	runtime.KeepAlive(&data)
	if err != nil {
		return err
	}
	return allThreads("prctl(PR_SET_NO_NEW_PRIVS)", unix.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0)
}

// allThreads is one AllThreadsSyscall; EINVAL (a capability or a prctl
// this kernel lacks) is no error.
func allThreads(name string, trap, a1, a2, a3 uintptr) error {
	if _, _, errno := syscall.AllThreadsSyscall(trap, a1, a2, a3); errno != 0 && errno != syscall.EINVAL {
		return &os.SyscallError{Syscall: name, Err: errno}
	}
	return nil
}
