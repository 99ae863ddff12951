package sandbox

import (
	"os"

	"github.com/omega-run/omega-run/profiles"
)

// selfWritableWarning is the gap of an omega-run binary (or embedding
// program) that lies in the writable set where no mount keeps it
// read-only (rx, or sandbox without namespaces; sandbox mode binds it,
// protected): the program could rewrite it, and the next launch would
// run the program's code, unconfined.
func selfWritableWarning(pol profiles.Policy, mounts bool) string {
	if mounts || pol.Mode == ModeRWX {
		return ""
	}
	self, err := os.Executable()
	if err != nil {
		return ""
	}
	for _, w := range pol.Writable {
		if profiles.Within(self, w) || profiles.Within(self, resolvedOr(w)) {
			return "the omega-run binary " + self + " lies in the writable " + w + ", and without a read-only mount " +
				"(rx mode, or sandbox mode without user namespaces) the program can rewrite it: your next launch would " +
				"run its code unconfined; keep omega-run outside the writable set"
		}
	}
	return ""
}
