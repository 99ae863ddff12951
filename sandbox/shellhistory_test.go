package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestRCSetsHistfile(t *testing.T) {
	home := t.TempDir()
	pol := profiles.Policy{Home: home, Writable: []string{filepath.Join(home, ".omega"), "/srv/w"}}
	for _, c := range []struct {
		name, rc string
		wantLine int
	}{
		{"host history", "HISTSIZE=1\nHISTFILE=~/.bash_history\n", 2},
		{"exported", "export HISTFILE=\"$HOME/.bash_history\"", 1},
		{"declared", "  declare -x HISTFILE=${HOME}/.h;", 1},
		{"unknown variable", "HISTFILE=$XDG_STATE_HOME/bash/history", 1},
		{"relative", "HISTFILE=.h", 1},
		{"writable", "HISTFILE=~/.omega/h\nHISTFILE=/srv/w/h", 0},
		{"empty: none on purpose", "HISTFILE=\nHISTFILE=''", 0},
		{"only when unset", ": \"${HISTFILE:=~/.bash_history}\"\n[ -z \"$HISTFILE\" ] && HISTFILE=~/.h", 0},
		{"comment", "# HISTFILE=~/.h", 0},
		{"another variable", "MYHISTFILE=~/.h", 0},
	} {
		rc := filepath.Join(home, ".bashrc")
		if err := os.WriteFile(rc, []byte(c.rc), 0o600); err != nil {
			t.Fatal(err)
		}
		got, line := rcSetsHistfile(pol, home, []string{".missing", ".bashrc"})
		if want := ""; c.wantLine != 0 {
			want = rc
			if got != want || line != c.wantLine {
				t.Errorf("%s: rcSetsHistfile = %q, %d; want %q, %d", c.name, got, line, want, c.wantLine)
			}
		} else if got != "" {
			t.Errorf("%s: rcSetsHistfile = %q, %d; want none", c.name, got, line)
		}
	}
}

func TestHistoryEnv(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, ".omega")
	pol := profiles.Policy{Home: home, DataDir: data, Writable: []string{data, "/srv/w"}}
	own := []string{"HISTFILE=" + filepath.Join(data, "history", "bash_history")}
	for _, c := range []struct {
		name      string
		path      string
		inherited string // "-": unset
		setEnv    []string
		want      []string
	}{
		{"bash", "/usr/bin/bash", "-", nil, own},
		{"the host's inherited gives way", "/usr/bin/bash", filepath.Join(home, ".bash_history"), nil, own},
		{"a writable inherited stays", "/usr/bin/bash", "/srv/w/h", nil, nil},
		{"an empty inherited stays", "/usr/bin/bash", "", nil, nil},
		{"--setenv stays", "/usr/bin/bash", "-", []string{"HISTFILE=" + filepath.Join(home, ".h")}, nil},
		{"dash keeps none", "/usr/bin/dash", "-", nil, nil},
	} {
		t.Setenv("HISTFILE", c.inherited) // restored after
		if c.inherited == "-" {
			os.Unsetenv("HISTFILE")
		}
		got, _ := historyEnv(pol, c.path, nil, Process{SetEnv: c.setEnv})
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: historyEnv = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRCSetsHistfileSourced: a file an rc sources by a path written out
// is read too, and named; one sourced through another variable is not.
func TestRCSetsHistfileSourced(t *testing.T) {
	home := t.TempDir()
	pol := profiles.Policy{Home: home, Writable: []string{filepath.Join(home, ".omega")}}
	put := func(name, content string) string {
		p := filepath.Join(home, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sets := put(".hist", "# history\nHISTFILE=~/.bash_history\n")
	put(".loop", ". ~/.loop\n")
	for _, c := range []struct {
		name, rc string
		want     string
	}{
		{"dot", ". ~/.hist", sets},
		{"source, quoted", `source "$HOME/.hist"`, sets},
		{"behind a test", `[ -f ${HOME}/.hist ] && . ${HOME}/.hist`, sets},
		{"then", "if true; then . " + sets + "; fi", sets},
		{"through two", ". ~/.loop\n. ~/.two", sets},
		{"another variable", `. "$XDG_CONFIG_HOME/.hist"`, ""},
		{"a loop's", `for f in ~/.h*; do . "$f"; done`, ""},
		{"comment", "# see ~/.hist", ""},
	} {
		put(".two", ". ~/.hist\n")
		rc := put(".bashrc", c.rc)
		got, line := rcSetsHistfile(pol, home, []string{".bashrc"})
		if got != c.want || c.want != "" && line != 2 {
			t.Errorf("%s: rcSetsHistfile = %q, %d; want %q, 2 (rc %s)", c.name, got, line, c.want, rc)
		}
	}
}
