package sandbox

import (
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/mountinfo"
)

// procHidesOthers is the hidepid= option of the /proc the launcher sees
// where it hides other users' processes from it, or "". otherUnixTables
// finds the other network namespaces' sockets through those processes:
// hidden ones leave theirs unmasked (TestNetNoneHiddenProcSockets).
// CAP_SYS_PTRACE passes hidepid's check, and so does a member of its
// gid= group. A mount table that cannot be read is said elsewhere.
func procHidesOthers() string {
	if hasCaps(unix.CAP_SYS_PTRACE) {
		return ""
	}
	mounts, err := mountinfo.Read()
	if err != nil {
		return ""
	}
	hide, gid := "", -1
	for _, m := range mounts {
		if m.Point != "/proc" || m.FSType != "proc" {
			continue
		}
		hide, gid = "", -1 // a later mount on /proc covers this one
		for _, o := range strings.Split(m.SuperOptions, ",") {
			k, v, _ := strings.Cut(o, "=")
			switch {
			case k == "hidepid" && v != "0" && v != "off":
				hide = o
			case k == "gid":
				gid, _ = strconv.Atoi(v)
			}
		}
	}
	if groups, _ := os.Getgroups(); hide != "" && gid >= 0 && (os.Getegid() == gid || slices.Contains(groups, gid)) {
		return ""
	}
	return hide
}
