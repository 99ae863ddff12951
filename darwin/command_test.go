package darwin

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestArgs(t *testing.T) {
	p := policy(t, profiles.Policy{Mode: profiles.ModeRX, AllowWrite: []string{"/Users/alice/src"}})
	pr, err := Render(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		o    Options
		sbx  string
	}{
		{"default location", Options{}, SandboxExecPath},
		{"injected location", Options{SandboxExec: "/opt/fake/sandbox-exec"}, "/opt/fake/sandbox-exec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Args(p, []string{"/bin/ls", "-l", "--", "a b"}, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			want := append([]string{tt.sbx, "-p", pr.Text}, pr.Defines()...)
			want = append(want, "--", "/bin/ls", "-l", "--", "a b")
			if !slices.Equal(got, want) {
				t.Errorf("Args = %q\nwant   %q", got, want)
			}
		})
	}
}

func TestArgsErrors(t *testing.T) {
	rx := policy(t, profiles.Policy{Mode: profiles.ModeRX})
	rwx := policy(t, profiles.Policy{Mode: profiles.ModeRWX})
	tests := []struct {
		name string
		p    profiles.Policy
		argv []string
		o    Options
	}{
		{"no program", rx, nil, Options{}},
		{"NUL in argument", rx, []string{"/bin/echo", "a\x00b"}, Options{}},
		{"relative sandbox-exec", rx, []string{"/bin/true"}, Options{SandboxExec: "sandbox-exec"}},
		{"rwx has no profile", rwx, []string{"/bin/true"}, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Args(tt.p, tt.argv, tt.o); err == nil {
				t.Error("no error")
			}
		})
	}
}

// fakeSandboxExec puts a file at dir/name with the given mode, or
// nothing when mode is 0, and returns its path.
func fakeSandboxExec(t *testing.T, mode os.FileMode) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "sandbox-exec")
	switch {
	case mode.IsDir():
		if err := os.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
	case mode != 0:
		if err := os.WriteFile(name, []byte("#!/bin/sh\nprintf '%s\\0' \"$@\"\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	return name
}

func TestCommandFallback(t *testing.T) {
	notExist := func(string) error { return fs.ErrNotExist }
	tests := []struct {
		name       string
		mode       os.FileMode // of the fake sandbox-exec; 0: absent
		stat       func(string) error
		failClosed bool
		wantCmd    bool
		wantMissed bool // errors.Is(err, ErrNoSandboxExec)
		wantPlain  bool
	}{
		{name: "present", mode: 0o755, wantCmd: true},
		{name: "present fail-closed", mode: 0o755, failClosed: true, wantCmd: true},
		{name: "missing", wantMissed: true, wantPlain: true},
		{name: "missing fail-closed", failClosed: true, wantMissed: true},
		{name: "injected stat says missing", mode: 0o755, stat: notExist, wantMissed: true, wantPlain: true},
		{name: "not executable", mode: 0o644},
		{name: "a directory", mode: fs.ModeDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := policy(t, profiles.Policy{Mode: profiles.ModeSandbox, FailClosed: tt.failClosed})
			o := Options{SandboxExec: fakeSandboxExec(t, tt.mode), Stat: tt.stat}
			cmd, err := Command(context.Background(), p, "/bin/echo", []string{"echo", "hi"}, o)
			if (cmd != nil) != tt.wantCmd || errors.Is(err, ErrNoSandboxExec) != tt.wantMissed {
				t.Fatalf("Command = %v, %v; want command %v, ErrNoSandboxExec %v", cmd, err, tt.wantCmd, tt.wantMissed)
			}
			plain, warning, ferr := Fallback(p, err)
			if plain != tt.wantPlain || (warning != "") != tt.wantPlain || (ferr == nil) != (err == nil || tt.wantPlain) {
				t.Errorf("Fallback = %v, %q, %v; want plain %v", plain, warning, ferr, tt.wantPlain)
			}
		})
	}
}

func TestCommandRuns(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh for the fake sandbox-exec")
	}
	p := policy(t, profiles.Policy{Mode: profiles.ModeSandbox, AllowWrite: []string{"/Users/alice/a \"b\"\n"}})
	o := Options{SandboxExec: fakeSandboxExec(t, 0o755)}
	cmd, err := Command(context.Background(), p, "/bin/echo", []string{"echo", "it's", ""}, o)
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Path != o.SandboxExec {
		t.Errorf("cmd.Path = %q, want %q", cmd.Path, o.SandboxExec)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	// The fake prints its argv; it must arrive exactly as Args built it,
	// with argv[0] replaced by the program path.
	want, _ := Args(p, []string{"/bin/echo", "it's", ""}, o)
	got := strings.Split(string(out), "\x00")
	if !slices.Equal(got[:len(got)-1], want[1:]) {
		t.Errorf("sandbox-exec got %q\nwant %q", got, want[1:])
	}
}

func TestCommandBadInputBeforeLookup(t *testing.T) {
	p := policy(t, profiles.Policy{Mode: profiles.ModeRX})
	p.DataDir = "relative"
	_, err := Command(context.Background(), p, "/bin/true", nil, Options{SandboxExec: "/nonexistent/sandbox-exec"})
	if err == nil || errors.Is(err, ErrNoSandboxExec) {
		t.Errorf("error = %v, want the policy error (no plain-exec fallback for bad input)", err)
	}
}

func TestExplain(t *testing.T) {
	p := policy(t, profiles.Policy{Mode: profiles.ModeSandbox, Net: profiles.NetNone,
		AllowWrite: []string{"/Users/alice/it's here"}})
	argv := []string{"/bin/echo", "$HOME", "a'b"}
	got, err := Explain(p, argv)
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := Render(p, nil)
	rest, ok := strings.CutPrefix(got, pr.Text)
	if !ok {
		t.Fatalf("Explain does not start with the profile text:\n%s", got)
	}
	line, ok := strings.CutPrefix(rest, "command: ")
	if !ok {
		t.Fatalf("no command: line after the profile:\n%s", rest)
	}
	want, _ := Args(p, argv, Options{})
	if words := runShell(t, strings.TrimSuffix(line, "\n")); !slices.Equal(words, want) {
		t.Errorf("the command line splits into\n%q\nwant\n%q", words, want)
	}
}
