package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sirupsen/logrus"
)

// TestBadInput: every bad input exits 125 before anything runs. (Runs
// that succeed would exec over the test binary; internal/e2e covers them.)
func TestBadInput(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"unknown mode", []string{"--mode", "x", "--", "true"}, nil},
		{"unknown mode from env", []string{"--", "true"}, map[string]string{"OMEGA_SANDBOX_MODE": "nope"}},
		{"unknown net", []string{"--net", "x", "--", "true"}, nil},
		{"unknown flag", []string{"--nope", "--", "true"}, nil},
		{"no program", nil, nil},
		{"bad log level", []string{"--log-level", "loud", "--", "true"}, nil},
		{"bad log format", []string{"--log-format", "xml", "--", "true"}, nil},
		{"missing allow-write", []string{"--allow-write", "/no/such/dir", "--", "true"}, nil},
		{"explain for another OS", []string{"explain", "--os", "plan9"}, nil},
		{"unknown mode before a subcommand", []string{"--mode", "x", "explain"}, nil},
		{"empty data dir", []string{"--data-dir", "", "--", "true"}, nil},
		{"empty seccomp", []string{"--seccomp=", "--", "true"}, nil},
		{"empty workdir to explain", []string{"explain", "--workdir", ""}, nil},
		{"data dir is a file", []string{"--", "true"}, map[string]string{"OMEGA_DATA_DIR": file}},
		{"data dir below a file", []string{"--mode", "rx", "--", "true"}, map[string]string{"OMEGA_DATA_DIR": file + "/x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			if got := run(append([]string{"omega-run"}, c.args...)); got != 125 {
				t.Errorf("exit %d, want 125", got)
			}
		})
	}
}

// TestEmptyEnvIsUnset: an empty variable means its default, as usual
// for the environment (an empty flag is refused: TestBadInput).
func TestEmptyEnvIsUnset(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("OMEGA_DATA_DIR", "")
	t.Setenv("OMEGA_RUN_SECCOMP", "")
	if got := run([]string{"omega-run", "explain", "--json"}); got != 0 {
		t.Errorf("explain with empty variables: exit %d, want 0", got)
	}
}

// TestFlagBeatsEnv: a flag overrides its environment variable.
func TestFlagBeatsEnv(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("OMEGA_SANDBOX_MODE", "bogus")
	if got := run([]string{"omega-run", "explain", "--mode", "rx", "--json"}); got != 0 {
		t.Errorf("explain --mode rx with a bad env mode: exit %d, want 0", got)
	}
	// Given before the subcommand, the flag lives in the parent context.
	if got := run([]string{"omega-run", "--mode", "rx", "explain", "--json"}); got != 0 {
		t.Errorf("--mode rx explain with a bad env mode: exit %d, want 0", got)
	}
}

func TestNotFound(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	if got := run([]string{"omega-run", "--", "no-such-program-xyz"}); got != 127 {
		t.Errorf("exit %d, want 127", got)
	}
}

// TestNotFoundCommandHint: a program not found that reads like a
// command of omega-run's, typed without "--", gets the command it may
// have meant; after "--" it is a program's name as given.
func TestNotFoundCommandHint(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"version"}, "omega-run: version: command not found (omega-run's own version: omega-run --version)\n"},
		{[]string{"--mode", "rx", "explian"}, "omega-run: explian: command not found; did you mean the command omega-run explain?\n"},
		{[]string{"chekc", "--json"}, "omega-run: chekc: command not found; did you mean the command omega-run check?\n"},
		{[]string{"--", "version"}, "omega-run: version: command not found\n"},
		{[]string{"frobnicate"}, "omega-run: frobnicate: command not found\n"},
		{[]string{"chck"}, "omega-run: chck: command not found; did you mean the command omega-run check?\n"},
		{[]string{"helm"}, "omega-run: helm: command not found\n"}, // a program, not a typo of help
		{[]string{"checkov"}, "omega-run: checkov: command not found\n"},
		// A command line quoted as one word.
		{[]string{"--", "ls -l"}, "omega-run: ls -l: command not found (a program name with a space in it: to run a command line, drop the quotes or use sh -c 'ls -l')\n"},
	} {
		_, stderr, code := runCaptured(t, c.args...)
		if code != 127 || stderr != c.want {
			t.Errorf("%q: exit %d, stderr %q; want 127 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestGivenBefore(t *testing.T) {
	app := newApp() // its flags as the CLI has them: wrapped (flagnames.go)
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"omega-run", "--mode", "rx", "explain"}, true},
		{[]string{"omega-run", "--mode=rx", "explain"}, true},
		{[]string{"omega-run", "explain", "--mode", "rx"}, false},
		{[]string{"omega-run", "--mode", "rx", "explain", "--mode", "rwx"}, false},
		{[]string{"omega-run", "--data-dir", "explain", "explain", "--json"}, false}, // a value named like the subcommand
		{[]string{"omega-run", "explain", "--", "--mode"}, false},
		{[]string{"omega-run", "explain"}, false},
		{[]string{"omega-run", "--fail-closed", "explain", "--mode", "rx"}, false}, // a bool takes no value
		{[]string{"omega-run", "--fail-closed", "--mode", "rx", "explain"}, true},
		{[]string{"omega-run", "--mode", "rx", "explain", "sh", "--mode=rwx"}, true}, // the program's own argument
		{[]string{"omega-run", "--mode", "rx", "explain", "--os", "darwin", "--mode", "rwx"}, false},
	}
	for _, c := range cases {
		if got := givenBefore(c.args, "mode", app); got != c.want {
			t.Errorf("%q: %v, want %v", c.args, got, c.want)
		}
	}
}

