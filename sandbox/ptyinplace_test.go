package sandbox

import (
	"strings"
	"testing"
)

// TestPtyInPlace: where the program replaces omega-run (macOS), --pty is
// said, or refused with --fail-closed, never dropped unsaid.
func TestPtyInPlace(t *testing.T) {
	cases := []struct {
		name             string
		pty, failClosed  bool
		warning, errText string
	}{
		{"off", false, false, "", ""},
		{"off, fail-closed", false, true, "", ""},
		{"on", true, false, "--pty is Linux's", ""},
		{"on, fail-closed", true, true, "", "--fail-closed: --pty is Linux's"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &plan{pty: c.pty}
			p.policy.FailClosed = c.failClosed
			w, err := ptyInPlace(p)
			if !strings.HasPrefix(w, c.warning) || (c.warning == "") != (w == "") {
				t.Errorf("warning %q, want %q…", w, c.warning)
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, c.errText) || (c.errText == "") != (got == "") {
				t.Errorf("error %q, want %q…", got, c.errText)
			}
		})
	}
}
