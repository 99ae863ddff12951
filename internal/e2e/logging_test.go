//go:build linux

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONLogs: with --log-format json every line omega-run writes is a
// JSON object with level and msg, the init stage's warnings included, and
// nothing of omega-run's goes to stdout.
func TestJSONLogs(t *testing.T) {
	w := newWorld(t, nobody)
	noMount := []string{probe, "seccomp-exec", sysMount + "=1," + sysMountSetattr + "=1"}
	r := w.under(noMount, "--log-format", "json", "--seccomp", "none", "--", "/bin/echo", "out")
	if r.stdout != "out\n" {
		t.Errorf("stdout = %q, want only the program's output", r.stdout)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 warnings (seccomp none, mount namespace), got %q", r.stderr)
	}
	for _, l := range lines {
		var m map[string]string
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["level"] != "warning" || m["msg"] == "" || m["time"] == "" {
			t.Errorf("not a JSON warning line: %q (%v)", l, err)
		}
	}
}
