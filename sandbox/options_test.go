package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestResolveProgram(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, nil, 0o644)
	cases := []struct {
		program string
		code    int // 0: resolves
	}{
		{"sh", 0},
		{script, 0},
		{"./run.sh", 0},
		{"no-such-program-xyz", ExitNotFound},
		{"/no/such", ExitNotFound},
		{plain, ExitNotExecutable},
		{dir, ExitNotExecutable},
		{"", ExitLauncher},
	}
	for _, c := range cases {
		path, err := resolveProgram(c.program, lookup{workdir: dir, path: os.Getenv("PATH"), pathSet: true, as: runner{caller: true}})
		var e *Error
		switch {
		case c.code == 0 && err != nil:
			t.Errorf("%q: %v", c.program, err)
		case c.code == 0 && !filepath.IsAbs(path):
			t.Errorf("%q resolved to relative %q", c.program, path)
		case c.code != 0 && (!errors.As(err, &e) || e.Code != c.code):
			t.Errorf("%q: err %v, want code %d", c.program, err, c.code)
		}
	}
}

func TestPolicyPaths(t *testing.T) {
	o := Options{Mode: ModeRX, Home: "/home/u", DataDir: "data", Workdir: "/work", AllowWrite: []string{"out"}}
	p, err := o.Policy()
	if err != nil {
		t.Fatal(err)
	}
	if p.DataDir != "/work/data" || p.AllowWrite[0] != "/work/out" {
		t.Errorf("relative paths resolve against --workdir: %+v", p)
	}
	if p, _ := (Options{Home: "/h"}).Policy(); p.Mode != ModeSandbox || p.DataDir != "/h/.omega" {
		t.Errorf("zero Options: %+v", p)
	}
}

