package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseGitRedirects: core.hooksPath and include paths as git reads
// them, whatever the case, quoting and comments.
func TestParseGitRedirects(t *testing.T) {
	text := `[core]
	repositoryformatversion = 0
	hooksPath = .husky/_ ; husky
[Core]
	HooksPath = "hooks dir"   # quoted
[include]
	path = ../.gitconfig.local
[includeIf "gitdir:~/work/"]
	path = "~/.work.gitconfig"
[alias]
	path = not-an-include
[core] hookspath = inline
[core] hookspath = nul` + "\x00" + `tail
`
	got := parseGitRedirects(text)
	// A NUL ends a value, as git keeps them as C strings.
	want := gitRedirects{hooks: []string{".husky/_", "hooks dir", "inline", "nul"}, includes: []string{"../.gitconfig.local", "~/.work.gitconfig"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for in, out := range map[string]string{`"a\"b"`: `a"b`, `x # c`: "x", `"#not" ;c`: "#not", `a\\b`: `a\b`} {
		if got, ok, _ := parseConfigValue(in, 0); got != out || !ok {
			t.Errorf("parseConfigValue(%q) = %q, %v; want %q", in, got, ok, out)
		}
	}
	for _, c := range [][4]string{{"~/x", "/h", "/b", "/h/x"}, {"/abs/y", "/h", "/b", "/abs/y"}, {"rel/z", "/h", "/b", "/b/rel/z"}} {
		if got := gitPath(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("gitPath(%q) = %q, want %q", c[0], got, c[3])
		}
	}
}

// TestParseGitRedirectsAsGit: what git config -f reads as core.hooksPath
// and include paths is what the parser finds, for configs written to
// hide one: a backslash-newline ends a comment (it continues only a
// value), subsections and old-style sections name other keys.
func TestParseGitRedirectsAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip(err)
	}
	for _, text := range []string{
		"[core]\n\teditor = vim ; note \\\n\thooksPath = evil\n",
		"[core]\n\teditor = vim # note \\\n\thooksPath = evil\n",
		"# a comment \\\n[core]\nhooksPath = x\n",
		"[core]\n\thooksPath = ev\\\nil # x\n",
		"[core]\n\thooksPath = \"a\\\nb\"\n",
		"[core]\n\thooksPath = x ; c \\\n\thooksPath = y\n",
		"[core]\n\tfoo = \"x ; \\\n\thooksPath = y\"\n",
		"[core]\n\thooksPath = \"a ; b\" # c\n\thooksPath = a  b  \n",
		"[Core]\n\tHooksPath = \"q\\tx\"\n[core] hooksPath = inline\n",
		"[core]\r\n\thooksPath = crlf\r\n",
		"[core \"sub\"]\nhooksPath = s\n[core.x]\nhooksPath = c\n[core]\nhooksPath\n",
		"[include \"x\"]\n\tpath = a\n[includeIf]\npath = b\n[includeIf \"gitdir:/x/\"]\n path = d\n[include]\npath=e ; f\\\n",
		"[includeIf \"gitdir:/a \\\"b\\\"/\"]\n\tpath = g\n",
	} {
		f := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("git", "config", "-f", f, "-z", "--list").Output()
		if err != nil {
			t.Fatalf("git config -f on %q: %v", text, err)
		}
		var want gitRedirects
		for _, entry := range strings.Split(string(out), "\x00") {
			key, value, _ := strings.Cut(entry, "\n")
			switch {
			case value == "":
			case key == "core.hookspath":
				want.hooks = append(want.hooks, value)
			case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") && key != "includeif.path":
				// (git lists an [includeIf] without a condition, but includes nothing)
				want.includes = append(want.includes, value)
			}
		}
		if got := parseGitRedirects(text); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: parsed %+v, git reads %+v", text, got, want)
		}
	}
}
