package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/nsexec"
)

func TestInitPids(t *testing.T) {
	least := "give at least 2"
	if !nsexec.CInit {
		least = "give at least 16"
	}
	for _, tc := range []struct {
		pids int64
		pid1 bool // sandbox mode's
		ok   bool
	}{
		{0, true, true}, {1, true, false}, {2, true, nsexec.CInit}, {15, true, nsexec.CInit}, {16, true, true}, {1000, true, true},
		// rx and rwx: the Go init stage's threads count before the exec.
		{0, false, true}, {1, false, nsexec.CInit}, {15, false, nsexec.CInit}, {16, false, true},
	} {
		err := initPids(tc.pids, tc.pid1)
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), least)) {
			t.Errorf("--pids %d (PID 1 %v): %v, want ok %v", tc.pids, tc.pid1, err, tc.ok)
		}
	}
}
