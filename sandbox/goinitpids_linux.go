package sandbox

import (
	"fmt"

	"github.com/omega-run/omega-run/nsexec"
)

// goInitMinPids is the least --pids the Go init stage's PID 1 runs in:
// its runtime's threads (up to 12 seen, spare ones included) and the
// program's first process. The C init stage's PID 1 has one or two.
const goInitMinPids = 16

// goInitPids refuses a --pids (pids, 0: none) the Go init stage would
// not start under: its runtime ended it, unable to start a thread
// ("fatal error: newosproc", status 2), or the program's fork failed.
func goInitPids(pids int64) error {
	if nsexec.CInit || pids == 0 || pids >= goInitMinPids {
		return nil
	}
	return fmt.Errorf("--pids %d: this build's init stage (Go, a build without cgo) runs up to 12 threads in the group itself: give at least %d", pids, goInitMinPids)
}
