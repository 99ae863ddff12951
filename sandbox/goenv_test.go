package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestStateWarningGoEnvFile: go reads GOPATH, GOCACHE and GOMODCACHE
// from its own settings file (go env -w's) where the environment has
// none, so a user who moved them into the workspace that way is not
// warned about ~/go on every launch (following the hint with go env -w
// did not silence it).
func TestStateWarningGoEnvFile(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, ".omega", "workspace")
	pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"),
		Writable: []string{filepath.Join(home, ".omega")}}
	inWS := "GOPATH=" + ws + "/go\nGOCACHE=" + ws + "/gc\n"
	xdg, custom := filepath.Join(home, "xdg"), filepath.Join(home, "custom-env")
	cases := []struct {
		name, file, content string
		set                 []string
		want, not           []string // want nil: no warning
	}{
		{name: "~/.config/go/env", file: filepath.Join(home, ".config/go/env"), content: inWS},
		{name: "XDG_CONFIG_HOME", file: filepath.Join(xdg, "go/env"), content: inWS, set: []string{"XDG_CONFIG_HOME=" + xdg}},
		{name: "GOENV", file: custom, content: inWS, set: []string{"GOENV=" + custom}},
		{name: "GOENV=off ignores the file", file: filepath.Join(home, ".config/go/env"), content: inWS, set: []string{"GOENV=off"},
			want: []string{home + "/go", home + "/.cache/go-build"}},
		{name: "only GOCACHE moved", file: filepath.Join(home, ".config/go/env"), content: "GOCACHE=" + ws + "/gc\n",
			want: []string{home + "/go", "GOPATH="}, not: []string{home + "/.cache/go-build", "GOCACHE="}},
		{name: "the environment wins", file: filepath.Join(home, ".config/go/env"), content: inWS, set: []string{"GOCACHE=/srv/gc"},
			want: []string{"/srv/gc"}, not: []string{home + "/go,"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, p := range []string{filepath.Join(home, ".config"), xdg, custom} {
				os.RemoveAll(p)
			}
			if err := os.MkdirAll(filepath.Dir(c.file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.file, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			set := append([]string{"HOME=" + home}, c.set...)
			w := stateWarning(pol, profiles.ProgramFor("go"), "", nil, "", Process{ClearEnv: true, SetEnv: set}.getenv)
			checkWarning(t, w, c.want, c.not)
		})
	}
}
