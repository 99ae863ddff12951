package sandbox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/landlock"
	"github.com/omega-run/omega-run/nsexec"
	"github.com/omega-run/omega-run/profiles"
)

// maskSockets adds the host sockets to the plan's HideFiles, after the
// pins: their paths are canonical and outside the writable set. The
// warning about other users' sockets left unmasked is among those it
// returns: a launch says it apart (otherSockets).
func maskSockets(pol profiles.Policy, plan *nsexec.MountPlan, uid int, aliases *mountAliases) []string {
	socks, dropped, err := hostSockets(pol, plan, uid, aliases)
	plan.HideFiles = append(plan.HideFiles, socks...)
	plan.HideFiles = append(plan.HideFiles, keptFIFOs(plan)...)
	var warnings []string
	switch {
	case err == nil || landlock.EffectiveABI() >= 9: // RESOLVE_UNIX refuses them all
	case pol.Seccomp == profiles.SeccompNone:
		// Neither the connect broker (none without a filter) nor
		// Landlock refuses them then.
		warnings = append(warnings, socketGaps[0]+err.Error())
	default:
		// The broker refuses connect(2), but sees no sendto(2): before,
		// this was said with --seccomp none only (TestHostSocketsUnlisted).
		warnings = append(warnings, socketGaps[1]+err.Error())
	}
	// procHidesOthers reads the mount table (0.05 ms): only where its
	// answer can be said, not at every unprivileged launch.
	if pol.Net == profiles.NetNone && landlock.EffectiveABI() < 9 {
		if h := procHidesOthers(); h != "" {
			warnings = append(warnings, socketGaps[2]+h+", which hides other users' processes: the unix sockets they bound "+
				"in other network namespaces (a container's) are not masked, and a datagram sent to one gets through; "+
				"run omega-run where /proc shows them (its gid= group)")
		}
	}
	if dropped > 0 {
		warnings = append(warnings, fmt.Sprintf(otherSocketsWords+"%d more unix sockets bound than the %d of theirs omega-run masks: those are not masked "+
			"(connect(2) to them is refused only by the connect broker, where there is one: omega-run check; a datagram sent to one is not); "+
			"--net none masks them all", dropped, maxOtherSockets))
	}
	return warnings
}

// socketGaps start maskSockets' warnings about sockets its masks miss.
// Without namespaces nothing is masked, and notHidden says what stays
// open: there they are moot (socketGap), and one spoke of a connect
// broker the fallback does not have.
var socketGaps = []string{
	"host sockets bound before the start stay reachable: ",
	"a datagram sent to a host socket bound before the start outside /tmp, /run and the writable set gets through " +
		"(the connect broker refuses connect(2) only): ",
	"/proc is mounted with ",
}

func socketGap(w string) bool {
	return slices.ContainsFunc(socketGaps, func(p string) bool { return strings.HasPrefix(w, p) })
}
