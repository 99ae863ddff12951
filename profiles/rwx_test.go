package profiles

import (
	"errors"
	"strings"
	"testing"
)

// TestRWX: rwx refuses every setting that asks for a restriction or a
// namespace it does not apply, and accepts those that only grant.
func TestRWX(t *testing.T) {
	cases := []struct {
		name    string
		in      Policy
		refused string // RWXError.Flag, "" when accepted
	}{
		{"plain", Policy{}, ""},
		{"net host", Policy{Net: NetHost}, ""},
		{"seccomp none", Policy{Seccomp: SeccompNone}, ""},
		{"allow-write", Policy{AllowWrite: []string{"/srv"}}, ""},
		{"allow-write root", Policy{AllowWrite: []string{"/"}}, ""},
		{"allow-socket", Policy{AllowSocket: []string{"/run/s"}}, ""},
		{"writable git config", Policy{WritableGitConfig: true}, ""},
		{"net none", Policy{Net: NetNone}, "net"},
		{"seccomp default", Policy{Seccomp: SeccompDefault}, "seccomp"},
		{"seccomp typo", Policy{Seccomp: "stirct"}, "seccomp"},
		{"seccomp file", Policy{Seccomp: "/etc/p.json"}, "seccomp"},
		{"fail-closed", Policy{FailClosed: true}, "fail-closed"},
		{"hide", Policy{Hide: []string{"/h"}}, "hide"},
		{"read-only", Policy{ReadOnly: []string{"/r"}}, "read-only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.in.Mode, c.in.Home = ModeRWX, "/home/a"
			p, err := New(c.in)
			var re *RWXError
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused == "" && p.Seccomp != SeccompNone:
				t.Errorf("seccomp %q, want none (rwx applies no filter)", p.Seccomp)
			case c.refused != "" && !errors.As(err, &re):
				t.Fatalf("err = %v, want an RWXError for --%s", err, c.refused)
			case c.refused != "" && re.Flag != c.refused:
				t.Errorf("refused --%s, want --%s (%v)", re.Flag, c.refused, err)
			}
		})
	}
}

// TestRWXErrorNamesModes: the message offers only the modes that apply
// the setting: rx refuses --hide and --read-only too.
func TestRWXErrorNamesModes(t *testing.T) {
	for flag, want := range map[string]string{
		"net":       "(drop it, or use --mode sandbox or rx)",
		"seccomp":   "(drop it, or use --mode sandbox or rx)",
		"hide":      "(drop it, or use --mode sandbox)",
		"read-only": "(drop it, or use --mode sandbox)",
	} {
		msg := (&RWXError{Flag: flag, Value: "x"}).Error()
		if !strings.HasSuffix(msg, want) {
			t.Errorf("--%s: %q, want it to end %q", flag, msg, want)
		}
	}
}
