package sandbox

import (
	"runtime"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/seccomp"
)

func explainPlatform(o Options, pol profiles.Policy, e Explanation) (Explanation, error) {
	e.OS = runtime.GOOS
	rules := landlock.FromPolicy(pol)
	abi := landlock.ABI()
	e.Landlock.ABI = abi
	e.Landlock.ReadExec = rules.ReadExec
	e.Landlock.Devices = rules.Devices
	e.Landlock.Rights = landlock.Enforced(abi)
	e.Landlock.DenyTCP = rules.DenyTCP
	e.Warnings = append(e.Warnings, landlock.Warnings(abi, rules)...)
	if pol.Mode == ModeSandbox {
		if cause := usernsUnavailable(); cause != "" {
			e.Warnings = append(e.Warnings, usernsWarning(cause))
		} else {
			e.Namespaces = []string{"user", "mount", "pid", "ipc", "uts"}
			if pol.Net == profiles.NetNone {
				e.Namespaces = append(e.Namespaces, "net")
			}
		}
	}
	_, warnings, err := compileSeccomp(pol, o.Seccomp != "")
	if err != nil {
		return Explanation{}, launcherErr(err)
	}
	e.Warnings = append(e.Warnings, warnings...)
	if prof, err := seccomp.Resolve(pol.Seccomp); err == nil && prof != nil {
		e.SeccompRules = seccomp.Describe(prof)
	}
	return e, nil
}
