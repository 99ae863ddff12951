//go:build linux && cgo && !omega_goinit

package main

/*
#include "nsexec/cinit.h"

// A command line that runs a program in sandbox mode gets its init stage
// started now, before the Go runtime, so that the kernel's namespace work
// overlaps with the runtime's start (nsexec/cinit_early.c). Only the CLI
// does this: a program that embeds the sandbox package starts its init
// stages when it asks for them.
OMEGA_CONSTRUCTOR(omega_cli_early, omega_early_start)
*/
import "C"

import (
	"os"
	"strings"
)

// init gives back, before anything reads the environment (no package
// does in its init), the entry the constructor lent GOMAXPROCS=1 for this
// runtime's start (nsexec/cinit_early.c: a launcher has no work for a
// second P, and its threads would compete with the init stage). In init,
// not main: the package's test binaries have the constructor too.
func init() {
	lent := C.omega_early_env_restore()
	if lent == nil {
		return
	}
	key, value, _ := strings.Cut(C.GoString(lent), "=")
	// The slot was the last one: unset, then set again, it is last again.
	os.Unsetenv("GOMAXPROCS")
	os.Setenv(key, value)
}