// TestDashesBeforeCommandName: after "--" a word is a program even when a
// command has its name; without "--" it is the command.
func TestDashesBeforeCommandName(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir()) // no program called check or help
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"--", "check"}, 127},
		{[]string{"--mode", "rx", "--", "check", "--json"}, 127},
		{[]string{"--data-dir", t.TempDir(), "--", "explain"}, 127},
		{[]string{"--", "help"}, 127},
		{[]string{"h"}, 127}, // no alias: a program called h
		{[]string{"help"}, 0},
		{[]string{"help", "check"}, 0},
		{[]string{"explain", "--mode", "rx", "--json", "--", "check"}, 0},
	}
	for _, c := range cases {
		if got := run(append([]string{"omega-run"}, c.args...)); got != c.want {
			t.Errorf("%q: exit %d, want %d", c.args, got, c.want)
		}
	}
}

func TestDashesFirst(t *testing.T) {
	app := newApp()
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"omega-run", "--", "check"}, true},
		{[]string{"omega-run", "--mode", "rx", "--", "check"}, true},
		{[]string{"omega-run", "--mode=rx", "--fail-closed", "--", "check"}, true},
		{[]string{"omega-run", "--data-dir", "--", "check"}, false}, // "--" is --data-dir's value
		{[]string{"omega-run", "check", "--", "x"}, false},
		{[]string{"omega-run", "explain", "--mode", "rx", "--", "check"}, false},
		{[]string{"omega-run", "claude"}, false},
		{[]string{"omega-run", "--help", "--", "check"}, false}, // check's help
		{[]string{"omega-run", "--mode", "rx", "explain", "--", "check"}, false},
		{[]string{"omega-run"}, false},
	}
	for _, c := range cases {
		if got := dashesFirst(c.args, app); got != c.want {
			t.Errorf("%q: %v, want %v", c.args, got, c.want)
		}
	}
}

// TestLineFormatter: one line, the fields after the message, sorted, and
// quoted where a value has a space or is empty.
func TestLineFormatter(t *testing.T) {
	e := &logrus.Entry{Level: logrus.InfoLevel, Message: "launching",
		Data: logrus.Fields{"uid": 0, "mode": "rx", "program": "/x y", "limits": ""}}
	got, _ := lineFormatter{}.Format(e)
	want := "omega-run: info: launching limits=\"\" mode=rx program=\"/x y\" uid=0\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	e = &logrus.Entry{Level: logrus.WarnLevel, Message: "plain"}
	if got, _ := (lineFormatter{}).Format(e); string(got) != "omega-run: warning: plain\n" {
		t.Errorf("got %q", got)
	}
}

// TestLineEscapes: a log line's message is escaped for the terminal
// (internal/termsafe has the table).
func TestLineEscapes(t *testing.T) {
	e := &logrus.Entry{Level: logrus.WarnLevel, Message: "made .git/modules/x\x1b[2K"}
	if got, _ := (lineFormatter{}).Format(e); string(got) != "omega-run: warning: made .git/modules/x\\u001b[2K\n" {
		t.Errorf("got %q", got)
	}
}

// TestHelpBeforeProgram: help asked for before the program shows the help
// (exit 0), not "No help topic for 'PROGRAM'" (exit 3); a command named
// after "--" keeps its own help, and a flag's value is no help flag.
func TestHelpBeforeProgram(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"omega-run", "-h", "--", "true"}, []string{"omega-run", "-h"}},
		{[]string{"omega-run", "--mode", "rx", "--help", "--", "ls", "-l"}, []string{"omega-run", "--mode", "rx", "--help"}},
		{[]string{"omega-run", "explain", "-h", "--", "true"}, []string{"omega-run", "explain", "-h"}},
		{[]string{"omega-run", "--", "sh", "-h"}, []string{"omega-run", "--", "sh", "-h"}},
		{[]string{"omega-run", "-h"}, []string{"omega-run", "-h"}},
		{[]string{"omega-run", "--help", "--", "check"}, []string{"omega-run", "--help", "--", "check"}},
		{[]string{"omega-run", "-h", "prog", "-x"}, []string{"omega-run", "-h"}},
		{[]string{"omega-run", "--hostname", "-h", "--", "true"}, []string{"omega-run", "--hostname", "-h", "--", "true"}},
	} {
		if got := helpBeforeProgram(c.in, newApp()); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	if code := run([]string{"omega-run", "-h", "--", "true"}); code != 0 {
		t.Errorf("omega-run -h -- true: exit %d, want 0", code)
	}
}

// TestLineFieldEscapes: a field's value is escaped too: the launch line's
// writable roots come from a config file an rx program may have
// rewritten, and a C1 control (U+009B, CSI to a terminal) or a bidi
// override is no space, which alone made a value quoted.
func TestLineFieldEscapes(t *testing.T) {
	e := &logrus.Entry{Level: logrus.InfoLevel, Message: "launching",
		Data: logrus.Fields{"writable": "/tmp/a\u009b2K\u202eb"}}
	got, _ := lineFormatter{}.Format(e)
	if want := `omega-run: info: launching writable="/tmp/a\u009b2K\u202eb"` + "\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
