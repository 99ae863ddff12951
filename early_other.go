//go:build !linux || !cgo || omega_goinit

package main

// restoreEnv: only the C constructor of a Linux cgo build lends an
// environment slot.
func restoreEnv() {}
