//go:build linux && (!cgo || omega_goinit)

package nsexec

// CInit tells whether the init stage of this binary is the C one
// (cinit.c); without cgo, or with -tags omega_goinit, it is Init.
const CInit = false
