//go:build linux && !amd64

package main

// forkSyscalls: other architectures create processes with clone only.
var forkSyscalls []uint32
