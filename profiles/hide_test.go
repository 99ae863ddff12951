package profiles

import "testing"

// TestRunsLaterTool: the warning about a RunsLater file a program made
// names the tool that runs it; a name added without one would say "a
// tool".
func TestRunsLaterTool(t *testing.T) {
	for _, n := range RunsLater {
		if RunsLaterTool[n] == "" {
			t.Errorf("RunsLaterTool has no tool for %s", n)
		}
	}
}