// TestPolicyTilde: a path option that begins with ~ came unexpanded (no
// shell expanded it) and is refused naming the path meant; ./~ and a ~
// inside a name are names.
func TestPolicyTilde(t *testing.T) {
	cases := []struct {
		o    Options
		want string // "" for no error
	}{
		{Options{DataDir: "~/dd"}, "--data-dir '~/dd': no shell expanded this ~"},
		{Options{Workdir: "~"}, "--workdir '~':"},
		{Options{Config: "~/c.toml"}, "write /h/c.toml ('./~/c.toml' for a directory named ~)"},
		{Options{AllowWrite: []string{"/a", "~/p"}}, "--allow-write '~/p':"},
		{Options{Hide: []string{"~/.s"}}, "--hide '~/.s':"},
		{Options{ReadOnly: []string{"~"}}, "write /h ("},
		{Options{AllowSocket: []string{"~/s"}}, "--allow-socket '~/s':"},
		{Options{Seccomp: "~/p.json"}, "--seccomp '~/p.json':"},
		{Options{AllowWrite: []string{"./~", "a~/b", "~b"}}, ""},
	}
	for _, c := range cases {
		c.o.Home, c.o.Mode = "/h", ModeRX
		_, err := c.o.Policy()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

// TestPolicyVariable: a $VAR in a path option came unexpanded (the
// config file, a unit's Environment=): refused, naming the path meant.
func TestPolicyVariable(t *testing.T) {
	t.Setenv("OMEGA_TEST_VAR", "/v")
	os.Unsetenv("OMEGA_TEST_UNSET") // no t.Setenv: it would set it
	cases := []struct {
		o    Options
		want string // "" for no error
	}{
		{Options{AllowWrite: []string{"$HOME/p"}}, "--allow-write '$HOME/p': nothing expanded $HOME (a shell does;"},
		{Options{Hide: []string{"${HOME}/.s"}}, "write /h/.s ('./${HOME}/.s' takes the $ as written)"},
		{Options{DataDir: "$OMEGA_TEST_VAR/d$"}, "write '/v/d$' ("},
		{Options{ReadOnly: []string{"/srv/$OMEGA_TEST_UNSET/x"}}, "$OMEGA_TEST_UNSET is not set here; write the path it stands for ('/./srv/$OMEGA_TEST_UNSET/x' takes the $ as written)"},
		{Options{Config: "${OMEGA_TEST_VAR:-/x}/c"}, "--config '${OMEGA_TEST_VAR:-/x}/c': nothing expanded $OMEGA_TEST_VAR (a shell does; the config file, a unit's Environment= and a program's argument list do not): write the path it stands for"},
		{Options{Seccomp: "a/$_x1.json"}, "$_x1 is not set"},
		{Options{AllowWrite: []string{"./$HOME", "/a$", "/a/$1", "/a/$/b"}}, ""},
		// An absolute path with a $ in a name (WSL's /mnt/c/$Recycle.Bin)
		// had only ./../../ from the working directory.
		{Options{AllowWrite: []string{"/./mnt/c/$Recycle.Bin"}}, ""},
	}
	for _, c := range cases {
		c.o.Home, c.o.Mode = "/h", ModeRX
		_, err := c.o.Policy()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

// TestExplainMissingProgram: explain runs nothing, so a program that
// would not start is a warning in the explanation, not an error.
func TestExplainMissingProgram(t *testing.T) {
	e, err := Options{Home: t.TempDir()}.Explain("no-such-program-xyz")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range e.Warnings {
		found = found || strings.Contains(w, "no-such-program-xyz: command not found")
	}
	if !found || e.Program != "no-such-program-xyz" {
		t.Errorf("explanation %+v lacks the warning", e)
	}
}

// TestExplainToolEnv: explain shows the environment a launch of Claude
// Code gets (CLAUDE_CONFIG_DIR for the state sync), and leaves it out
// where the caller set it.
func TestExplainToolEnv(t *testing.T) {
	home, bin := t.TempDir(), t.TempDir()
	claude := filepath.Join(bin, "claude")
	os.WriteFile(claude, []byte("#!/bin/sh\n"), 0o755)
	want := "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude")
	for _, c := range []struct {
		setEnv []string
		has    bool
	}{{nil, true}, {[]string{"CLAUDE_CONFIG_DIR=/x"}, false}} {
		e, err := Options{Mode: ModeRX, Home: home, Process: Process{SetEnv: c.setEnv}}.Explain(claude)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(e.Env, want) != c.has {
			t.Errorf("--setenv %v: environment %v, want %s there: %v", c.setEnv, e.Env, want, c.has)
		}
	}
}

// TestLookPathLikeExecvp: the program is looked up in its own PATH (as
// --setenv, --unsetenv and --clearenv leave it), execvp's way: a name
// with a slash is a path (/ is a directory, 126), an unset PATH is the
// default path, an empty or relative entry is the working directory, and
// a non-executable match is 126 unless a later entry runs.
func TestLookPathLikeExecvp(t *testing.T) {
	dir := t.TempDir()
	bin, noexec, both := filepath.Join(dir, "bin"), filepath.Join(dir, "noexec"), filepath.Join(dir, "both")
	for _, d := range []string{bin, noexec, both} {
		os.Mkdir(d, 0o755)
	}
	os.WriteFile(filepath.Join(bin, "tool"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(noexec, "tool"), []byte("#!/bin/sh\n"), 0o644)
	os.WriteFile(filepath.Join(noexec, "only"), []byte("#!/bin/sh\n"), 0o644)
	cases := []struct {
		program, path string
		set           bool
		want          string // resolved path, or "126"/"127"
	}{
		{"tool", bin, true, filepath.Join(bin, "tool")},
		{"tool", noexec + ":" + bin, true, filepath.Join(bin, "tool")},
		{"only", noexec + ":" + bin, true, "126"},
		{"tool", "", false, "127"}, // default path: /usr/local/bin:/bin:/usr/bin
		{"sh", "", false, "/bin/sh"},
		{"tool", "bin", true, filepath.Join(bin, "tool")},     // relative entry: from the workdir
		{"tool", ":" + bin, true, filepath.Join(bin, "tool")}, // "" is the workdir, which has no tool
		{"/", os.Getenv("PATH"), true, "126"},
		{"//", os.Getenv("PATH"), true, "126"},
		{"bin/tool", "", true, filepath.Join(bin, "tool")},
	}
	for _, c := range cases {
		got, err := resolveProgram(c.program, lookup{workdir: dir, path: c.path, pathSet: c.set, as: runner{caller: true}})
		var e *Error
		if errors.As(err, &e) {
			got = strconv.Itoa(e.Code)
		}
		if got != c.want {
			t.Errorf("%q with PATH %q (set %v): %q (%v), want %q", c.program, c.path, c.set, got, err, c.want)
		}
	}
	p := Process{SetEnv: []string{"PATH=/a", "X=1", "PATH=/b"}}
	if v, set := p.programPath(); v != "/b" || !set {
		t.Errorf("--setenv PATH twice: %q %v", v, set)
	}
	if _, set := (Process{ClearEnv: true}).programPath(); set {
		t.Error("--clearenv kept PATH")
	}
	if _, set := (Process{UnsetEnv: []string{"PATH"}}).programPath(); set {
		t.Error("--unsetenv PATH kept it")
	}
}
