//go:build linux && cgo

package nsexec

/*
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

// The signals this process started with ignored, recorded before the Go
// runtime replaces the dispositions of most of them with its handlers;
// and those it started with blocked, before the runtime unblocks the ones
// it wants (SIGINT, SIGTERM, the faults, …) on every thread. The raw
// system call: the C libraries hide 32-34 from sigprocmask's result.
static uint64_t omega_ignored_at_start, omega_blocked_at_start;

__attribute__((constructor)) static void omega_record_ignored(void) {
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &omega_blocked_at_start, sizeof omega_blocked_at_start);
	for (int sig = 1; sig <= 64 && sig < NSIG; sig++) {
		struct sigaction sa;
		// The C library refuses its own signals (32-34): skipped.
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			omega_ignored_at_start |= (uint64_t)1 << (sig - 1);
	}
}

static uint64_t omega_ignored(void) { return omega_ignored_at_start; }
static uint64_t omega_blocked(void) { return omega_blocked_at_start; }
*/
import "C"

func ignoredAtStart() SignalSet { return SignalSet(C.omega_ignored()) }

// BlockedAtStart is the signal mask this process started with, as its
// caller left it (bit n-1: signal n), recorded in a C constructor before
// the Go runtime changed it.
func BlockedAtStart() SignalSet { return SignalSet(C.omega_blocked()) }
