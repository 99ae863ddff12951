package seccomp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Install loads the filter into every thread of this process
// (SECCOMP_FILTER_FLAG_TSYNC), which passes it to everything the process
// executes. It cannot be undone. The caller must have set no_new_privs
// (or hold CAP_SYS_ADMIN); omega-run installs the filter last, right
// before execve, so that its own setup is not filtered. It needs no cgo.
func (p *Program) Install() error { return p.install(unix.SECCOMP_FILTER_FLAG_TSYNC) }

// InstallThread loads the filter into the calling OS thread only, which
// passes it to what that thread forks or executes; the process's other
// threads stay outside it. The caller holds runtime.LockOSThread.
func (p *Program) InstallThread() error { return p.install(0) }

func (p *Program) install(sync uintptr) error {
	if p == nil || len(p.BPF) == 0 {
		return errors.New("install: empty program")
	}
	prog, err := decode(p.BPF, binary.NativeEndian)
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	if len(prog) > maxInsns {
		return fmt.Errorf("install: %d instructions, the kernel takes at most %d", len(prog), maxInsns)
	}
	filters := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filters[i] = unix.SockFilter{Code: in.code, Jt: in.jt, Jf: in.jf, K: in.k}
	}
	fprog := unix.SockFprog{Len: uint16(len(filters)), Filter: &filters[0]}
	flags := sync | uintptr(p.Flags)
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(filters)
	switch {
	case errno == unix.EACCES:
		return errors.New("install: permission denied (no_new_privs is not set)")
	case errno == unix.ENOSYS:
		return fmt.Errorf("install: %w (the kernel has no seccomp, or a filter around omega-run refuses it; "+
			"--seccomp none runs without a filter)", errno)
	case errno == unix.EINVAL:
		return fmt.Errorf("install: %w (kernel without CONFIG_SECCOMP_FILTER, or a flag it does not know)", errno)
	case errno == unix.EPERM:
		return fmt.Errorf("install: %w: %s", errno, refusedByFilter)
	case errno != 0:
		return fmt.Errorf("install: %w", errno)
	case r != 0:
		// With TSYNC a positive result is a thread that could not join.
		return fmt.Errorf("install: thread %d could not be synchronised", r)
	}
	return nil
}

// refusedByFilter is why seccomp(2) fails with EPERM once no_new_privs
// is set (cinit_confine.c has the same words): a unit's
// SystemCallFilter=@system-service lacks it.
const refusedByFilter = "a seccomp filter around omega-run refuses it (systemd's SystemCallFilter=: allow seccomp), " +
	"or an LSM does; --seccomp none runs without a filter"

// KernelSupport asks the kernel whether it takes filters whose rules
// return errnos (SECCOMP_GET_ACTION_AVAIL, Linux 4.14), as omega-run's
// do: without CONFIG_SECCOMP_FILTER, or under a filter that refuses
// seccomp(2), every confined launch would end with 125.
func KernelSupport() error {
	action := uint32(unix.SECCOMP_RET_ERRNO)
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&action)))
	if errno != 0 {
		return fmt.Errorf("the kernel refuses seccomp(2): %w", errno)
	}
	return nil
}

// filterFlagWaitKillableRecv is SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
// (Linux 5.19): once the supervisor has received a call, only a fatal
// signal ends the wait, so that no other signal restarts the call.
const filterFlagWaitKillableRecv = 1 << 5

// InstallListener loads the filter into the calling thread only (no
// TSYNC, which the kernel refuses with a listener) and returns its
// listener fd (SECCOMP_FILTER_FLAG_NEW_LISTENER): whatever the filter
// answers with SECCOMP_RET_USER_NOTIF waits for the holder of that fd.
// The thread's children inherit the filter. The caller holds
// runtime.LockOSThread and has set no_new_privs.
func (p *Program) InstallListener() (int, error) {
	if p == nil || len(p.BPF) == 0 {
		return -1, errors.New("install: empty program")
	}
	prog, err := decode(p.BPF, binary.NativeEndian)
	if err != nil {
		return -1, fmt.Errorf("install: %w", err)
	}
	if len(prog) > maxInsns {
		return -1, fmt.Errorf("install: %d instructions, the kernel takes at most %d", len(prog), maxInsns)
	}
	filters := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		filters[i] = unix.SockFilter{Code: in.code, Jt: in.jt, Jf: in.jf, K: in.k}
	}
	fprog := unix.SockFprog{Len: uint16(len(filters)), Filter: &filters[0]}
	flags := uintptr(unix.SECCOMP_FILTER_FLAG_NEW_LISTENER | p.Flags)
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags|filterFlagWaitKillableRecv,
		uintptr(unsafe.Pointer(&fprog)))
	if errno == unix.EINVAL { // before Linux 5.19: signals may then restart a brokered call
		fd, _, errno = unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&fprog)))
	}
	runtime.KeepAlive(filters)
	if errno != 0 {
		return -1, fmt.Errorf("seccomp(NEW_LISTENER): %w", errno)
	}
	return int(fd), nil
}
