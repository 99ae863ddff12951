package main

import (
	"slices"
	"testing"

	"github.com/urfave/cli/v2"
)

// flagNames must answer what urfave/cli's FlagNames answers, whose regexp
// it skips where that would remove nothing.
func TestFlagNamesLikeCLI(t *testing.T) {
	for _, tc := range []struct {
		name    string
		aliases []string
	}{
		{"mode", nil},
		{"allow-write", []string{"w"}},
		{"a,b", nil},
		{"a b", []string{"c"}},
		{"x", []string{"y, z", "q"}},
		{"line\nbreak, more\nlines", nil},
		{"", []string{""}},
	} {
		if got, want := flagNames(tc.name, tc.aliases), cli.FlagNames(tc.name, tc.aliases); !slices.Equal(got, want) {
			t.Errorf("flagNames(%q, %q) = %q, cli.FlagNames: %q", tc.name, tc.aliases, got, want)
		}
	}
}

// Every wrapped flag of every command answers Names() as the flag it
// wraps does.
func TestWrappedFlagNames(t *testing.T) {
	app := newApp()
	all := map[string][]cli.Flag{"omega-run": app.Flags}
	for _, c := range app.Commands {
		all[c.Name] = c.Flags
	}
	wrapped := 0
	for cmd, flags := range all {
		for _, f := range flags {
			inner := unwrapFlag(f)
			if inner == f {
				continue
			}
			wrapped++
			if got, want := f.Names(), inner.Names(); !slices.Equal(got, want) {
				t.Errorf("%s: Names() = %q, the wrapped flag's: %q", cmd, got, want)
			}
		}
	}
	if wrapped < 60 {
		t.Errorf("%d wrapped flags; newApp wraps the run flags of three commands", wrapped)
	}
}

func BenchmarkNewApp(b *testing.B) {
	for b.Loop() {
		newApp()
	}
}
