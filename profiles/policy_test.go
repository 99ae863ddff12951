package profiles

import (
	"reflect"
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	cases := []struct {
		name     string
		in       Policy
		writable []string
		err      string
	}{
		{name: "defaults", in: Policy{Mode: ModeSandbox, Home: "/home/a"},
			writable: []string{"/home/a/.omega", "/tmp", "/home/a/.claude"}},
		{name: "data dir and extra", in: Policy{Mode: ModeRX, Home: "/home/a", DataDir: "/srv/d/", AllowWrite: []string{"/w", "/tmp"}},
			writable: []string{"/srv/d", "/tmp", "/home/a/.claude", "/w"}},
		{name: "bad mode", in: Policy{Mode: "x", Home: "/h"}, err: `unknown mode "x"`},
		{name: "bad net", in: Policy{Mode: ModeRX, Home: "/h", Net: "wifi"}, err: `unknown network "wifi"`},
		{name: "relative home", in: Policy{Mode: ModeRX, Home: "h"}, err: "not an absolute path"},
		{name: "relative allow-write", in: Policy{Mode: ModeRX, Home: "/h", AllowWrite: []string{"w"}}, err: "not an absolute path"},
		{name: "allow-write root", in: Policy{Mode: ModeRX, Home: "/h", AllowWrite: []string{"/"}}, err: "--mode rwx"},
		{name: "data dir root", in: Policy{Mode: ModeRX, Home: "/h", DataDir: "/"}, err: "cannot be /"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := New(c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Writable, c.writable) {
				t.Errorf("writable = %v, want %v", p.Writable, c.writable)
			}
			if p.Net != NetHost || p.Seccomp != SeccompDefault {
				t.Errorf("defaults: net %q seccomp %q", p.Net, p.Seccomp)
			}
		})
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseMode("RX"); err == nil {
		t.Error("modes are case-sensitive")
	}
}

// TestNewDedupes: a path given twice (or as /x and /x/) is kept once, so
// that it warns and mounts once.
func TestNewDedupes(t *testing.T) {
	p, err := New(Policy{Mode: ModeSandbox, Home: "/h", Hide: []string{"/a", "/a/", "/b", "/a"}, ReadOnly: []string{"/h/.omega/x", "/h/.omega/x"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Hide, []string{"/a", "/b"}) || !reflect.DeepEqual(p.ReadOnly, []string{"/h/.omega/x"}) {
		t.Errorf("hide %v, read-only %v", p.Hide, p.ReadOnly)
	}
}
