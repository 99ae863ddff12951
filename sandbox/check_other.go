//go:build !linux

package sandbox

import (
	"runtime"

	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/seccomp"
)

// Check reports what this OS can enforce: on macOS whether sandbox-exec
// exists, elsewhere nothing.
func Check() Report {
	if runtime.GOOS == "darwin" {
		return seatbeltCheck(nil)
	}
	r := Report{OS: runtime.GOOS}
	r.NamespacesError = "no sandbox is available on " + runtime.GOOS
	return r
}

func explainPlatform(o Options, pol profiles.Policy, _ *seccomp.Profile, e Explanation) (Explanation, error) {
	e.OS = runtime.GOOS
	if runtime.GOOS != "darwin" {
		e.Warnings = append(e.Warnings, "no sandbox on "+runtime.GOOS+": the program would run without any confinement")
	}
	return e, nil
}
