//go:build !linux

package sandbox

// ptyRelay is --pty's pseudo-terminal, Linux only (pty_linux.go).
type ptyRelay struct{}
