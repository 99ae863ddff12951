package main

import (
	"strings"
	"testing"
)

// TestMisplacedFlags: one of omega-run's distinctive flags after the
// program's name, typed without "--" before the program, is the
// program's argument, which a user took for a grant (omega-run claude
// --allow-write .): a warning names it and where it goes. With "--"
// before the program, or for flags other programs have too, nothing.
func TestMisplacedFlags(t *testing.T) {
	app := newApp()
	for _, c := range []struct {
		args []string
		want string // "" for no warning
	}{
		{[]string{"claude", "--allow-write", "."}, "passes --allow-write . on to claude"},
		{[]string{"--mode", "rx", "claude", "--allow-write=/x", "--fail-closed"}, "passes --allow-write=/x, --fail-closed on to claude"},
		{[]string{"claude", "--writable-git-config"}, "(omega-run --writable-git-config claude)"},
		{[]string{"sh", "-c", "x", "--allow-write", "a b"}, "passes --allow-write 'a b' on to sh"},
		{[]string{"claude", "--allow-write"}, "passes --allow-write on to claude"},
		{[]string{"--", "claude", "--allow-write", "."}, ""},
		{[]string{"--mode", "rx", "--", "claude", "--fail-closed"}, ""},
		{[]string{"claude", "--", "--allow-write", "."}, ""},
		{[]string{"mkdir", "--mode", "755", "d"}, ""},    // mkdir's own
		{[]string{"docker", "run", "--net", "host"}, ""}, // docker's own
		{[]string{"claude", "-allow-write", "."}, ""},
		{[]string{"claude", "--allow-writes", "."}, ""},
		{[]string{"--allow-write", ".", "claude"}, ""},
		{[]string{"explain", "--allow-write", "."}, ""},
		{[]string{"/usr/bin/omega-run", "--allow-write", ".", "claude"}, ""}, // nested: its own flags
	} {
		got := misplacedFlags(append([]string{"omega-run"}, c.args...), app)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}
