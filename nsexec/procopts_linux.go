package nsexec

import (
	"os"
	"strings"
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
	b, _ := os.ReadFile("/proc/self/mountinfo")
	kept := ""
	for _, line := range strings.Split(string(b), "\n") {
		fields := strings.Fields(line)
		sep := -1
		for i, f := range fields {
			if f == "-" {
				sep = i
				break
			}
		}
		if len(fields) < 5 || fields[4] != "/proc" || sep < 0 || len(fields) < sep+4 || fields[sep+1] != "proc" {
			continue
		}
		var opts []string // a later mount on /proc covers this one
		for _, o := range strings.Split(fields[sep+3], ",") {
			if strings.HasPrefix(o, "hidepid=") || strings.HasPrefix(o, "subset=") {
				opts = append(opts, o)
			}
		}
		kept = strings.Join(opts, ",")
	}
	return kept
}
