package sandbox

import (
	"context"
	"os"
	"slices"

	"github.com/omega-run/omega-run/darwin"
	"github.com/omega-run/omega-run/profiles"
)

// ExplainDarwin returns, on any OS, the exact Seatbelt profile and the
// sandbox-exec command line macOS would get for program under o. It
// checks nothing on this machine's disk but for the credential stores
// this environment names and where this binary lies (seatbeltPolicy).
func (o Options) ExplainDarwin(program string, args ...string) (string, error) {
	pol, err := o.Policy()
	if err != nil {
		return "", launcherErr(err)
	}
	if pol.Mode == ModeRWX {
		return "", launcherErr(errRWXHasNoProfile)
	}
	if program == "" {
		program = "PROGRAM"
	}
	out, err := darwin.Explain(seatbeltPolicy(pol, o.workdir()), append([]string{program}, args...))
	return out, launcherErr(err)
}

// seatbeltPolicy adds to sandbox mode's --hide the credential stores the
// caller's environment moved (GNUPGHOME, KUBECONFIG, …), which Linux masks
// (envHidden) and the profile's own list, below home, misses. Not those
// under /dev: NPM_CONFIG_USERCONFIG=/dev/null is how ~/.npmrc is skipped.
//
// And, in rx too, the omega-run binary when it lies in the writable set:
// the program could rewrite the launcher that runs it next time (Linux
// binds it read-only in sandbox mode and can only warn in rx; Seatbelt
// denies one file in both).
func seatbeltPolicy(pol profiles.Policy, wd string) profiles.Policy {
	if self, err := os.Executable(); err == nil && slices.ContainsFunc(pol.Writable, func(w string) bool {
		return profiles.Within(self, w) || profiles.Within(resolvedOr(self), resolvedOr(w))
	}) {
		pol.ReadOnly = append(slices.Clone(pol.ReadOnly), self)
	}
	if pol.Mode != ModeSandbox {
		return pol
	}
	for _, s := range envStores(pol.Home, wd, pol.Writable...) {
		r := resolvedOr(s)
		if !profiles.Within(s, "/dev") && !profiles.Within(r, "/dev") && !slices.Contains(pol.Hide, s) {
			pol.Hide = append(slices.Clone(pol.Hide), s)
		}
	}
	return pol
}

// seatbeltCheck is Check on macOS, where sandbox mode is sandbox-exec
// with the profile: it gets everything when a profile renders and
// sandbox-exec is usable (Command checks both; it starts nothing). stat
// is darwin.Options.Stat (nil: the real one).
func seatbeltCheck(stat func(string) error) Report {
	r := Report{OS: "darwin"}
	pol := profiles.Policy{Mode: ModeSandbox, DataDir: "/var/empty/.omega", Home: "/var/empty"}
	_, err := darwin.Command(context.Background(), pol, "/usr/bin/true", nil, darwin.Options{Stat: stat})
	r.Full = err == nil
	if err != nil {
		r.NamespacesError = err.Error()
	}
	return r
}
