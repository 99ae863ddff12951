// Package nsexec is omega-run's Linux backend. The parent side builds a
// command that re-executes /proc/self/exe into the init stage with new
// namespaces; the init stage mounts what the sandbox needs, confines
// itself (capabilities, no_new_privs, Landlock, seccomp last) and then
// either executes the program in place or, as PID 1 of a new pid
// namespace, starts it, reaps zombies and forwards signals.
//
// There are two implementations of the init stage with the same
// behaviour. In builds with cgo it is cinit.c, run from a C constructor
// before the Go runtime starts, so that the re-executed process never
// initialises Go (CInit is true). Without cgo, or with -tags omega_goinit,
// it is Init, in Go.
//
// The spec travels over an inherited memfd (fd 3), never argv or env, in
// the flat binary form of wire_linux.go that both implementations read;
// the parent adds the Landlock ruleset worked out for the running kernel
// (landlock.Plan), which the C stage applies directly.
package nsexec
