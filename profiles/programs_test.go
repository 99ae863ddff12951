package profiles

import (
	"reflect"
	"testing"
)

func TestProgramFor(t *testing.T) {
	cases := map[string]string{
		"/usr/bin/git": "git", "claude": "claude", "/opt/x/claude.exe": "claude",
		"pip3": "pip", "pip3.11": "pip", "/usr/local/go/bin/go": "go", "npm": "npm",
		"make": "", "/bin/sh": "", "gofmt": "",
	}
	for path, want := range cases {
		got := ""
		if p := ProgramFor(path); p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("ProgramFor(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestStatePaths(t *testing.T) {
	env := map[string]string{"GOCACHE": "/cache/go", "GOPATH": "relative-is-ignored"}
	got := ProgramFor("go").StatePaths("/h", func(k string) string { return env[k] })
	want := []string{"/h/go", "/h/.cache/go-build", "/h/.config/go", "/cache/go"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
