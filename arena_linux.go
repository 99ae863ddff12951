//go:build linux && cgo

package main

/*
#include <malloc.h>

// Every thread the Go runtime starts through pthread_create makes glibc
// set up a malloc arena of its own on its first malloc (a 64-128 MiB
// reservation, munmap and mprotect, then page faults), five times per
// launch, though omega-run's C side allocates next to nothing. One arena
// for the whole process skips that work. A constructor, so that it holds
// before the runtime starts its threads.
// musl (the static release build) has one allocator and no mallopt.
__attribute__((constructor)) static void omega_one_arena(void) {
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 1);
#endif
}
*/
import "C"
