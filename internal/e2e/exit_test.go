//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes: the program's status, 128+N for signal N, and
// DESIGN.md's launcher codes, each with a one-line message.
func TestExitCodes(t *testing.T) {
	w := newWorld(t, nobody)
	notExec := filepath.Join(w.home, "notexec")
	writeFile(t, notExec, "#!/bin/sh\n")
	noInterp := filepath.Join(w.home, "nointerp")
	writeFile(t, noInterp, "#!/no/such/interp -x\n")
	os.Chmod(noInterp, 0o755)
	cases := []struct {
		name    string
		args    []string
		code    int
		message string
	}{
		{"status", []string{"--", "/bin/sh", "-c", "exit 3"}, 3, ""},
		{"signal", []string{"--", "/bin/sh", "-c", "kill -TERM $$"}, 143, ""},
		{"not-found", []string{"--", "no-such-program-xyz"}, 127, "command not found"},
		{"not-found-path", []string{"--", "/no/such/program"}, 127, "no such file"},
		{"not-executable", []string{"--", notExec}, 126, "permission denied"},
		{"directory", []string{"--", "/usr"}, 126, "is a directory"},
		// 127, as sh, bash and env give; the line says what is missing.
		{"interpreter-missing", []string{"--", noInterp}, 127, "(the file exists: its interpreter /no/such/interp does not)"},
		{"bad-mode", []string{"--mode", "bogus", "--", "true"}, 125, "unknown mode"},
		{"bad-net", []string{"--net", "bogus", "--", "true"}, 125, "unknown network"},
		{"bad-flag", []string{"--bogus", "--", "true"}, 125, "unknown flag --bogus"},
		{"no-program", []string{}, 125, "no program given"},
		{"missing-allow-write", []string{"--allow-write", "/no/such/dir", "--", "true"}, 125, "/no/such/dir"},
		{"uncreatable-data-dir", []string{"--data-dir", "/proc/omega", "--", "true"}, 125, "cannot create"},
		{"allow-write-file", []string{"--allow-write", notExec, "--", "true"}, 125, "--allow-write " + notExec + ": not a directory"},
		{"allow-write-root", []string{"--allow-write", "/", "--", "true"}, 125, "rwx"},
		{"preserve-fds-not-open", []string{"--preserve-fds", "2", "--", "true"}, 125, "fd 3 is not open"},
		{"bad-rlimit", []string{"--rlimit", "nofile=lots", "--", "true"}, 125, "--rlimit"},
		{"bad-setenv", []string{"--setenv", "NOEQUALS", "--", "true"}, 125, "KEY=VALUE"},
	}
	for _, mode := range confinedModes {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				r := w.run(append([]string{"--mode", mode}, c.args...)...)
				if c.name == "bad-mode" {
					r = w.run(c.args...)
				}
				if r.code != c.code {
					t.Errorf("exit %d, want %d (stderr %q)", r.code, c.code, r.stderr)
				}
				if c.message == "" {
					return
				}
				lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "omega-run: ") || !strings.Contains(lines[0], c.message) {
					t.Errorf("stderr = %q, want one line 'omega-run: …%s…'", r.stderr, c.message)
				}
			})
		}
	}
	_ = os.Remove
}
