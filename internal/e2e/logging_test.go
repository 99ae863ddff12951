//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestJSONLinesTerminalSafe: with --log-format json a line that names what
// a file chose (a script's #! interpreter, a hostile repository's) stays
// valid JSON in UTF-8, one object per line, and carries nothing a
// terminal acts on raw: JSON encoders escape C0 controls only, so a C1
// CSI (U+009B), DEL or a bidi override went out as it came, and the C init
// stage copied a byte that is not UTF-8 (a lone 0x9b, CSI to a terminal
// in 8-bit mode) into the line. explain --json's names likewise.
func TestJSONLinesTerminalSafe(t *testing.T) {
	const interp = "/no/x\u009b2J\x9b31m\u202etxt.sh\x7f"
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			script := filepath.Join(w.home, "s\u009b.sh")
			if err := os.WriteFile(script, []byte("#!"+interp+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, mode := range confinedModes {
				r := w.run("--mode", mode, "--log-format", "json", "--", script)
				if r.code != 127 {
					t.Fatalf("%s: exit %d, want 127 (stderr %q)", mode, r.code, r.stderr)
				}
				msg := jsonLinesSafe(t, mode, r.stderr)
				// Nothing lost: the decoded text is the name, the byte
				// that is no UTF-8 read as U+FFFD (as encoding/json does),
				// DEL as ? (the hint's own, before any escaping).
				if want := strings.NewReplacer("\x9b3", "\ufffd3", "\x7f", "?").Replace(interp); !strings.Contains(msg, want) {
					t.Errorf("%s: last msg %q does not name the interpreter %q", mode, msg, want)
				}
			}
			r := w.run("explain", "--json", "--", script)
			if r.code != 0 {
				t.Fatalf("explain: exit %d (stderr %q)", r.code, r.stderr)
			}
			var e struct{ Program string }
			if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e.Program != script || !terminalSafe(r.stdout) {
				t.Errorf("explain --json: program %q (%v), raw controls in the output", e.Program, err)
			}
		})
	}
}

// jsonLinesSafe checks that each line of out is a JSON object in UTF-8
// with nothing raw a terminal acts on, and returns the last one's msg.
func jsonLinesSafe(t *testing.T, what, out string) string {
	t.Helper()
	var m map[string]string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !utf8.ValidString(l) || !json.Valid([]byte(l)) || !terminalSafe(l) {
			t.Errorf("%s: not a terminal-safe JSON line in UTF-8: %q", what, l)
		}
		m = nil
		_ = json.Unmarshal([]byte(l), &m)
	}
	return m["msg"]
}

// terminalSafe: no C0 control but newline, no DEL, C1 control or bidi
// formatting character.
func terminalSafe(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x061c || r == 0x200e || r == 0x200f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
	})
}
