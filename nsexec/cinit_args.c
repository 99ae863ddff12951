//go:build linux && cgo

// cinit_args.c finds the process's argv and envp for the constructors
// where the C library does not pass them: glibc does (OMEGA_CONSTRUCTOR
// uses its arguments), musl — the static release build — does not. Both
// have, by the time constructors run, set environ to the initial envp and
// program_invocation_name to argv[0]. The kernel lays the vectors out on
// the stack as [argc][argv[0]…argv[argc-1]][NULL][envp…][NULL][auxv],
// with the strings above them, so argv is found by walking back from envp
// to the slot that holds argv[0] with argc just before it.

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cinit_internal.h"

extern char **environ;

int omega_initial_args(int *argc, char ***argv, char ***envp) {
	// Only the main thread's stack is mapped from this frame up to the
	// vectors (a library loaded later may run constructors elsewhere).
	if (syscall(SYS_gettid) != getpid())
		return -1;
	// Everything lies between this frame and the strings at the top of
	// the stack (AT_EXECFN points there), the argv strings above the
	// vectors: an environ that earlier code replaced (setenv) fails these
	// checks and is refused, never walked.
	char **e = environ;
	char *arg0 = program_invocation_name;
	char here;
	uintptr_t lo = (uintptr_t)&here, hi = (uintptr_t)getauxval(AT_EXECFN);
	uintptr_t ue = (uintptr_t)e, ua = (uintptr_t)arg0;
	if (!e || !arg0 || hi == 0 || ue <= lo + 2 * sizeof(char *) || ue >= hi || ua <= ue || ua >= hi ||
	    e[-1] != NULL)
		return -1;
	// Each argument takes a byte at least, so there are at most hi - ua.
	uintptr_t most = hi - ua;
	for (uintptr_t n = 1; n <= most; n++) {
		char **slot = e - 1 - n;
		if ((uintptr_t)(slot - 1) <= lo)
			break;
		if (slot[0] == arg0 && (uintptr_t)slot[-1] == n) {
			*argc = (int)n;
			*argv = slot;
			*envp = e;
			return 0;
		}
	}
	return -1;
}

int omega_secure_exec(void) {
	return getauxval(AT_SECURE) != 0 || getuid() != geteuid() || getgid() != getegid();
}
