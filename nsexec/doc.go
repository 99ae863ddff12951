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
// The spec travels over an inherited fd (3), never argv or env, in the
// flat binary form of wire_linux.go that both implementations read: a
// pipe the launcher writes once the spec is ready (Pending: the init
// stage is started first, so the clone and its exec overlap with
// computing the spec), or a memfd written before the start (Command, for
// the library's unstarted *exec.Cmd). The parent adds the Landlock ruleset
// worked out for the running kernel (landlock.Plan), which the C stage
// applies directly.
//
// In the omega-run CLI, most sandbox launches do not re-execute at all:
// the main package's constructor calls cinit_early.c, which clones the
// init stage before the Go runtime starts, from a process that is still
// plain C; Prestarted hands it to the launcher, which sends its spec over
// a pipe as above, or kills it when the launch needs something else.
package nsexec
