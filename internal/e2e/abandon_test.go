//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNothingLeftBehind: the sandbox starts its init stage while it still
// computes the spec. When computing it fails after the start (an unreadable
// or malformed seccomp profile), the launch ends with 125 and one line,
// the init stage says nothing, and no process is left behind — judged by
// a subreaper around omega-run, which inherits any orphan. A launch that
// runs leaves nothing either.
func TestNothingLeftBehind(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		bad := filepath.Join(w.home, "bad.json")
		writeFile(t, bad, `{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [`)
		cases := []struct {
			name    string
			args    []string
			code    string
			message string
		}{
			{"missing-profile", []string{"--seccomp", "/no/such/profile.json", "--", "true"}, "exit 125", "no such file"},
			{"malformed-profile", []string{"--seccomp", bad, "--", "true"}, "exit 125", "bad.json"},
			{"runs", []string{"--", "sh", "-c", "sleep 0.05 & exit 3"}, "exit 3", ""},
		}
		for _, c := range cases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				r := w.runProg(probe, append([]string{"subreaper", bin, "--mode", "sandbox"}, c.args...)...)
				if r.code != 0 || !strings.Contains(r.stdout, c.code+"\n") {
					t.Fatalf("want %q and nothing left behind; stdout %q stderr %q", c.code, r.stdout, r.stderr)
				}
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				for _, l := range lines {
					if c.message == "" && l != "" && !strings.HasPrefix(l, "omega-run: warning: ") {
						t.Errorf("stderr = %q, want warnings at most", r.stderr)
					}
				}
				if c.message != "" && (len(lines) != 1 || !strings.HasPrefix(lines[0], "omega-run: ") || !strings.Contains(lines[0], c.message)) {
					t.Errorf("stderr = %q, want one line 'omega-run: …%s…'", r.stderr, c.message)
				}
			})
		}
	}
}
