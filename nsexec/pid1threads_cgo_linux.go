//go:build linux && cgo

package nsexec

// A cgo build runs the Go init stage only with -tags omega_goinit, a
// build for testing that stage with libseccomp; the Go init stage users
// get is CGO_ENABLED=0's (pid1threads_nocgo_linux.go). The Go runtime's
// AllThreadsSyscall refuses cgo builds, which may have threads it does
// not know of, and a hand-written signal broadcast to every thread (what
// libcap's psx does) is not worth its risk for a test build: there PID 1's
// other threads keep the namespace's capabilities, as README says.

// otherThreadsConfined tells whether dropOnAllThreads reaches every thread.
const otherThreadsConfined = false

// dropOnAllThreads does nothing in a cgo build (above).
func dropOnAllThreads() error { return nil }
