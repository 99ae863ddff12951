package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"slices"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
)

func explainPlatform(o Options, pol profiles.Policy, prof *seccomp.Profile, e Explanation) (Explanation, error) {
	e.OS = runtime.GOOS
	if outer := Mode(os.Getenv("OMEGA_SANDBOX")); (outer == ModeSandbox || outer == ModeRX) && noNewPrivs() {
		e.Inside = outer
	}
	abi := explainLandlock(pol, &e)
	mounts := pol.Mode == ModeSandbox && explainMounts(o, pol, &e)
	e.Landlock.LogDenials = pol.LogDenials && abi >= 7
	if w := logDenialsWarning(pol, abi); w != "" {
		e.Warnings = append(e.Warnings, w)
	}
	lims, err := rlimits.Parse(o.Process.Rlimits)
	if err != nil {
		lims = nil // the launch refuses it; explain lists the rest
	}
	e.Warnings = append(e.Warnings, policyWarnings(pol, mounts, abi, explainUID(o.Process), lims)...)
	return explainSeccomp(o, pol, prof, mounts, e)
}

// explainLandlock fills in the Landlock rules and their warnings, and
// returns the kernel's ABI.
func explainLandlock(pol profiles.Policy, e *Explanation) int {
	rules := landlock.FromPolicy(pol)
	abi := landlock.ABI()
	e.Landlock.ABI = abi
	e.Landlock.ReadExec = rules.ReadExec
	e.Landlock.Devices = rules.Devices
	e.Landlock.Rights = landlock.Enforced(landlock.EffectiveABI())
	e.Landlock.DenyTCP = rules.DenyTCP
	// Writable to every confined program: the host's /dev/shm in rx, the
	// sandbox's own in sandbox mode.
	e.Writable = append(slices.Clone(e.Writable), landlock.DeviceDirs...)
	e.Warnings = append(e.Warnings, landlock.KernelWarnings(abi, landlock.EffectiveABI(), rules)...)
	return abi
}

// explainMounts fills in sandbox mode's mount plan and namespaces, and
// reports whether the launch would have them (user namespaces work).
func explainMounts(o Options, pol profiles.Policy, e *Explanation) bool {
	if cause := usernsProbe(); cause != "" {
		e.Warnings = append(e.Warnings, usernsWarning(cause, pol))
		return false
	}
	// Nothing is resolved or created here: the plan as listed.
	moved := envHidden(pol, o.workdir())
	e.Warnings = append(e.Warnings, ownDirWarnings(pol, moved)...)
	if plan, _, mwarn, err := mountPlan(pol, nil, o.workdir(), explainUID(o.Process)); err != nil {
		e.Warnings = append(e.Warnings, err.Error())
	} else {
		e.Warnings = append(append(e.Warnings, socketWarnings(pol, moved, plan.TmpFrom != "")...), mwarn...)
		e.Hidden = append(append(e.Hidden, plan.HideDirs...), plan.HideFiles...)
		e.ReadOnly = plan.ReadOnly
		// What the host's layout leaves of the writable set and
		// the private /tmp (read-only mounts, a /tmp symlink).
		e.Writable = append(slices.Clone(plan.Writable), landlock.DeviceDirs...)
		e.PrivateTmp = plan.TmpFrom
	}
	e.Namespaces = []string{"user", "mount", "pid", "ipc", "uts"}
	if pol.Net == profiles.NetNone {
		e.Namespaces = append(e.Namespaces, "net")
	}
	return true
}

// explainSeccomp fills in the seccomp rules, the launch's guards
// included, and what keeps host sockets out of reach.
func explainSeccomp(o Options, pol profiles.Policy, prof *seccomp.Profile, mounts bool, e Explanation) (Explanation, error) {
	// Read once: a profile given as a pipe (<(…)) cannot be read again.
	if prof == nil && pol.Seccomp != profiles.SeccompNone {
		var err error
		if prof, err = seccomp.Resolve(pol.Seccomp); err != nil {
			return Explanation{}, launcherErr(fmt.Errorf("seccomp: %w", err))
		}
	}
	prog, warnings, err := compileSeccomp(pol, o.Seccomp != "", prof)
	if err != nil {
		return Explanation{}, launcherErr(err)
	}
	e.Warnings = append(e.Warnings, warnings...)
	e.UnixSockets = explainSockets(pol, prog, e.Namespaces != nil, &e.Warnings)
	if prof != nil {
		e.SeccompRules, e.SeccompSummary = seccomp.Describe(prof), seccomp.Summarize(prof)
		if pol.Mode != ModeRWX && pol.Net == profiles.NetNone {
			e.SeccompRules += seccomp.DescribeNetNoneGuard()
			e.SeccompSummary += seccomp.SummarizeNetNoneGuard()
		}
		// As buildSpec decides: a handed-over internet socket is the host's.
		kept := &plan{policy: pol, preserveFDs: o.PreserveFDs, extraFiles: o.ExtraFiles}
		hostNet := pol.Mode == ModeSandbox && mounts && pol.Net == profiles.NetNone && kept.handsHostSocket()
		if pol.Mode == ModeSandbox && mounts && !hostNet {
			e.SeccompRules += seccomp.DescribePrlimitGuard()
			e.SeccompSummary += seccomp.SummarizePrlimitGuard()
		}
		if pol.Mode != ModeRWX && (!mounts || hostNet) {
			e.SeccompRules += seccomp.DescribeHostGuard(pol.Net == profiles.NetNone, hostNet)
			e.SeccompSummary += seccomp.SummarizeHostGuard(pol.Net == profiles.NetNone, hostNet)
		}
	}
	return e, nil
}

// explainSockets describes how host unix sockets are kept out of reach.
func explainSockets(pol profiles.Policy, prog *seccomp.Program, namespaces bool, warnings *[]string) string {
	switch {
	case pol.Mode != ModeSandbox:
		return "host sockets reachable (rx mode: abstract ones excepted, by Landlock scoping)"
	case !namespaces:
		return "host sockets reachable (no namespaces)"
	case landlock.EffectiveABI() >= 9:
		return "private /tmp and /run; elsewhere Landlock RESOLVE_UNIX, outside the writable set and --allow-socket"
	}
	need, warning := brokerNeeded(pol, prog != nil)
	if !need {
		if warning != "" {
			*warnings = append(*warnings, warning)
		}
		return "private /tmp and /run; host sockets bound at the start covered; later ones reachable"
	}
	return "private /tmp and /run; connect broker: PID 1 performs each connect(2), to unix sockets on writable mounts and --allow-socket only"
}

// explainUID is the uid a launch would run the program as (-1 when the
// ids cannot be resolved, which the launch would refuse).
func explainUID(p Process) int {
	if p.User == "" {
		return os.Geteuid()
	}
	if ids, err := p.resolveIDs(); err == nil && ids != nil {
		return int(ids.uid)
	}
	return -1
}

// usernsProbe is usernsUnavailable, and when the signs say nothing, a
// real start of the init stage (as check does): inside another sandbox,
// for one, the sysctls allow what the outer filter refuses.
func usernsProbe() string {
	if cause := usernsUnavailable(); cause != "" {
		return cause
	}
	if err := probe(); err != nil {
		if cause := cloneFailure(err); cause != "" {
			return cause
		}
		return "the init stage failed: " + err.Error()
	}
	return ""
}
