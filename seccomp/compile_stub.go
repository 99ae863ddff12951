//go:build !linux || !cgo

package seccomp

// Enabled reports whether libseccomp is compiled in.
const Enabled = false

// Version returns "": there is no libseccomp in this build.
func Version() string { return "" }

// Compile returns ErrNotEnabled for every profile but "none" (nil):
// without libseccomp no filter can be built, and saying so beats running
// the program unfiltered.
func Compile(p *Profile) (*Program, []string, error) {
	if p == nil {
		return nil, nil, nil
	}
	return nil, nil, ErrNotEnabled
}

// unknownSyscalls returns nil: without libseccomp nothing is known to be
// unknown (and nothing is enforced).
func unknownSyscalls([]string) []string { return nil }
