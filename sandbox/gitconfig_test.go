package sandbox

import (
	"reflect"
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
`
	got := parseGitRedirects(text)
	want := gitRedirects{hooks: []string{".husky/_", "hooks dir", "inline"}, includes: []string{"../.gitconfig.local", "~/.work.gitconfig"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for in, out := range map[string]string{`"a\"b"`: `a"b`, `x # c`: "x", `"#not" ;c`: "#not", `a\\b`: `a\b`} {
		if got := gitValue(in); got != out {
			t.Errorf("gitValue(%q) = %q, want %q", in, got, out)
		}
	}
	for _, c := range [][4]string{{"~/x", "/h", "/b", "/h/x"}, {"/abs/y", "/h", "/b", "/abs/y"}, {"rel/z", "/h", "/b", "/b/rel/z"}} {
		if got := gitPath(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("gitPath(%q) = %q, want %q", c[0], got, c[3])
		}
	}
}
