//go:build linux && cgo && !omega_goinit

// cinit_args.c finds the process's argv and envp for the constructors.
// glibc passes them to constructors, musl (the static release build) does
// not; both have, by the time constructors run, set environ to the initial
// envp and program_invocation_name to argv[0]. The kernel lays the vectors
// out on the stack as [argc][argv[0]…argv[argc-1]][NULL][envp…], so argv
// is found by walking back from envp to the slot that holds argv[0] with
// argc just before it. One way for both C libraries, so that what the
// release build does is what every test run does.

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "cinit_internal.h"

extern char **environ;

int omega_initial_args(int *argc, char ***argv, char ***envp) {
	char **e = environ;
	char *arg0 = program_invocation_name;
	// The walk stays between this frame and the strings at the top of
	// the stack (AT_EXECFN points there): an environ some earlier code
	// replaced (setenv) lies elsewhere and is refused, not walked.
	char here;
	uintptr_t lo = (uintptr_t)&here, hi = (uintptr_t)getauxval(AT_EXECFN);
	if (!e || !arg0 || hi == 0 || (uintptr_t)e <= lo + sizeof(char *) * 2 || (uintptr_t)e >= hi ||
	    e[-1] != NULL)
		return -1;
	for (char **slot = e - 2; (uintptr_t)(slot - 1) > lo; slot--) {
		uintptr_t n = (uintptr_t)((e - 1) - slot);
		if (slot[0] == arg0 && (uintptr_t)slot[-1] == n) {
			*argc = (int)n;
			*argv = slot;
			*envp = e;
			return 0;
		}
	}
	return -1;
}
