//go:build !linux

package seccomp

func nativeGuardNumbers() (guardABI, bool) { return guardABI{}, false }
