//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	if len(lines) != 3 {
		t.Fatalf("want 3 warnings (seccomp none, mount namespace, the OOM score it leaves unraised), got %q", r.stderr)
	}
	for _, l := range lines {
		var m map[string]string
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["level"] != "warning" || m["msg"] == "" || m["time"] == "" {
			t.Errorf("not a JSON warning line: %q (%v)", l, err)
		}
	}
}

// TestJSONErrors: the one line that goes with exit 125, 126 or 127 is a
// JSON object too (level error), whether the CLI, the launcher or the
// init stage writes it, and whether JSON was asked for by flag or
// environment.
func TestJSONErrors(t *testing.T) {
	w := newWorld(t, nobody)
	notExec := filepath.Join(w.home, "notexec")
	writeFile(t, notExec, "#!/bin/sh\n")
	hidden := filepath.Join(w.home, "hidden")
	mustMkdir(t, hidden)
	if err := os.WriteFile(filepath.Join(hidden, "prog"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	chownTree(t, hidden, nobody)
	cases := []struct {
		name string
		env  []string
		args []string
		code int
		msg  string
	}{
		{"not found", nil, []string{"--", "no-such-program-xyz"}, 127, "no-such-program-xyz: command not found"},
		{"not found, env", []string{"OMEGA_RUN_LOG_FORMAT=json"}, []string{"--", "no-such-program-xyz"}, 127, "command not found"},
		{"not executable", nil, []string{"--", notExec}, 126, "permission denied"},
		{"bad flag", nil, []string{"--bogus", "--", "true"}, 125, "unknown flag --bogus"},
		{"bad subcommand flag", nil, []string{"check", "--bogus"}, 125, "unknown flag --bogus"},
		{"refused", nil, []string{"--mode", "rwx", "--net", "none", "--", "true"}, 125, "--net none"},
		// The parent finds the program; in the sandbox it is hidden: the
		// line reads as rx's exec failures do, with no "init: " first.
		{"init stage", nil, []string{"--hide", hidden, "--", filepath.Join(hidden, "prog")}, 127, "exec " + filepath.Join(hidden, "prog") + ": no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if c.env == nil {
				args = append([]string{"--log-format", "json"}, args...)
			}
			r := w.runEnv(c.env, args...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d (stderr %q)", r.code, c.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			var m map[string]string
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil || m["level"] != "error" ||
				!strings.Contains(m["msg"], c.msg) || c.name == "init stage" && !strings.HasPrefix(m["msg"], c.msg) || strings.HasPrefix(m["msg"], "omega-run:") || m["time"] == "" {
				t.Errorf("stderr %q: want a last JSON line with level error and msg …%s… (%v)", r.stderr, c.msg, err)
			}
		})
	}
}
