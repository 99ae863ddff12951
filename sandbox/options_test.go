package sandbox

import (
	"errors"
	"os"
	"path/filepath"
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
		path, err := resolveProgram(c.program, dir)
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
