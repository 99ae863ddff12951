package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
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

// homeStores are the credential stores below home, as this OS keeps them
// (profiles.CredentialStores).
func homeStores(home string) []string {
	rel := profiles.CredentialStores(runtime.GOOS)
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = filepath.Join(home, r)
	}
	return out
}
