package sandbox

import (
	"os"

	"github.com/omega-run/omega-run/profiles"
)

// outerSandbox is the confined mode of the omega-run this one runs
// inside ("" where none): OMEGA_SANDBOX, which every confined program
// gets. The variable alone could be inherited; no_new_privs, which every
// confined program has, backs it.
func outerSandbox() string {
	outer := os.Getenv("OMEGA_SANDBOX")
	if (outer == string(profiles.ModeSandbox) || outer == string(profiles.ModeRX)) && noNewPrivs() {
		return outer
	}
	return ""
}

// insideOuterMounts tells whether this launch runs inside an outer
// sandbox-mode omega-run whose mounts are in place: its read-only root
// and read-only private /proc. A sandbox-mode launch that fell back to
// running without namespaces sets OMEGA_SANDBOX=sandbox as well, but
// mounts nothing: in a container with a read-only root (no user
// namespaces there) / is read-only too, while /proc stays the
// container's, writable, as /run and /tmp and the host's sockets do.
func insideOuterMounts() bool {
	return outerSandbox() == string(ModeSandbox) && onReadOnlyMount("/") && onReadOnlyMount("/proc")
}

// outerRemedy picks the remedy a warning names: here, or inside an outer
// sandbox or rx (with the variable that tells, as the text names "the
// outer omega-run"). Inside another omega-run sandbox mode is what runs
// already, without namespaces, and --user lacks CAP_SETUID: what helps
// goes to the outer one; an outer rx has no namespaces either.
func outerRemedy(here, inSandbox, inRX string) string {
	switch outer := outerSandbox(); outer {
	case string(ModeSandbox):
		return inSandbox + " (OMEGA_SANDBOX=" + outer + ")"
	case string(ModeRX):
		return inRX + " (OMEGA_SANDBOX=" + outer + ")"
	}
	return here
}
