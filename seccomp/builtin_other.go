//go:build !linux

package seccomp

// builtinProgram returns false: filters exist on Linux only.
func builtinProgram(*Profile) (*Program, bool) { return nil, false }

// Precompiled returns false: filters exist on Linux only.
func Precompiled(string) bool { return false }

func (p *Profile) precompiled() bool { return false }
