package sandbox

import (
	"os"
	"slices"

	"github.com/omega-run/omega-run/profiles"
)

// envStores are the credential stores the caller's environment moved
// (profiles.EnvCredentialStores), less one that resolves to a directory
// of keep (home, the writable roots) or one above it: a mask lands on a
// link's target (GNUPGHOME=/data/gpg, a link to the home). wd is the
// program's working directory, which relative values name.
func envStores(home, wd string, writable ...string) []string {
	stores := profiles.EnvCredentialStores(os.Getenv, home, wd, writable...)
	if len(stores) == 0 {
		return nil // the usual case: nothing to resolve on every launch
	}
	keep := append([]string{home}, writable...)
	real := make([]string, len(keep))
	for i, k := range keep {
		real[i] = resolvedOr(k)
	}
	return slices.DeleteFunc(stores, func(p string) bool {
		r := resolvedOr(p)
		return slices.ContainsFunc(real, func(k string) bool { return profiles.Within(k, r) })
	})
}
