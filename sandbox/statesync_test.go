package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

func TestStateSync(t *testing.T) {
	claude := profiles.ProgramFor("claude")
	cases := []struct {
		name        string
		before      string // "" = no ~/.claude.json
		program     string // what the program leaves in the working copy ("" = nothing)
		meanwhile   string // what an unconfined run writes to home meanwhile ("" = nothing)
		wantHome    string
		wantWarning bool
	}{
		{name: "fresh home", program: `{"s":"new"}`, wantHome: `{"s":"new"}`},
		{name: "updated", before: `{"s":"old"}`, program: `{"s":"new"}`, wantHome: `{"s":"new"}`},
		{name: "untouched", before: `{"s":"old"}`, program: `{"s":"old"}`, wantHome: `{"s":"old"}`},
		{name: "changed meanwhile", before: `{"s":"old"}`, program: `{"s":"new"}`, meanwhile: `{"s":"other"}`, wantHome: `{"s":"other"}`, wantWarning: true},
		{name: "program wrote nothing", wantHome: ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			homeFile, work := filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", ".claude.json")
			os.Mkdir(filepath.Join(home, ".claude"), 0o700) // ensureDirs makes it
			if c.before != "" {
				os.WriteFile(homeFile, []byte(c.before), 0o600)
			}
			syncs, err := syncIn(home, nil, claude)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(work); c.before != "" && string(got) != c.before {
				t.Fatalf("working copy = %q, want %q", got, c.before)
			}
			if c.program != "" {
				os.WriteFile(work, []byte(c.program), 0o600)
			}
			if c.meanwhile != "" {
				os.WriteFile(homeFile, []byte(c.meanwhile), 0o600)
			}
			warning, err := syncs[0].syncOut()
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(homeFile)
			if string(got) != c.wantHome || (warning != "") != c.wantWarning {
				t.Errorf("home = %q, warning %q; want %q, warning %v", got, warning, c.wantHome, c.wantWarning)
			}
			_, err = os.Stat(work)
			if kept := err == nil; kept != (c.wantWarning) {
				t.Errorf("working copy kept: %v, want %v", kept, c.wantWarning)
			}
			if st, err := os.Stat(homeFile); err == nil && st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", st.Mode().Perm())
			}
		})
	}
}

func TestStateWarning(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	pol := profiles.Policy{Home: "/h", Writable: []string{"/h/.omega", "/tmp", "/h/.claude"}}
	if w := stateWarning(pol, profiles.ProgramFor("claude"), "", nil, "", os.Getenv); w != "" {
		t.Errorf("claude's state is all handled, got %q", w)
	}
	w := stateWarning(pol, profiles.ProgramFor("git"), "", nil, "", os.Getenv)
	if !strings.Contains(w, "/h/.gitconfig") || !strings.Contains(w, "GIT_CONFIG_GLOBAL") {
		t.Errorf("git warning = %q", w)
	}
	pol.Writable = append(pol.Writable, "/h")
	if w := stateWarning(pol, profiles.ProgramFor("git"), "", nil, "", os.Getenv); w != "" {
		t.Errorf("--allow-write ~ fixes it, got %q", w)
	}
}

// The warning judges the environment the program gets: following its
// advice with --setenv silences it, and --unsetenv or --clearenv of the
// caller's variable brings it back.
func TestStateWarningProgramEnv(t *testing.T) {
	pol := profiles.Policy{Home: "/h", Writable: []string{"/h/.omega", "/tmp", "/h/.claude"}}
	git := profiles.ProgramFor("git")
	inWorkspace := "GIT_CONFIG_GLOBAL=/h/.omega/workspace/gitconfig"
	cases := []struct {
		name   string
		caller string // the caller's GIT_CONFIG_GLOBAL
		proc   Process
		want   bool // a warning
	}{
		{"nothing set", "", Process{}, true},
		{"caller's variable", "/h/.omega/gc", Process{}, false},
		{"--setenv", "", Process{SetEnv: []string{inWorkspace}}, false},
		{"--setenv over the caller's", "/h/.gitconfig", Process{SetEnv: []string{inWorkspace}}, false},
		{"--setenv after --clearenv", "", Process{ClearEnv: true, SetEnv: []string{inWorkspace}}, false},
		{"--unsetenv", "/h/.omega/gc", Process{UnsetEnv: []string{"GIT_CONFIG_GLOBAL"}}, true},
		{"--clearenv", "/h/.omega/gc", Process{ClearEnv: true}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GIT_CONFIG_GLOBAL", c.caller)
			w := stateWarning(pol, git, "", nil, "", c.proc.getenv)
			if (w != "") != c.want {
				t.Errorf("warning = %q, want one: %v", w, c.want)
			}
		})
	}
}

// TestWorkCopyMaxBounded: what a working copy may grow to is the home
// state plus maxState, under a ceiling: the copy back becomes the next
// launch's home state, so a bound relative to it alone (twice it) let a
// program double the host's ~/.claude.json each session, past the disk
// and the launcher's memory, in a handful of sessions.
func TestWorkCopyMaxBounded(t *testing.T) {
	if got := workCopyMax(0); got != maxState {
		t.Errorf("workCopyMax(0) = %d, want %d", got, maxState)
	}
	if got := workCopyMax(70 << 20); got < 70<<20+maxState/2 {
		t.Errorf("workCopyMax(70 MiB) = %d: a 70 MB state must be able to grow", got)
	}
	size := int64(0)
	for range 100 { // a hundred sessions, each leaving the most allowed
		size = workCopyMax(int(size))
	}
	if size > maxStateCeiling {
		t.Errorf("after 100 sessions the state may be %d bytes, past the ceiling %d", size, maxStateCeiling)
	}
}
