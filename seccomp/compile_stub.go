//go:build !linux || !cgo

package seccomp

import "fmt"

// Enabled reports whether libseccomp is compiled in.
const Enabled = false

// Version returns "": there is no libseccomp in this build.
func Version() string { return "" }

// Compile returns the program of a built-in profile as Resolve returns
// it, compiled at build time (builtin_linux.go): the very bytes a cgo
// build installs. For any other profile it returns ErrNotEnabled, and nil
// for "none": without libseccomp no other filter can be built, and saying
// so beats running the program unfiltered.
func Compile(p *Profile) (*Program, []string, error) {
	if p == nil {
		return nil, nil, nil
	}
	if prog, ok := builtinProgram(p); ok {
		return prog, nil, nil
	}
	if Precompiled("default") {
		return nil, nil, fmt.Errorf("%w; the built-in profiles (default, strict) need no libseccomp", ErrNotEnabled)
	}
	return nil, nil, ErrNotEnabled
}

// unknownSyscalls returns nil: without libseccomp nothing is known to be
// unknown (and nothing is enforced).
func unknownSyscalls([]string) []string { return nil }
