package sandbox

import "github.com/omega-run/omega-run/darwin"

// ExplainDarwin returns, on any OS, the exact Seatbelt profile and the
// sandbox-exec command line macOS would get for program under o. It
// checks nothing on this machine's disk.
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
	out, err := darwin.Explain(pol, append([]string{program}, args...))
	return out, launcherErr(err)
}
