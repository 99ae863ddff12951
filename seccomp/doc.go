// Package seccomp turns seccomp profiles into BPF filters and installs
// them.
//
// Profiles use the Docker / OCI JSON format; the built-in ones ("default",
// "strict") live in package profiles. The flow is
//
//	p, err := seccomp.Resolve("default")      // or a path; "none" → nil
//	prog, warnings, err := seccomp.Compile(p) // libseccomp → BPF
//	// … send prog (plain JSON) to the init stage …
//	err = prog.Install()                      // last step before execve
//
// Compile needs cgo and libseccomp (Enabled), except for the built-in
// profiles, whose programs are compiled at build time and embedded
// (Precompiled); without them it returns ErrNotEnabled for the others.
// Install needs neither: it is a raw seccomp(2) call.
//
// The BPF is libseccomp's program behind a short guard omega-run writes
// itself (guard.go): it holds the TIOCSTI/TIOCLINUX/TIOCSETD/KDSKBMODE/KDSETMODE denial added to every
// profile and the rules libseccomp cannot express, such as an argument
// check that overrides an unconditional rule of the same syscall.
package seccomp

// The built-in profiles are decoded (builtin_gen.go) and compiled for
// every GOARCH (builtin/*.bpf) at build time; the tests that check them
// for drift also write them. Writing them needs cgo and libseccomp.
//go:generate go test -run ^TestBuiltinProfiles$ -update .
//go:generate go test -run ^TestBuiltinPrograms$ -update .
