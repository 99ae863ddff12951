//go:build linux

package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestUserSwitch: root runs the program as another user with cleared or
// given supplementary groups; anyone else is refused.
func TestUserSwitch(t *testing.T) {
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, rootUser)
			r := w.run("--mode", mode, "--user", "nobody", "--", "id")
			if !strings.HasPrefix(r.stdout, "uid=65534(nobody) gid=65534(nogroup) groups=65534(nogroup)\n") {
				t.Errorf("--user nobody: %q (%s)", r.stdout, r.stderr)
			}
			r = w.run("--mode", mode, "--user", "nobody", "--group", "daemon", "--groups", "adm,4", "--", "id")
			if got := strings.TrimSpace(r.stdout); got != "uid=65534(nobody) gid=1(daemon) groups=1(daemon),4(adm)" {
				t.Errorf("--group/--groups: %q (%s)", got, r.stderr)
			}
		})
	}
	w := newWorld(t, nobody)
	r := w.run("--user", "root", "--", "id")
	if r.code != 125 || !strings.Contains(r.stderr, "need omega-run to run as root") {
		t.Errorf("non-root --user: exit %d %q", r.code, r.stderr)
	}
	if r := newWorld(t, rootUser).run("--user", "no-such-user-xyz", "--", "id"); r.code != 125 {
		t.Errorf("unknown user: exit %d", r.code)
	}
}

// TestEnvironmentFlags is table-driven over bubblewrap's flag names.
func TestEnvironmentFlags(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string // exact environment, sorted, or nil when only contains
		has  []string
		not  []string
		code int
	}{
		{name: "clearenv", args: []string{"--clearenv"}, want: []string{"OMEGA_SANDBOX=MODE"}},
		{name: "clearenv+setenv", args: []string{"--clearenv", "--setenv", "A=1", "--setenv", "B=x=y"}, want: []string{"A=1", "B=x=y", "OMEGA_SANDBOX=MODE"}},
		{name: "setenv overrides", args: []string{"--setenv", "LANG=fr"}, has: []string{"LANG=fr", "HOME="}, not: []string{"LANG=C"}},
		{name: "unsetenv", args: []string{"--unsetenv", "LANG"}, has: []string{"PATH="}, not: []string{"LANG="}},
		{name: "cannot override OMEGA_SANDBOX", args: []string{"--setenv", "OMEGA_SANDBOX=fake"}, has: []string{"OMEGA_SANDBOX=MODE"}, not: []string{"OMEGA_SANDBOX=fake"}},
		{name: "bad setenv", args: []string{"--setenv", "NOEQUALS"}, code: 125},
		{name: "bad unsetenv", args: []string{"--unsetenv", "A=B"}, code: 125},
		// Sets and unsets are not applied in command-line order, so one
		// key in both is ambiguous.
		{name: "setenv then unsetenv", args: []string{"--setenv", "A=1", "--unsetenv", "A"}, code: 125},
		{name: "unsetenv then setenv", args: []string{"--unsetenv", "A", "--setenv", "A=1"}, code: 125},
	}
	for _, mode := range append([]string{"rwx"}, confinedModes...) {
		for _, c := range cases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, nobody)
				r := w.run(append(append([]string{"--mode", mode}, c.args...), "--", "/usr/bin/env")...)
				if r.code != c.code {
					t.Fatalf("exit %d, want %d (%s)", r.code, c.code, r.stderr)
				}
				env := strings.Split(strings.TrimSpace(r.stdout), "\n")
				fix := func(s string) string { return strings.ReplaceAll(s, "MODE", mode) }
				if c.want != nil {
					slices.Sort(env)
					want := make([]string, len(c.want))
					for i, s := range c.want {
						want[i] = fix(s)
					}
					if !slices.Equal(env, want) {
						t.Errorf("env = %q, want %q", env, want)
					}
				}
				for _, h := range c.has {
					if !slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, fix(h)) }) {
						t.Errorf("env lacks %s: %q", fix(h), env)
					}
				}
				for _, n := range c.not {
					if slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, fix(n)) }) {
						t.Errorf("env has %s: %q", fix(n), env)
					}
				}
			})
		}
	}
}

// TestHostname: set in the sandbox's uts namespace, refused elsewhere.
func TestHostname(t *testing.T) {
	w := newWorld(t, nobody)
	if r := w.run("--hostname", "box", "--", "hostname"); strings.TrimSpace(r.stdout) != "box" {
		t.Errorf("sandbox --hostname: %q (%s)", r.stdout, r.stderr)
	}
	if r := w.run("--mode", "rx", "--hostname", "box", "--", "hostname"); r.code != 125 {
		t.Errorf("rx --hostname: exit %d, want 125", r.code)
	}
}
