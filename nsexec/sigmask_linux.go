package nsexec

import (
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// The init stage becomes PID 1 of a new pid namespace, and such a process
// ignores every signal it has no handler for: a signal forwarded before it
// had blocked them (the exec, the dynamic loader, reading the spec) was
// lost — Ctrl-C or a stop request during start-up. So the launcher starts
// it with the forwarded signals already blocked (a forking thread's mask
// is the child's across execve), they wait pending until PID 1 takes
// them, and the init stage unblocks them for the program.

func forwardedSet() *unix.Sigset_t {
	var set unix.Sigset_t
	for _, s := range Forwarded {
		n := int(s.(syscall.Signal)) - 1
		set.Val[n/64] |= 1 << (n % 64)
	}
	return &set
}

// StartBlocked runs start (a fork and exec) on this goroutine's thread
// with the forwarded signals blocked, so that the child starts with them
// blocked; nothing is lost in the parent, whose other threads take them.
func StartBlocked(start func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old unix.Sigset_t
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, forwardedSet(), &old); err != nil {
		return os.NewSyscallError("pthread_sigmask", err)
	}
	err := start()
	if rerr := unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil); rerr != nil && err == nil {
		err = os.NewSyscallError("pthread_sigmask", rerr)
	}
	return err
}

// setProgramMask sets this (locked) thread's signal mask, which a fork
// and an execve pass on, to the program's (Spec.BlockedSignals): the
// caller's, not the forwarded signals the launcher blocked for the init
// stage, nor what the Go runtime unblocked. One system call, in place of
// an unblock of the forwarded ones. For PID 1 the Go runtime's signal
// thread (signal.Notify) still takes the forwarded signals.
func setProgramMask(s SignalSet) error {
	var set unix.Sigset_t
	set.Val[0] = uint64(s) // 64-bit Linux: signals 1-64 in the first word
	if err := unix.PthreadSigmask(unix.SIG_SETMASK, &set, nil); err != nil {
		return os.NewSyscallError("pthread_sigmask", err)
	}
	return nil
}
