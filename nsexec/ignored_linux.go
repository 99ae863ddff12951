package nsexec

import (
	"os"
	"os/signal"
	"syscall"
)

// SignalSet is a set of signals 1…64: bit n-1 stands for signal n.
type SignalSet uint64

// Has reports whether sig is in s.
func (s SignalSet) Has(sig syscall.Signal) bool {
	return sig >= 1 && sig <= 64 && s&(1<<(sig-1)) != 0
}

// Signals lists the signals of s.
func (s SignalSet) Signals() []os.Signal {
	var out []os.Signal
	for sig := syscall.Signal(1); sig <= 64; sig++ {
		if s.Has(sig) {
			out = append(out, sig)
		}
	}
	return out
}

// Inheritable are the signals whose ignored disposition the program gets
// back from the caller (Spec.IgnoredSignals), as an execve would pass it
// on: every signal but those nobody can ignore (KILL, STOP), SIGCHLD (PID
// 1 reaps the program; an ignored SIGCHLD would reap it first), the
// faults and SIGPROF (the Go runtime keeps its handlers for them, which a
// fork resets, so the Go init stage could not pass them on; faults are
// forced on the program by the kernel anyway), and 32-34, which the C
// libraries keep for themselves and the Go runtime leaves as it finds
// them (they reach the program untouched).
const Inheritable = ^SignalSet(0) &^ (1<<(syscall.SIGKILL-1) | 1<<(syscall.SIGSTOP-1) |
	1<<(syscall.SIGCHLD-1) | 1<<(syscall.SIGILL-1) | 1<<(syscall.SIGTRAP-1) | 1<<(syscall.SIGBUS-1) |
	1<<(syscall.SIGFPE-1) | 1<<(syscall.SIGSEGV-1) | 1<<(syscall.SIGSTKFLT-1) | 1<<(syscall.SIGSYS-1) |
	1<<(syscall.SIGPROF-1) | 1<<31 | 1<<32 | 1<<33)

// IgnoredAtStart is the set of Inheritable signals this process was
// started with ignored (SIG_IGN), as its caller left them: nohup ignores
// SIGHUP, a shell's background job SIGINT and SIGQUIT. A cgo build
// records them in a C constructor, before the Go runtime installs its
// handlers (which a fork resets to the default, losing SIG_IGN); without
// cgo only what the runtime leaves ignored can be seen: SIGHUP and SIGINT,
// SIGTSTP, SIGTTIN, SIGTTOU and SIGCONT.
func IgnoredAtStart() SignalSet { return ignoredAtStart() & Inheritable }

// ignoreSignals ignores s in this process, so that a child forked from it
// or an execve keeps them ignored. signal.Ignore, not a raw sigaction: the
// Go runtime must forget its own handlers, which a fork would otherwise
// reset to the default. SIGPROF and the faults are not among them (see
// Inheritable), which signal.Ignore could not ignore.
func ignoreSignals(s SignalSet) {
	if sigs := (s & Inheritable).Signals(); len(sigs) > 0 {
		signal.Ignore(sigs...)
	}
}
