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
		ok   bool
	}{
		{0, true}, {1, false}, {2, nsexec.CInit}, {15, nsexec.CInit}, {16, true}, {1000, true},
	} {
		err := initPids(tc.pids)
		if (err == nil) != tc.ok || (err != nil && !strings.Contains(err.Error(), least)) {
			t.Errorf("--pids %d: %v, want ok %v", tc.pids, err, tc.ok)
		}
	}
}
