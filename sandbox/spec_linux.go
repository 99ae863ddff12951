package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
	"github.com/omega-run/omega-run/rlimits"
	"github.com/omega-run/omega-run/seccomp"
	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"
)

// buildSpec does in the parent everything that need not happen inside
// the namespaces: Landlock rules, the compiled seccomp filter, warnings.
// mounts: sandbox mode's read-only root will be there (it backs the
// Landlock warnings).
func buildSpec(p *plan, canon map[string]string, explicitSeccomp, mounts bool) (*nsexec.Spec, []string, error) {
	pol := p.policy
	// The rules name the roots as the init stage opens them: canonical.
	ruled := pol
	ruled.Writable = canonicalAll(pol.Writable, canon)
	rules := landlock.FromPolicy(ruled)
	rules.Streams = append(landlock.WrittenStreams(inheritedFDs(p.preserveFDs)...), p.extraStreams()...)
	said := rules
	said.WritesOnly = mounts
	warnings := landlock.KernelWarnings(landlock.ABI(), landlock.EffectiveABI(), said)
	hostNet := mounts && pol.Net == profiles.NetNone && p.handsHostSocket()
	prog, swarn, err := launchFilter(pol, explicitSeccomp, p.seccompProfile, mounts, hostNet)
	if err != nil {
		return nil, nil, err
	}
	warnings = append(warnings, swarn...)
	if mounts && pol.Net == profiles.NetNone {
		if w := p.handedSendersWarning(); w != "" {
			warnings = append(warnings, w)
		}
	}
	_, isJSON := logrus.StandardLogger().Formatter.(*logrus.JSONFormatter)
	return &nsexec.Spec{
		Path:           p.path,
		Argv:           p.argv,
		Env:            slices.Concat(tmpdirEnv(p, mounts), p.setEnv(), programEnv(pol)),
		ClearEnv:       p.process.ClearEnv,
		Unsetenv:       slices.Clone(p.process.UnsetEnv),
		Hostname:       p.process.Hostname,
		User:           p.credentials(),
		Limits:         p.limits,
		Landlock:       rules,
		Seccomp:        prog,
		FailClosed:     pol.FailClosed,
		LogJSON:        isJSON,
		KeepFDs:        p.keptFDs(),
		NewSession:     prog == nil && pol.Mode == profiles.ModeSandbox,
		IgnoredSignals: nsexec.SignalSet(p.ignoredSignals),
		BlockedSignals: nsexec.SignalSet(p.blockedSignals),
		ListenPID:      p.process.ListenPID,
		WatchdogPID:    p.process.WatchdogPID,
	}, warnings, nil
}

// launchFilter is the program's filter: the profile's, behind the --net
// none guard and, without sandbox mode's mounts (rx, or the fallback
// without namespaces), the host guard; with them, the prlimit guard
// (PID 1 shares the pid namespace), or the host guard, whose prlimit
// check is the same, where hostNet: the program is handed a socket of
// the host's network namespace (handsHostSocket). connectBroker may fold
// the broker in later.
func launchFilter(pol profiles.Policy, explicit bool, prof *seccomp.Profile, mounts, hostNet bool) (*seccomp.Program, []string, error) {
	prog, warnings, err := compileSeccomp(pol, explicit, prof)
	if err == nil {
		prog, err = netNoneGuard(prog, pol)
	}
	if err == nil && (!mounts || hostNet) {
		prog, err = hostGuard(prog, pol)
	}
	if err == nil && mounts && !hostNet {
		prog, err = prlimitGuard(prog, pol)
	}
	return prog, warnings, err
}

// setidGap is what only the filter stops: no mount flag or Landlock
// right keeps an owner from setting the bit on a file in the writable set,
// where it runs as that user for whoever runs it from outside.
const setidGap = "set-user-ID and set-group-ID files can be made in the writable set (chmod u+s), which run with your ids for anyone who runs them from outside"

