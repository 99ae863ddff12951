package sandbox

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestStateChangesBounded: the report after a Claude Code session decodes
// the state the program left (up to maxState, 64 MiB). Many small MCP
// servers, or projects, had the launcher hold about 30 times the file
// (2 GB, 40 s for 63 MB); now what it allocates stays within 16 times it (it was 40 to 80).
func TestStateChangesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 20 MB state")
	}
	servers := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"s%d":{"command":"x"}`, i)
		}
		return b.String()
	}
	projects := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"/p%d":{"mcpServers":{"a":1}}`, i)
		}
		return b.String()
	}
	for _, c := range []struct{ name, state, want string }{
		{"servers", `{"mcpServers":{` + servers(800_000) + `}}`, `"mcpServers"`},
		{"projects", `{"projects":{` + projects(600_000) + `}}`, "projects in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out := stateChanges("~/.claude.json", []byte("{}"), []byte(c.state))
			runtime.ReadMemStats(&after)
			if len(out) == 0 || !strings.Contains(out[0], c.want) {
				t.Errorf("%d lines, the first %q: want a change named", len(out), out[:min(len(out), 1)])
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d MB state: %d MB allocated", len(c.state)>>20, alloc>>20)
			if limit := uint64(16*len(c.state)) + 16<<20; alloc > limit {
				t.Errorf("%d MB allocated for a %d MB state, more than %d MB", alloc>>20, len(c.state)>>20, limit>>20)
			}
		})
	}
}
