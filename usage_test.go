package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// runCaptured runs the CLI with stdout and stderr captured.
func runCaptured(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	savedOut, savedErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outW, errW
	done := make(chan [2]string)
	go func() {
		o, _ := io.ReadAll(outR)
		e, _ := io.ReadAll(errR)
		done <- [2]string{string(o), string(e)}
	}()
	code = run(append([]string{"omega-run"}, args...))
	os.Stdout, os.Stderr = savedOut, savedErr
	outW.Close()
	errW.Close()
	got := <-done
	return got[0], got[1], code
}

// TestSubcommandUsage: a bad flag or a stray argument to any command is
// one line on stderr and exit 125, not the help text.
func TestSubcommandUsage(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--bogus", "--", "true"}, "unknown flag --bogus"},
		{[]string{"check", "--bogus"}, "unknown flag --bogus"},
		{[]string{"check", "extra"}, `check takes no arguments, got "extra"`},
		{[]string{"prompt", "--bogus"}, "unknown flag --bogus"},
		{[]string{"prompt", "extra"}, `prompt takes no arguments, got "extra"`},
		{[]string{"explain", "--bogus"}, "unknown flag --bogus"},
		{[]string{"explain", "--log-level", "debug"}, "unknown flag --log-level: it goes before the command (omega-run --log-level LEVEL explain)"},
		{[]string{"check", "--log-format=json"}, "unknown flag --log-format: it goes before the command (omega-run --log-format FORMAT check)"},
		{[]string{"completion", "--bogus"}, "unknown flag --bogus"},
		{[]string{"manpage", "--bogus"}, "unknown flag --bogus"},
		{[]string{"manpage", "extra"}, `manpage takes no arguments, got "extra"`},
		{[]string{"-bogus", "--", "true"}, "unknown flag -bogus"}, // as typed
		{[]string{"--preserve-fds", "x", "--", "true"}, `--preserve-fds "x": not a number`},
		{[]string{"--fail-closed=maybe", "--", "true"}, "--fail-closed=maybe: want true or false"},
		{[]string{"--log-level", "loud", "--", "true"}, `--log-level "loud": want debug, info, warning or error`},
		{[]string{"--log-level", "fatal", "--", "true"}, `--log-level "fatal": want debug, info, warning or error`},
		{[]string{"--log-level", "panic", "--", "true"}, `--log-level "panic": want debug, info, warning or error`},
		{[]string{"--log-level", "trace", "--", "true"}, `--log-level "trace": want debug, info, warning or error`},
		{[]string{"--mode"}, "--mode needs a value"},
		{[]string{"--allow-write", "--", "true"}, "--allow-write needs a value (see omega-run --help)"},
		{[]string{"--mode", "rx", "--setenv", "--", "true"}, "--setenv needs a value"},
		{[]string{"--workdir", "--", "true"}, "--workdir needs a value"},
		{[]string{"--preserve-fds", "--", "true"}, "--preserve-fds needs a value"},
		{[]string{"--fail-closed", "--data-dir", "--", "true"}, "--data-dir needs a value"},
		{[]string{"explain", "--hide", "--", "true"}, "--hide needs a value (see omega-run explain --help)"},
		{[]string{"--log-level", "--", "explain"}, "--log-level needs a value"},
		{[]string{"explain", "--json", "--os", "darwin"}, "leave out --json"},
		{[]string{"help", "nope"}, `help: no command "nope"`},
		{[]string{"help", "chek"}, `help: no command "chek"; did you mean omega-run help check?`},
		{[]string{"help", "run"}, `help: no command "run": a program runs without one (omega-run [flags] -- PROGRAM [ARGS...]; see omega-run --help)`},
		{[]string{"help", "check", "explain"}, "help takes at most one command"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			stdout, stderr, code := runCaptured(t, c.args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 125 || stdout != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "omega-run: ") || !strings.Contains(lines[0], c.msg) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 125, nothing, one line 'omega-run: …%s…'", code, stdout, stderr, c.msg)
			}
		})
	}
}

