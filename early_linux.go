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
