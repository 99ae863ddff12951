package sandbox

import (
	"runtime"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/seccomp"
)

// Check probes the kernel: it starts one throwaway init stage in new
// namespaces, so it costs a few milliseconds.
func Check() Report {
	abi := landlock.ABI()
	rules := landlock.FromPolicy(profiles.Policy{Mode: ModeSandbox, Net: NetNone})
	r := Report{
		OS:                 runtime.GOOS,
		LandlockABI:        abi,
		LandlockRights:     landlock.Enforced(landlock.EffectiveABI()),
		LandlockMissing:    landlock.KernelWarnings(abi, landlock.EffectiveABI(), rules),
		Seccomp:            filterBuilt(profiles.SeccompDefault),
		SeccompVersion:     seccomp.Version(),
		SeccompBuiltinOnly: !seccomp.Enabled && filterBuilt(profiles.SeccompDefault),
		NoNewPrivs:         true, // Linux 3.5 and later; omega-run needs newer anyway
	}
	switch {
	case !r.Seccomp:
		r.SeccompError = "not compiled in (built without cgo)"
	default:
		if err := seccomp.KernelSupport(); err != nil {
			r.Seccomp, r.SeccompError = false, err.Error()
		}
	}
	if err := probe(); err != nil {
		r.NamespacesError = err.Error()
		if outer := outerSandbox(); outer != "" { // as the launch's warning says
			r.NamespacesError += "; this omega-run runs inside another omega-run (OMEGA_SANDBOX=" + outer +
				"), which keeps programs from setting up user namespaces: its confinement still holds here"
		} else if cause := cloneFailure(err); cause != "" { // the launch's words
			r.NamespacesError = cause
			if fix := unitFix(cause); fix != "" {
				r.NamespacesError += "; " + fix
			}
		}
	} else {
		r.Namespaces = true
	}
	r.HostSockets = lateSockets(r.Namespaces)
	r.Full = landlock.EffectiveABI() >= landlock.WantABI && r.Namespaces && r.Seccomp
	return r
}

// lateSockets names what refuses sockets the host binds after the start.
// Without namespaces there is no PID 1 to broker connects, nor masks.
func lateSockets(namespaces bool) string {
	if landlock.EffectiveABI() >= 9 {
		return "Landlock RESOLVE_UNIX"
	}
	if !namespaces {
		if insideOuterMounts() {
			// The program stays in the outer sandbox's mounts, pid
			// namespace and seccomp filter (its broker's too).
			return "none of this omega-run's own without namespaces; the outer sandbox's still cover programs started here"
		}
		return "none without namespaces (no masks, no connect broker): the host's unix sockets stay reachable"
	}
	pol := profiles.Policy{Mode: ModeSandbox, Seccomp: profiles.SeccompDefault}
	_, warning := brokerNeeded(pol, filterBuilt(pol.Seccomp))
	if warning == "" {
		if _, err := seccomp.ConnectBroker(); err != nil {
			warning = err.Error()
		}
	}
	if warning != "" {
		return "only those bound at the start are covered: " + warning
	}
	return "connect broker (seccomp user notification to PID 1)"
}
