//go:build !linux

package sandbox

import (
	"runtime"

	"github.com/omega-run/omega-run/darwin"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/seccomp"
)

// Check reports what this OS can enforce: on macOS whether sandbox-exec
// exists, elsewhere nothing.
func Check() Report {
	r := Report{OS: runtime.GOOS}
	if runtime.GOOS == "darwin" {
		_, err := darwin.Args(profiles.Policy{Mode: ModeRX, DataDir: "/", Home: "/"}, []string{"/usr/bin/true"}, darwin.Options{})
		r.Full = err == nil
		if err != nil {
			r.NamespacesError = err.Error()
		}
		return r
	}
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
