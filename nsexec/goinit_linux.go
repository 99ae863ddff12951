//go:build linux && (!cgo || omega_goinit)

package nsexec

// CInit tells whether the init stage of this binary is the C one
// (cinit.c); without cgo, or with -tags omega_goinit, it is Init.
const CInit = false

// Prestarted: only the C init stage can be started before the Go runtime.
func Prestarted(Namespaces, int, bool) (int, *SpecPipe, bool) { return 0, nil, false }

// PrestartReady: nothing is started before the Go runtime.
func PrestartReady() bool { return false }

// DropPrestarted: there is nothing to drop.
func DropPrestarted() {}
