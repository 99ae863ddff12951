package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// settingsFor resolves the run flags of args as a launch would, without
// running anything.
func settingsFor(t *testing.T, args []string) (settings, error) {
	app := newApp()
	app.Metadata = map[string]any{"args": args}
	var s settings
	var err error
	app.Action = func(c *cli.Context) error {
		s, err = resolveSettings(c)
		return nil
	}
	app.Before, app.Commands = nil, nil
	if runErr := app.Run(args); runErr != nil {
		return s, runErr
	}
	return s, err
}

// FuzzFlagValues: a value given to a repeatable flag is one path, or one
// KEY=VALUE, exactly as typed: a comma in a --hide or --read-only path
// used to split it into two other paths, so that the path asked for
// stayed visible or writable, and spaces around a value were cut.
func FuzzFlagValues(f *testing.F) {
	home := f.TempDir()
	old, had := os.LookupEnv("HOME")
	os.Setenv("HOME", home)
	f.Cleanup(func() {
		if had {
			os.Setenv("HOME", old)
		}
	})
	for _, v := range []string{"/srv/a,b", " /srv/a ", "/srv/x", "", "sl:::[]", "a,,b", "\t/x\n"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.HasPrefix(v, "sl:::") {
			t.Skip("urfave/cli reads a value with this prefix as a JSON list")
		}
		args := []string{"omega-run", "--hide", v, "--read-only", v, "--allow-write", v, "--allow-socket", v,
			"--setenv", "K=" + v, "--unsetenv", v, "--", "prog"}
		s, err := settingsFor(t, args)
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		o := s.opts
		for name, got := range map[string][]string{"hide": o.Hide, "read-only": o.ReadOnly, "allow-write": o.AllowWrite,
			"allow-socket": o.AllowSocket, "unsetenv": o.Process.UnsetEnv} {
			if !slices.Equal(got, []string{v}) {
				t.Errorf("--%s %q: got %q", name, v, got)
			}
		}
		if !slices.Equal(o.Process.SetEnv, []string{"K=" + v}) {
			t.Errorf("--setenv K=%q: got %q", v, o.Process.SetEnv)
		}
		// A variable cannot be repeated: there a comma separates paths,
		// and an empty one is unset. It cannot hold a NUL.
		if os.Setenv("OMEGA_RUN_HIDE", v) != nil {
			return
		}
		defer os.Unsetenv("OMEGA_RUN_HIDE")
		s, err = settingsFor(t, []string{"omega-run", "--", "prog"})
		var want []string
		for _, p := range strings.Split(v, ",") {
			want = append(want, strings.TrimSpace(p))
		}
		if v == "" {
			want = nil
		}
		if err != nil || !slices.Equal(s.opts.Hide, want) {
			t.Errorf("OMEGA_RUN_HIDE=%q: got %q (%v), want %q", v, s.opts.Hide, err, want)
		}
	})
}
