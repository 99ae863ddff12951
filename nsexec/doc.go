// Package nsexec is omega-run's Linux backend. The parent side builds a
// command that re-executes /proc/self/exe into the init stage with new
// namespaces; the init stage (Init) mounts what the sandbox needs, confines
// its own thread (capabilities, no_new_privs, Landlock, seccomp last) and
// then either executes the program in place or, as PID 1 of a new pid
// namespace, starts it, reaps zombies and forwards signals.
//
// The spec travels over an inherited memfd (fd 3), never argv or env.
package nsexec