// TestHelp: --help, -h and help print the help on stdout and exit 0, for
// the launcher and for a command.
func TestHelpFlag(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "GLOBAL OPTIONS"},
		{[]string{"-h"}, "GLOBAL OPTIONS"},
		{[]string{"help"}, "GLOBAL OPTIONS"},
		{[]string{"--mode", "rx", "--help"}, "GLOBAL OPTIONS"},
		{[]string{"check", "--help"}, "omega-run check - report"},
		{[]string{"help", "explain"}, "omega-run explain - print"},
		{[]string{"--help", "--", "check"}, "omega-run check - report"},
		{[]string{"explain", "--", "help"}, "program:     help"}, // a program called help, not explain's help
	} {
		stdout, stderr, code := runCaptured(t, c.args...)
		if code != 0 || !strings.Contains(stdout, c.want) || stderr != "" {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %q; want 0 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// TestHelpUsageAligned: the USAGE lines start in one column (urfave/cli
// indents every line after the first by three more spaces), and the
// examples show how to let a program write where it was started.
func TestHelpUsageAligned(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	stdout, _, _ := runCaptured(t, "--help")
	_, usage, _ := strings.Cut(stdout, "USAGE:\n")
	usage, _, _ = strings.Cut(usage, "\n\n")
	for _, line := range strings.Split(usage, "\n") {
		if !strings.HasPrefix(line, "   omega-run ") && !strings.HasPrefix(line, "   (") {
			t.Errorf("USAGE line %q does not start in the column of the first", line)
		}
	}
	if !strings.Contains(stdout, "   omega-run --allow-write . -- claude ") {
		t.Error("no example of --allow-write . with claude")
	}
}

// TestDashesAsValue: every flag that takes a value, given "--" as its
// next word, says it needs a value instead of taking "--" (which was
// --allow-write $PWD/--: no such file or directory).
func TestDashesAsValue(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	app := newApp()
	n := 0
	for _, f := range app.Flags {
		name := f.Names()[0]
		if !takesValue(name, app.Flags) {
			continue
		}
		n++
		for _, args := range [][]string{{"--" + name, "--", "true"}, {"explain", "--" + name, "--", "true"}} {
			if args[0] == "explain" && !takesValue(name, app.Command("explain").Flags) {
				continue
			}
			stdout, stderr, code := runCaptured(t, args...)
			want := "omega-run: --" + name + " needs a value (see omega-run "
			if code != 125 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, want) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 125 and %q…", args, code, stdout, stderr, want)
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d flags take a value", n)
	}
}

// TestDidYouMean: a misspelled flag gets the flag it is a typo of, of
// the launcher or of the command; one far from every flag gets none.
func TestDidYouMean(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string // "" for no suggestion
	}{
		{[]string{"--allow-wirte", ".", "--", "true"}, "--allow-write"},
		{[]string{"--writable-gitconfig", "--", "true"}, "--writable-git-config"},
		{[]string{"--memroy", "1G", "--", "true"}, "--memory"},
		{[]string{"explain", "--jsn"}, "--json"},
		{[]string{"explain", "--ful"}, "--full"},
		{[]string{"check", "--jsno"}, "--json"},
		{[]string{"--nte", "none", "--", "true"}, "--net"},
		{[]string{"--Mode", "rx", "--", "true"}, "--mode"},
		{[]string{"--ALLOW-WRITE", ".", "--", "true"}, "--allow-write"},
		{[]string{"--bogus", "--", "true"}, ""},
		{[]string{"--verbose", "--", "true"}, ""},
		{[]string{"explain", "--x"}, ""},
	} {
		_, stderr, code := runCaptured(t, c.args...)
		has := strings.Contains(stderr, "did you mean")
		if code != 125 || strings.Count(stderr, "\n") != 1 || has != (c.want != "") || !strings.Contains(stderr, "did you mean "+c.want+"?") && has {
			t.Errorf("%q: exit %d, stderr %q; want 125, one line, suggesting %q", c.args, code, stderr, c.want)
		}
	}
}

// TestUnknownShortFlag: an unknown flag is shown as typed: -x, not the
// --x that Go's flag package reads it as.
func TestUnknownShortFlag(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-x", "--", "true"}, "omega-run: unknown flag -x (see omega-run --help)\n"},
		{[]string{"-n=1", "--", "true"}, "omega-run: unknown flag -n (see omega-run --help)\n"},
		{[]string{"--x", "--", "true"}, "omega-run: unknown flag --x (see omega-run --help)\n"},
		{[]string{"explain", "-q"}, "omega-run: unknown flag -q (see omega-run explain --help)\n"},
		{[]string{"-nte", "none", "--", "true"}, "omega-run: unknown flag -nte; did you mean --net? (see omega-run --help)\n"},
	} {
		_, stderr, code := runCaptured(t, c.args...)
		if code != 125 || stderr != c.want {
			t.Errorf("%q: exit %d, stderr %q; want 125 and %q", c.args, code, stderr, c.want)
		}
	}
}
