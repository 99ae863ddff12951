package main

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/omega-run/omega-run/sandbox"
	"github.com/omega-run/omega-run/seccomp"
)

// version and commit are stamped by the Makefile (-ldflags -X).
var (
	version = "dev"
	commit  = "unknown"
)

// versionText is the App's Version: the release on the first line, then
// what this binary and this machine bring, as runc prints it. The other
// lines are indented so that they line up under VERSION: in --help too.
//
//	omega-run version v0.2.0
//	   commit:      d873bab
//	   go:          go1.26.8 linux/amd64
//	   seccomp:     compiled in
//	   libseccomp:  2.5.4
//	   landlock:    ABI 7
func versionText() string {
	abi, seccompOn, libseccomp := sandbox.Versions()
	seccompText, libText, landlockText := "compiled in", libseccomp, fmt.Sprintf("ABI %d", abi)
	switch {
	case runtime.GOOS != "linux":
		seccompText, libText, landlockText = "Linux only", "none", "Linux only"
	case !seccompOn && seccomp.Precompiled("default"):
		seccompText, libText = "built-in profiles only (compiled at build time)", "none (built without cgo)"
	case !seccompOn:
		seccompText, libText = "not compiled in (built without cgo)", "none"
	}
	if runtime.GOOS == "linux" && abi == 0 {
		landlockText += " (not offered by this kernel)"
	}
	lines := []string{
		version,
		"commit:      " + commit,
		"go:          " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		"seccomp:     " + seccompText,
		"libseccomp:  " + libText,
		"landlock:    " + landlockText,
	}
	return strings.Join(lines, "\n   ")
}

func codeOf(err error) int {
	var se *sandbox.Error
	if errors.As(err, &se) {
		return se.Code
	}
	return sandbox.ExitLauncher
}
