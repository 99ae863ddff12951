//go:build linux

package seccomp

import (
	"embed"
	"runtime"
)

// builtinBPF holds the built-in profiles compiled at build time for each
// GOARCH libseccomp supports, as builtin/<profile>_<goarch>.bpf, plus the
// libseccomp version that compiled them. Compiling "default" at run time
// takes about 0.2 ms and "strict" 0.35 ms; reading the file, microseconds.
// TestBuiltinPrograms fails when the files drift from the JSON profiles;
// go generate rewrites them (see doc.go). Builds without cgo embed them
// too: Compile hands them out as they are, so a CGO_ENABLED=0 build
// installs the very filter a cgo build does, with no libseccomp.
//
//go:embed builtin
var builtinBPF embed.FS

// builtinProgram returns the precompiled program of a built-in profile,
// and false for other profiles and for GOARCHes without a file.
func builtinProgram(p *Profile) (*Program, bool) {
	if p.builtin == "" {
		return nil, false
	}
	b, err := builtinBPF.ReadFile(builtinFile(p.builtin, runtime.GOARCH))
	if err != nil {
		return nil, false
	}
	return &Program{BPF: b}, true
}

// Precompiled tells whether name is a built-in profile whose program this
// binary holds for its GOARCH: one that Compile turns into a filter with
// or without libseccomp.
func Precompiled(name string) bool {
	if _, ok := builtinProfile(name); !ok {
		return false
	}
	_, err := builtinBPF.Open(builtinFile(name, runtime.GOARCH))
	return err == nil
}

// precompiled tells whether Compile has p's program without libseccomp.
func (p *Profile) precompiled() bool {
	_, ok := builtinProgram(p)
	return ok
}

func builtinFile(profile, goarch string) string {
	return "builtin/" + profile + "_" + goarch + ".bpf"
}

const builtinVersionFile = "builtin/libseccomp-version"
