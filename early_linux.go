//go:build linux && cgo && !omega_goinit

package main

/*
void omega_early_start(void);

// A command line that runs a program in sandbox mode gets its init stage
// started now, before the Go runtime, so that the kernel's namespace work
// overlaps with the runtime's start (nsexec/cinit_early.c). Only the CLI
// does this: a program that embeds the sandbox package starts its init
// stages when it asks for them.
__attribute__((constructor)) static void omega_cli_early(void) {
	omega_early_start();
}
*/
import "C"
