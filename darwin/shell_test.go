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
		{"a\nb", `$'a\x0ab'`},
		{"ümlaut", "'ümlaut'"},
		// What a terminal acts on, ANSI-C quoted byte by byte.
		{"x\x1b]0;t\a'\\", `$'x\x1b]0;t\x07\'\\'`},
		{"c1\u009b bidi\u202e del\x7f bad\xff ü", `$'c1\xc2\x9b bidi\xe2\x80\xae del\x7f bad\xff ü'`},
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
	"\x1b]0;t\a", "\x1b[2K\romega-run: ok", "c1\u009b", "\u202e", "del\x7f", "bad\xff\xc2", "$'x'\\",
}

// runShell has bash split line back into words, proving the quoting
// against a real shell rather than against our own idea of one; bash, as
// macOS's shells, reads $'…' (Debian's sh, dash, does not).
func runShell(t *testing.T, line string) []string {
	t.Helper()
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to check the quoting against")
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