func compileSeccomp(pol profiles.Policy, explicit bool, prof *seccomp.Profile) (*seccomp.Program, []string, error) {
	if pol.Seccomp == profiles.SeccompNone {
		if pol.Mode == profiles.ModeSandbox {
			reach, gap := "kernel keyrings, bpf, io_uring and PID 1's resource limits (prlimit --pid 1 --cpu=1 kills it, and its after-run checks with it)", ""
			if pol.Net == profiles.NetNone {
				reach = "kernel keyrings, bpf, io_uring, PID 1's resource limits (prlimit --pid 1 --cpu=1 kills it, and its after-run checks with it) and vsock, which no network namespace separates,"
			}
			if landlock.EffectiveABI() < 9 {
				gap = ", and without the connect broker " + nsexec.BrokerGapWhat
			}
			return nil, []string{"--seccomp none: no system call filter (" + reach + " stay reachable, " + setidGap + gap + "); the program runs without a controlling terminal, so it cannot inject keystrokes into yours, but it can set your terminal's line discipline (TIOCSETD), which leaves it dead until reset"}, nil
		}
		return nil, []string{"--seccomp none: no system call filter; the program can push keystrokes into your terminal (TIOCSTI) or leave it dead by setting its line discipline (TIOCSETD), and " + setidGap + " — use a seccomp profile"}, nil
	}
	if prof == nil { // not read by validate (a built-in, or a pipe that can be read once)
		var err error
		if prof, err = seccomp.Resolve(pol.Seccomp); err != nil {
			return nil, nil, fmt.Errorf("seccomp: %w", err)
		}
	}
	prog, warnings, err := seccomp.Compile(prof)
	if errors.Is(err, seccomp.ErrNotEnabled) && !explicit {
		return nil, []string{"seccomp is not compiled into this omega-run (built without cgo/libseccomp): no system call filter"}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("seccomp: %w", err)
	}
	return prog, warnings, nil
}

// brokerNeeded says whether sandbox mode needs the connect broker under
// pol, and when it needs one but cannot have it, the warning. haveFilter:
// a seccomp filter will be installed (the broker's rules live in it).
// Run, check and explain all decide through it.
func brokerNeeded(pol profiles.Policy, haveFilter bool) (bool, string) {
	switch {
	case landlock.EffectiveABI() >= 9:
		return false, "" // Landlock's RESOLVE_UNIX does the job
	case pol.Seccomp == profiles.SeccompNone:
		return false, "" // compileSeccomp's warning says it
	case !haveFilter:
		return false, "no connect broker without a seccomp filter: " + nsexec.BrokerGap
	}
	return true, ""
}

// connectBroker sets up the connect(2) broker (nsexec.Broker) where
// Landlock cannot refuse host sockets itself. PID 1 gets the built-in
// default filter: it runs only omega-run's code, and the program's
// profile may refuse what the broker needs.
func connectBroker(spec *nsexec.Spec, pol profiles.Policy) (*nsexec.Broker, string) {
	if need, warning := brokerNeeded(pol, spec.Seccomp != nil); !need {
		return nil, warning
	}
	filter, err := seccomp.WithConnectBroker(spec.Seccomp)
	if err != nil {
		return nil, err.Error() + ": " + nsexec.BrokerGap
	}
	sup := spec.Seccomp // already the built-in default, the usual case
	if pol.Seccomp != profiles.SeccompDefault {
		def, err := seccomp.Resolve(string(profiles.SeccompDefault))
		if err == nil {
			sup, _, err = seccomp.Compile(def)
		}
		if err != nil {
			return nil, "connect broker: " + err.Error() + ": " + nsexec.BrokerGap
		}
	}
	// Canonical: PID 1 looks them up without following symlinks.
	var sockets, keep []string
	if spec.Mounts != nil {
		keep = spec.Mounts.Keep
	}
	for _, p := range slices.Concat(pol.AllowSocket, keep) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if !slices.Contains(sockets, p) {
			sockets = append(sockets, p)
		}
	}
	return &nsexec.Broker{Filter: filter, Supervisor: sup, Sockets: sockets}, ""
}

// report logs warnings, or turns them into an error under --fail-closed.
func report(pol profiles.Policy, warnings []string) error {
	if len(warnings) == 0 {
		return nil
	}
	if pol.FailClosed {
		return fmt.Errorf("--fail-closed: %s", strings.Join(warnings, "; "))
	}
	for _, w := range warnings {
		logrus.Warn(w)
	}
	return nil
}

