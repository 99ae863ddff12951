//go:build linux && cgo

package nsexec

/*
#include <signal.h>
#include <stdint.h>

// The signals this process started with ignored, recorded before the Go
// runtime replaces the dispositions of most of them with its handlers.
static uint64_t omega_ignored_at_start;

__attribute__((constructor)) static void omega_record_ignored(void) {
	for (int sig = 1; sig <= 64 && sig < NSIG; sig++) {
		struct sigaction sa;
		// The C library refuses its own signals (32-34): skipped.
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			omega_ignored_at_start |= (uint64_t)1 << (sig - 1);
	}
}

static uint64_t omega_ignored(void) { return omega_ignored_at_start; }
*/
import "C"

func ignoredAtStart() SignalSet { return SignalSet(C.omega_ignored()) }
