package sandbox

import (
	"os"

	"github.com/omega-run/omega-run/profiles"
)

// envHidden are the credential stores the caller's environment moved
// (profiles.EnvCredentialStores) that a mask can cover: directories and
// regular files, outside the sandbox's own /dev, /proc, /sys, /run and
// /tmp, where the host's are out of sight anyway and a mask would break
// what the program needs (NPM_CONFIG_USERCONFIG=/dev/null is a common
// way to skip ~/.npmrc).
func envHidden(pol profiles.Policy, wd string) []string {
	var out []string
	for _, p := range envStores(pol.Home, wd, pol.Writable...) {
		real := resolvedOr(p)
		if underRunOrTmp(real) || profiles.Within(real, "/dev") || profiles.Within(real, "/proc") || profiles.Within(real, "/sys") {
			continue
		}
		if st, err := os.Stat(real); err == nil && (st.IsDir() || st.Mode().IsRegular()) {
			out = append(out, p)
		}
	}
	return out
}
