//go:build linux

package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestPtyWarningLines: a warning omega-run logs while the program runs
// with --pty, when the caller's terminal is raw (no output processing),
// still ends in CR LF: a bare LF would start the next line where the
// warning ended (a staircase). Here the warning is the notify relay's,
// whose service manager's socket is gone.
func TestPtyWarningLines(t *testing.T) {
	for _, u := range users {
		t.Run(u.name, func(t *testing.T) {
			w := newWorld(t, u)
			args := append([]string{"/usr/bin/env", "NOTIFY_SOCKET=/nonexistent/notify", "/bin/sh", "-c", `export SYSTEMD_EXEC_PID=$$; exec "$@"`, "sh"},
				omegaArgs([]string{"--pty"}, "/bin/sh", "-c", "echo ready; systemd-notify --ready; sleep 0.3; echo after")...)
			out, code, _, tio := ptyRun(t, w, "", args...)
			line := regexp.MustCompile(`omega-run: warning: NOTIFY_SOCKET[^\r\n]*\r*\n`).FindString(out)
			if code != 0 || line == "" || !strings.Contains(out, "after") {
				t.Fatalf("exit %d; want the notify relay's warning and the program's output; terminal:\n%q", code, out)
			}
			if !strings.HasSuffix(line, "\r\n") || strings.HasSuffix(line, "\r\r\n") {
				t.Errorf("the warning written to the raw terminal ends in %q, want CR LF; terminal:\n%q", line[len(line)-3:], out)
			}
			checkCooked(t, tio)
		})
	}
}

// TestPtyOutputProcessingKept: with stdout not the caller's terminal —
// a pipeline (omega-run --pty -- prog | cat) or another terminal (here a
// fresh /dev/ptmx) — other programs write to the caller's terminal while
// omega-run has it raw: output processing stays on for them (as sudo
// keeps it), or each line would start where the last one ended.
func TestPtyOutputProcessingKept(t *testing.T) {
	cases := []struct{ name, shell, prog string }{
		{"pipeline", `"$@" | cat`, "sleep 0.3; echo one; echo two; sleep 0.3"},
		{"stdout-other-terminal", `{ sleep 0.3; echo one; echo two; } & "$@" >/dev/ptmx; wait`, "sleep 0.6"},
	}
	for _, u := range users {
		for _, c := range cases {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				out, code, _, tio := ptyRun(t, w, "", "/bin/sh", "-c", c.shell, "sh", bin, "--pty", "--", "/bin/sh", "-c", c.prog)
				if code != 0 || !strings.Contains(out, "two") {
					t.Fatalf("exit %d; terminal:\n%q", code, out)
				}
				if !strings.Contains(out, "one\r\ntwo\r\n") {
					t.Errorf("lines on the raw terminal: want CR LF; terminal:\n%q", out)
				}
				checkCooked(t, tio)
			})
		}
	}
}
