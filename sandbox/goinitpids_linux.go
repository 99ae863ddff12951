package sandbox

import (
	"fmt"

	"github.com/omega-run/omega-run/nsexec"
)

// goInitMinPids is the least --pids the Go init stage's PID 1 runs in:
// its runtime's threads (up to 12 seen, spare ones included) and the
// program's first process. The C init stage's PID 1 has one or two.
const goInitMinPids = 16

// initPids refuses a --pids (pids, 0: none) the init stage would not
// start under, in every mode (pid1: sandbox mode's, which stays). The Go
// one's runtime ended it, unable to start a thread ("fatal error:
// newosproc", status 2, or runtime/cgo's abort), or the program's fork
// failed, in rx too, before its exec; under the C one, PID 1 and --pids 1
// left the program no process ("exec: resource temporarily unavailable",
// 126, as if the program were at fault).
func initPids(pids int64, pid1 bool) error {
	switch {
	case pids == 0:
		return nil
	case !nsexec.CInit && pids < goInitMinPids:
		return fmt.Errorf("--pids %d: this build's init stage is the Go one (a build without cgo, or -tags omega_goinit), which runs up to 12 threads in the group itself: give at least %d", pids, goInitMinPids)
	case pid1 && pids < 2:
		return fmt.Errorf("--pids %d: sandbox mode's PID 1 counts in the group too, beside the program: give at least 2 (3 to keep its connect broker's thread)", pids)
	}
	return nil
}