// inheritedFDs are the fds the program gets: 0-2 and the preserved ones.
func inheritedFDs(preserved int) []int {
	fds := make([]int, 3+preserved)
	for i := range fds {
		fds[i] = i
	}
	return fds
}

// noNewPrivs reports whether this process has no_new_privs set.
func noNewPrivs() bool {
	v, err := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)
	return err == nil && v == 1
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// policyWarnings are the gaps a launch and explain both name, in this
// order; mounts: sandbox mode's namespaces will be there.
func policyWarnings(pol profiles.Policy, mounts bool, abi, uid int, limits []rlimits.Limit) []string {
	var warnings []string
	for _, w := range []string{
		rootMetadataWarning(pol, mounts, uid),
		netNoneWarning(pol, mounts, abi),
		selfWritableWarning(pol, mounts),
		nprocRootWarning(limits, uid),
	} {
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return warnings
}

// rootMetadataWarning is the gap of a program that runs as root where
// only Landlock confines it (rx, or sandbox without namespaces): Landlock
// has no rights for chmod, utimes or xattrs, and root owns most of the
// system (chown needs CAP_CHOWN, which the program lacks). Sandbox mode's
// read-only root stops them, and so do an outer omega-run sandbox's
// read-only mounts where it grants no more than this launch.
func rootMetadataWarning(pol profiles.Policy, mounts bool, uid int) string {
	if uid != 0 || mounts || pol.Mode == ModeRWX || outerMountsHold(pol) {
		return ""
	}
	return "the program runs as root without a read-only root, and Landlock does not stop chmod, " +
		"utimes or xattrs: it may change the mode of any root-owned file (chmod 666 /etc/shadow); " +
		outerRemedy("use sandbox mode, or --user", "give --user to the outer omega-run",
			"give sandbox mode or --user to the outer omega-run")
}

// nprocRootWarning says that --rlimit nproc will not hold: the kernel
// never applies RLIMIT_NPROC to the host's uid 0, which a root caller's
// program is in every mode (sandbox mode maps ids one to one).
func nprocRootWarning(limits []rlimits.Limit, uid int) string {
	if uid != 0 || !slices.ContainsFunc(limits, func(l rlimits.Limit) bool { return l.Name == "nproc" }) || !hostRoot() {
		return ""
	}
	return "--rlimit nproc: the kernel does not apply it to a program running as root, which may start any number " +
		"of processes; use --pids (a cgroup limit), or --user"
}

// hostRoot tells whether uid 0 here is the host's: this user namespace
// maps it to 0 (root in a rootless container is another user, and the
// kernel applies nproc to it). One level up only: a nested namespace that
// maps 0 to 0 at every level is rare.
func hostRoot() bool {
	b, _ := os.ReadFile("/proc/self/uid_map")
	for _, line := range strings.Split(string(b), "\n") {
		var inner, outer, count uint64
		if n, _ := fmt.Sscan(line, &inner, &outer, &count); n == 3 && inner == 0 {
			return outer == 0
		}
	}
	return true // no map to read: as on the host
}

// logDenialsWarning says that --log-denials cannot work on this kernel.
func logDenialsWarning(pol profiles.Policy, abi int) string {
	if !pol.LogDenials || pol.Mode == ModeRWX || abi >= 7 {
		return ""
	}
	return fmt.Sprintf("--log-denials: Landlock ABI %d cannot log denials (that came with ABI 7, Linux 6.15): nothing will be recorded", abi)
}

// programUID is the uid the program will run as.
func (p *plan) programUID() int {
	if c := p.credentials(); c != nil {
		return int(c.UID)
	}
	return os.Geteuid()
}

// requiredMounts refuses a launch whose --hide or --read-only only a
// mount namespace can carry out, where user namespaces are unavailable.
func requiredMounts(cause string) error {
	return fmt.Errorf("--hide and --read-only need the sandbox's mounts, and user namespaces are unavailable (%s): fix that, or drop them", cause)
}

func usernsWarning(cause string, pol profiles.Policy) string {
	// What still confines (the Landlock warning says what its absence
	// leaves).
	var with []string
	if landlock.ABI() >= 1 {
		with = append(with, "Landlock")
	}
	if pol.Seccomp != profiles.SeccompNone {
		with = append(with, "seccomp")
	}
	confined := "running with " + strings.Join(with, " and ") + " only"
	if len(with) == 0 {
		confined = "running unconfined"
	}
	head := "user namespaces are unavailable (" + cause + "): " + confined + ", " +
		"without namespaces, masks or a private /proc"
	if outer := outerSandbox(); outer != "" {
		// Nested: no sysctl helps. The outer sandbox keeps programs from
		// making namespaces (its seccomp profile, Landlock, and its
		// read-only /proc keep /proc/<pid>/uid_map unwritable), on purpose.
		return head + "; this omega-run appears to run confined by another (OMEGA_SANDBOX=" + outer + ", no_new_privs set), " +
			"which keeps programs from setting up user namespaces: the outer omega-run's confinement still holds here"
	}
	if cause == foreignProc || cause == noProc {
		return head + "; mount a /proc for this pid namespace (unshare --mount-proc, bwrap --proc /proc)"
	}
	if cause == noUserNSKernel {
		return head + "; a kernel built with CONFIG_USER_NS=y has them"
	}
	if cause == usernsCloneOff {
		return head + "; to enable them run 'sysctl -w kernel.unprivileged_userns_clone=1'"
	}
	if fix := unitFix(cause); fix != "" {
		return head + "; " + fix
	}
	return head + "; to enable them run 'sysctl -w user.max_user_namespaces=15000', " +
		"or on Ubuntu 24.04+ give omega-run an AppArmor profile that allows userns (see README)"
}

func (p *plan) credentials() *nsexec.Credentials {
	if p.ids == nil {
		return nil
	}
	uid, gid := p.ids.uid, p.ids.gid
	if p.process.User == "" {
		uid = uint32(os.Getuid())
	}
	return &nsexec.Credentials{UID: uid, GID: gid, Groups: p.ids.groups}
}

// setEnv is the --setenv list, with PWD=--workdir first when the
// program starts elsewhere than its caller (a shell's stale PWD would
// name the caller's directory) and its environment has a PWD to fix.
func (p *plan) setEnv() []string {
	env := slices.Clone(p.process.SetEnv)
	_, inherited := os.LookupEnv("PWD")
	if p.pwd == "" || p.process.ClearEnv || !inherited || hasEnvKey(env, "PWD") ||
		slices.Contains(p.process.UnsetEnv, "PWD") {
		return env
	}
	return append([]string{"PWD=" + p.pwd}, env...)
}

// netNoneGuard adds seccomp.NetNoneGuard with --net none, in every mode
// that has a filter: vsock ignores the network namespace, and a custom
// profile may allow it.
func netNoneGuard(prog *seccomp.Program, pol profiles.Policy) (*seccomp.Program, error) {
	if prog == nil || pol.Mode == ModeRWX || pol.Net != profiles.NetNone {
		return prog, nil
	}
	return seccomp.NetNoneGuard(prog)
}

// hostGuard adds seccomp.HostGuard to a program that will share the
// host's pid and network namespaces (rx; sandbox mode without user
// namespaces): prlimit on the user's other processes, and with --net
// none the TCP Landlock does not see. --seccomp none has no filter to add
// it to (its warning says what stays open).
func hostGuard(prog *seccomp.Program, pol profiles.Policy) (*seccomp.Program, error) {
	if prog == nil || pol.Mode == ModeRWX {
		return prog, nil
	}
	return seccomp.HostGuard(prog, pol.Net == profiles.NetNone)
}

// prlimitGuard adds seccomp.PrlimitGuard to sandbox mode's filter: PID 1
// and its threads, in the program's pid namespace with its uid, would
// have their limits set otherwise. --seccomp none has no filter to add
// it to (its warning says so).
func prlimitGuard(prog *seccomp.Program, pol profiles.Policy) (*seccomp.Program, error) {
	if prog == nil || pol.Mode != ModeSandbox {
		return prog, nil
	}
	return seccomp.PrlimitGuard(prog)
}
