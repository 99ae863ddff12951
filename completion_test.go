package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// setUpApp is newApp after the setup Run does (help and version flags).
func setUpApp(t *testing.T) *cli.App {
	t.Helper()
	app := newApp()
	app.Setup()
	return app
}

// bashComplete runs the generated bash completion on words (the last one
// is being completed) in dir and returns the candidates.
func bashComplete(t *testing.T, script, dir string, words ...string) []string {
	t.Helper()
	var quoted []string
	for _, w := range words {
		quoted = append(quoted, shellQuote(w))
	}
	prog := "source " + shellQuote(script) + "\n" +
		"COMP_WORDS=(" + strings.Join(quoted, " ") + ")\n" +
		"COMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n" +
		"_omega_run\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash completion of %q: %v\n%s", words, err, out)
	}
	return strings.Fields(string(out))
}

func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "omega-run.bash")
	if err := os.WriteFile(script, []byte(bashCompletion(completionSpec(setUpApp(t)))), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	for _, d := range []string{"work/subdir", "work/strict-profile.json"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "sfile"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		words []string
		want  []string // all of these, in any order
		not   []string // none of these
	}{
		{[]string{"omega-run", "--mode", ""}, []string{"sandbox", "rx", "rwx"}, nil},
		{[]string{"omega-run", "--mode", "=", "r"}, []string{"rx", "rwx"}, []string{"sandbox"}},
		{[]string{"omega-run", "--fail-closed", "--net", "n"}, []string{"none"}, []string{"host"}},
		{[]string{"omega-run", "--se"}, []string{"--seccomp"}, nil},
		{[]string{"omega-run", "--seccomp", "st"}, []string{"strict", "strict-profile.json"}, nil},
		{[]string{"omega-run", "--data-dir", "s"}, []string{"subdir", "strict-profile.json"}, []string{"sfile"}},
		{[]string{"omega-run", "--allow-write", "sf"}, []string{"sfile"}, nil},
		{[]string{"omega-run", "--allow-write", "sf", "--v"}, []string{"--version"}, nil},
		{[]string{"omega-run", "che"}, []string{"check"}, []string{"explain"}},
		{[]string{"omega-run", "check", "--"}, []string{"--json", "--help"}, []string{"--mode"}},
		{[]string{"omega-run", "explain", "--o"}, []string{"--os"}, nil},
		{[]string{"omega-run", "explain", "--fu"}, []string{"--full"}, nil},
		{[]string{"omega-run", "--fu"}, nil, []string{"--full"}}, // explain's only
		{[]string{"omega-run", "explain", "--os", ""}, []string{"darwin", "linux"}, nil},
		{[]string{"omega-run", "--mode", "rx", "--", "ech"}, []string{"echo"}, []string{"check"}},
		{[]string{"omega-run", "--", "--mo"}, nil, []string{"--mode"}},
		{[]string{"omega-run", "--mode=rx", "ech"}, []string{"echo"}, nil},
		{[]string{"omega-run", "c"}, []string{"check"}, []string{"completion"}}, // hidden
		{[]string{"omega-run", "--preserve-fds", ""}, nil, []string{"subdir", "sfile"}},
		{[]string{"omega-run", "--user", "roo"}, []string{"root"}, nil},
		{[]string{"omega-run", "--unsetenv", "PAT"}, []string{"PATH"}, nil},
	} {
		got := bashComplete(t, script, work, tc.words...)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("complete %q: got %q, want %q among them", tc.words, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("complete %q: got %q, do not want %q", tc.words, got, w)
			}
		}
	}
}

func TestZshCompletionParses(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("zsh not installed: the zsh completion's syntax is not checked")
	}
	script := filepath.Join(t.TempDir(), "_omega-run")
	text := zshCompletion(completionSpec(setUpApp(t)))
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("zsh", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s\n%s", err, out, text)
	}
	for _, want := range []string{"#compdef omega-run", "'--mode=[", ":mode:(sandbox rx rwx)'", "'*--allow-write=[", "check\\:", "explain\\:"} {
		if !strings.Contains(text, want) {
			t.Errorf("zsh completion lacks %q:\n%s", want, text)
		}
	}
}

func TestHiddenCommandsWired(t *testing.T) {
	app := newApp()
	for _, name := range []string{"manpage", "completion"} {
		c := app.Command(name)
		if c == nil {
			t.Errorf("no %q command: add %sCommand() to newApp's Commands in cli.go", name, map[string]string{"manpage": "man", "completion": "completion"}[name])
			continue
		}
		if !c.Hidden {
			t.Errorf("%q is not hidden", name)
		}
	}
}
