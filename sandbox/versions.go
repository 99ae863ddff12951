package sandbox

import (
	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/seccomp"
)

// Versions reports, cheaply (no namespace probe, unlike Check), the
// Landlock ABI the running kernel offers (0 when it has none, and on
// every OS but Linux), whether this build has libseccomp compiled in,
// and that libseccomp's version ("" when it has not).
func Versions() (landlockABI int, seccompEnabled bool, libseccomp string) {
	return landlock.ABI(), seccomp.Enabled, seccomp.Version()
}
