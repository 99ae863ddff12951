package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/cgroups"
)

// TestRefusedBeforeCreating: what a launch refuses, explain refuses with
// the same message, and the refused launch leaves no data dir behind.
func TestRefusedBeforeCreating(t *testing.T) {
	dir := t.TempDir()
	badProfile := filepath.Join(dir, "bad.json")
	os.WriteFile(badProfile, []byte(`{"defaultAction": "SCMP_ACT_ALLOW",`), 0o644)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"allow-write missing", Options{AllowWrite: []string{"/no/such/dir"}}, "--allow-write /no/such/dir: no such file or directory (mkdir -p /no/such/dir creates it)"},
		{"allow-write a file", Options{AllowWrite: []string{file}}, "not a directory"},
		{"read-only missing", Options{ReadOnly: []string{"/no/such"}}, "--read-only /no/such: no such file"},
		{"socket missing", Options{AllowSocket: []string{"/no/such.sock"}}, "--allow-socket /no/such.sock: no such file"},
		{"workdir missing", Options{Workdir: "/no/such/dir"}, "--workdir /no/such/dir: no such file"},
		{"workdir a file", Options{Workdir: file}, "--workdir " + file + ": not a directory"},
		{"seccomp file missing", Options{Mode: ModeRX, Seccomp: "/no/such.json"}, "--seccomp /no/such.json: no such file or directory"},
		{"seccomp file malformed", Options{Seccomp: badProfile}, "bad.json:1:"},
		{"bad rlimit", Options{Process: Process{Rlimits: []string{"nofile"}}}, `--rlimit: invalid resource limit "nofile"`},
		{"hostname outside sandbox", Options{Mode: ModeRX, Process: Process{Hostname: "h"}}, "--hostname needs --mode sandbox"},
		{"pty in rx", Options{Mode: ModeRX, PTY: true}, "--pty needs --mode sandbox"},
		{"pty in rwx", Options{Mode: ModeRWX, PTY: true}, "--pty needs --mode sandbox"},
		{"negative preserve-fds", Options{PreserveFDs: -1}, "--preserve-fds -1: want 0 or more"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.o.Home = t.TempDir()
			c.o.DataDir = filepath.Join(c.o.Home, "data")
			_, explainErr := c.o.Explain("")
			_, err := c.o.prepare("true", nil)
			var e *Error
			if !errors.As(err, &e) || e.Code != ExitLauncher || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("launch: %v, want exit %d and %q", err, ExitLauncher, c.want)
			}
			if explainErr == nil || explainErr.Error() != err.Error() {
				t.Errorf("explain: %v, want the launch's error", explainErr)
			}
			if _, err := os.Stat(c.o.DataDir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the refused launch created the data dir (%v)", err)
			}
		})
	}
}

// TestAllowWriteCreatedDir: a writable root the launch creates (here the
// workspace of a new data dir) may be named before it exists.
func TestAllowWriteCreatedDir(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data")
	o := Options{Home: home, DataDir: data, AllowWrite: []string{filepath.Join(data, "workspace")}}
	if _, err := o.Explain(""); err != nil {
		t.Fatalf("explain: %v", err)
	}
	if _, err := o.prepare("true", nil); err != nil {
		t.Fatalf("launch: %v", err)
	}
	if st, err := os.Stat(filepath.Join(data, "workspace")); err != nil || !st.IsDir() {
		t.Errorf("workspace not created: %v", err)
	}
}

// TestDataDirNotADirectory: a file where the data dir should be is named
// as such, by the launch and by explain.
func TestDataDirNotADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ dir, want string }{
		{file, "data dir " + file + " is a file, not a directory"},
		{filepath.Join(file, "sub"), "data dir " + filepath.Join(file, "sub") + ": a file is in its path"},
	} {
		for _, mode := range []Mode{ModeSandbox, ModeRX} {
			o := Options{Mode: mode, Home: t.TempDir(), DataDir: c.dir}
			_, err := o.prepare("true", nil)
			_, explainErr := o.Explain("")
			if err == nil || err.Error() != c.want || explainErr == nil || explainErr.Error() != c.want {
				t.Errorf("%s %s: launch %v, explain %v; want %q", mode, c.dir, err, explainErr, c.want)
			}
		}
	}
}

// TestUnknownUser: --user and --group name what is unknown, once.
func TestUnknownUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("--user needs root") // CI runs as root
	}
	for _, c := range []struct {
		p    Process
		want string
	}{
		{Process{User: "no-such-user-xyz"}, "--user no-such-user-xyz: no such user"},
		{Process{User: "0", Group: "no-such-group-xyz"}, "--group no-such-group-xyz: no such group"},
	} {
		o := Options{Home: t.TempDir(), Process: c.p}
		if _, err := o.prepare("true", nil); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
}

// TestCommandCgroupRefusals: a command's cgroup limits are refused before
// anything starts when they are bad, or when this host offers no group
// for them (unprivileged without a delegated cgroup, not Linux).
func TestCommandCgroupRefusals(t *testing.T) {
	for _, c := range []struct {
		p    Process
		want string
	}{
		{Process{Memory: "1K"}, `--memory "1K": below the minimum 6M`},
		{Process{Pids: "0"}, `--pids "0": want a whole number`},
	} {
		o := Options{Mode: ModeRX, Home: t.TempDir(), Process: c.p}
		var e *Error
		if _, err := o.CommandContext(context.Background(), "true"); !errors.As(err, &e) || e.Code != ExitLauncher || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
	l := cgroups.Limits{Pids: 64}
	if cgroups.Probe(l) == nil {
		t.Skip("this process can create cgroups")
	}
	o := Options{Mode: ModeRX, Home: t.TempDir(), Process: Process{Pids: "64"}}
	var e *Error
	if _, err := o.CommandContext(context.Background(), "true"); !errors.As(err, &e) || e.Code != ExitLauncher || !errors.Is(err, cgroups.ErrUnavailable) {
		t.Errorf("%v, want a refusal wrapping cgroups.ErrUnavailable", err)
	}
}
