package sandbox

import (
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestHomeWritableWarning(t *testing.T) {
	cases := []struct {
		mode       profiles.Mode
		allowWrite []string
		warn       bool
	}{
		{profiles.ModeSandbox, nil, false},
		{profiles.ModeSandbox, []string{"/h/project"}, false},
		{profiles.ModeSandbox, []string{"/h"}, true},
		{profiles.ModeRX, []string{"/h/"}, true},
		{profiles.ModeSandbox, []string{"/"}, true},
		{profiles.ModeSandbox, []string{"/hx"}, false}, // a sibling, not a parent
		{profiles.ModeRWX, []string{"/h"}, false},      // grants everything anyway
	}
	for _, c := range cases {
		pol := profiles.Policy{Mode: c.mode, Home: "/h", AllowWrite: c.allowWrite}
		w := homeWritableWarning(pol)
		if (w != "") != c.warn || c.warn && !strings.Contains(w, "~/.bashrc") {
			t.Errorf("%s %v: %q, want a warning: %v", c.mode, c.allowWrite, w, c.warn)
		}
	}
}
