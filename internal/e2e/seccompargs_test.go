//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSeccompRepeatedArgIndex: a custom profile's rule that checks one
// argument twice means either value under runc, which adds one rule per
// check (libcontainer/seccomp matchCall): Docker users write deny lists
// so ("socket: AF_INET or AF_INET6"). omega-run must deny at least what
// runc denies; before, it required both checks, which no call meets, and
// allowed both families.
func TestSeccompRepeatedArgIndex(t *testing.T) {
	for _, u := range users {
		for _, mode := range []string{"sandbox", "rx"} {
			t.Run(u.name+"/"+mode, func(t *testing.T) {
				w := newWorld(t, u)
				prof := filepath.Join(w.extra, "deny-inet.json")
				writeFile(t, prof, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["socket"], "action": "SCMP_ACT_ERRNO",
					"args": [{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}, {"index": 0, "value": 10, "op": "SCMP_CMP_EQ"}]}]}`)
				r := w.run("--mode", mode, "--seccomp", prof, "--", probe, "udp-loopback")
				if !strings.Contains(r.stdout, "refused") || !strings.Contains(r.stdout, "operation not permitted") {
					t.Errorf("socket(AF_INET) under a profile that denies AF_INET or AF_INET6: exit %d, stdout %q, stderr %.300q", r.code, r.stdout, r.stderr)
				}
			})
		}
	}
}
