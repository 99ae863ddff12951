package nsexec

import (
	"os"
	"strings"

	"github.com/omega-run/omega-run/internal/mountinfo"
)

// procOptions is the hidepid= and subset= options of the topmost proc
// mounted on /proc ("" where none), for the sandbox's fresh one: a unit's
// ProtectProc= and ProcSubset= set them, and a fresh /proc without them
// would show again what they hide. gid= is left out: it would let a
// group see more. cinit_procopts.c does the same in C.
func procOptions() string {
	// As in C: without subset= there is nothing to keep that matters.
	if _, err := os.Stat("/proc/sys"); err == nil {
		return ""
	}
	mounts, _ := mountinfo.Read()
	kept := ""
	for _, m := range mounts {
		if m.Point != "/proc" || m.FSType != "proc" {
			continue
		}
		var opts []string // a later mount on /proc covers this one
		for _, o := range strings.Split(m.SuperOptions, ",") {
			if strings.HasPrefix(o, "hidepid=") || strings.HasPrefix(o, "subset=") {
				opts = append(opts, o)
			}
		}
		kept = strings.Join(opts, ",")
	}
	return kept
}
