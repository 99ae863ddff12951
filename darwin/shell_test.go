package darwin

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"abc", "abc"},
		{"/usr/bin/sandbox-exec", "/usr/bin/sandbox-exec"},
		{"-DDATA_DIR=/Users/a/.omega", "-DDATA_DIR=/Users/a/.omega"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"'", `''\'''`},
		{"=cmd", "'=cmd'"},
		{"~", "'~'"},
		{"$HOME", "'$HOME'"},
		{"a\nb", "'a\nb'"},
		{"ümlaut", "'ümlaut'"},
	}
	for _, tt := range tests {
		if got := ShellQuote(tt.in); got != tt.want {
			t.Errorf("ShellQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// shellWords is argv full of what shells treat specially.
var shellWords = []string{
	"", " ", "plain", "it's", "''", `"dq"`, `back\slash\`, "$HOME", "${x:-y}", "`id`", "$(id)",
	"a;b", "a&&b", "a|b", "a>b", "<a", "*", "?", "[a]", "~", "~root", "#c", "!x", "{a,b}",
	"=ls", "-n", "--", "tab\there", "new\nline", "trail\n", "ümlaut 😀", "a=b c", "%1",
}

// runShell has /bin/sh split line back into words, proving the quoting
// against a real shell rather than against our own idea of one.
func runShell(t *testing.T, line string) []string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to check the quoting against")
	}
	out, err := exec.Command(sh, "-c", `printf '%s\0' `+line).Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	words := strings.Split(string(out), "\x00")
	return words[:len(words)-1]
}

func TestShellJoinRoundTrip(t *testing.T) {
	if got := runShell(t, ShellJoin(shellWords)); !slices.Equal(got, shellWords) {
		t.Errorf("sh split the joined line into\n%q\nwant\n%q", got, shellWords)
	}
}

// TestShellJoinFirstWordAssignment: a first word with '=' stays the
// command; bare, sh would take "X=y true" for an assignment and run true
// (found by FuzzShellJoin).
func TestShellJoinFirstWordAssignment(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to check the quoting against")
	}
	line := ShellJoin([]string{"X=y", "true"})
	if err := exec.Command(sh, "-c", line).Run(); err == nil {
		t.Errorf("sh ran %s as true with an assignment, not as the command X=y", line)
	}
}
