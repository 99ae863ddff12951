package sandbox

import (
	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/nsexec"
)

// ownWorkdirNote is said, to a terminal, when the program's working
// directory real (its real path) is a tree that sandbox mode replaces
// with its own: the init stage starts the program in the sandbox's own
// (nsexec's privateTree) and says nothing, as a user started in /tmp
// expects its /tmp; this says whose it is, once, for a person who meant
// the host's files there. privateTmp is where the sandbox's /tmp is kept.
// Not /proc: where the host's has parts covered (a container) the init
// stage keeps it, and says so, which the launcher cannot tell before.
func ownWorkdirNote(plan *nsexec.MountPlan, real, privateTmp string) string {
	kept := ""
	switch real {
	case "/tmp":
		if plan.TmpFrom == "" {
			return ""
		}
		kept = " (kept in " + termsafe.String(privateTmp) + ")"
	case "/run", "/var/run":
		if !plan.FreshRun {
			return ""
		}
	case "/dev", "/dev/shm":
	default:
		return ""
	}
	return "working directory " + real + ": the program starts in the sandbox's own " + real + kept +
		", not the host's, which sandbox mode keeps out of reach (--mode rx runs it in the host's)"
}
