//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFallbackProgramSIGSYS: without user namespaces a supervised launch
// (a cgroup limit) has its init stage become the program, so a program
// that a custom profile's SCMP_ACT_KILL_PROCESS kills is what the init
// stage's SIGSYS is: its status (159) must come back, not 125 and a line
// blaming a filter around omega-run for killing the init stage.
func TestFallbackProgramSIGSYS(t *testing.T) {
	requireRoot(t)
	w := newWorld(t, rootUser)
	profile := filepath.Join(w.extra, "kill.json")
	writeFile(t, profile, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["mknodat", "mknod"], "action": "SCMP_ACT_KILL_PROCESS"}]}`)
	r := w.runNoUserns(0,
		bin, "--pids", "100", "--seccomp", profile, "--", "/usr/bin/mknod", filepath.Join(w.extra, "fifo"), "p")
	if !strings.Contains(r.stderr, "user namespaces are unavailable") {
		t.Fatalf("not the fallback: exit %d, stderr %q", r.code, r.stderr)
	}
	if r.code != 159 || strings.Contains(r.stderr, "init stage") {
		t.Errorf("exit %d, stderr %q; want 159, the program's SIGSYS, and no word of the init stage", r.code, r.stderr)
	}
}
