package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omega-run/omega-run/profiles"
)

// TestStateWarningPipConfig: pip reads cache-dir and no-cache-dir from
// its config files where the environment sets neither, so a user whose
// pip.conf puts the cache in the workspace (or turns it off) is not told
// on every launch that pip writes ~/.cache/pip.
func TestStateWarningPipConfig(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, ".omega", "workspace")
	pol := profiles.Policy{Mode: profiles.ModeSandbox, Home: home, DataDir: filepath.Join(home, ".omega"),
		Writable: []string{filepath.Join(home, ".omega")}}
	user, legacy, xdg, custom := filepath.Join(home, ".config/pip/pip.conf"), filepath.Join(home, ".pip/pip.conf"),
		filepath.Join(home, "xdg"), filepath.Join(home, "custom.conf")
	inWS := "[global]\ncache-dir = " + ws + "/pip\n"
	cache := home + "/.cache/pip"
	cases := []struct {
		name, file, content string
		set                 []string
		want, not           []string // want nil: no warning about the cache
	}{
		{name: "~/.config/pip/pip.conf", file: user, content: inWS},
		{name: "the legacy ~/.pip/pip.conf", file: legacy, content: inWS},
		{name: "XDG_CONFIG_HOME", file: filepath.Join(xdg, "pip/pip.conf"), content: inWS, set: []string{"XDG_CONFIG_HOME=" + xdg}},
		{name: "PIP_CONFIG_FILE", file: custom, content: inWS, set: []string{"PIP_CONFIG_FILE=" + custom}},
		{name: "the install section", file: user, content: "[install]\ncache-dir = " + ws + "/pip\n"},
		{name: "~ in the value", file: user, content: "[global]\ncache-dir = ~/.omega/workspace/pip\n"},
		{name: "no-cache-dir", file: user, content: "[global]\nno-cache-dir = true\n"},
		{name: "PIP_NO_CACHE_DIR", file: user, content: "", set: []string{"PIP_NO_CACHE_DIR=1"}},
		{name: "outside the workspace", file: user, content: "[global]\ncache-dir = /srv/pipcache\n",
			want: []string{"/srv/pipcache", "PIP_CACHE_DIR="}, not: []string{cache}},
		{name: "another section", file: user, content: "[freeze]\ncache-dir = " + ws + "/pip\n",
			want: []string{cache}},
		{name: "the environment wins", file: user, content: inWS, set: []string{"PIP_CACHE_DIR=/srv/pc"},
			want: []string{"/srv/pc"}},
		// pip passes over an empty value, here and in [install].
		{name: "an empty no-cache-dir", file: user, content: "[global]\nno-cache-dir =\n", want: []string{cache}},
		{name: "an empty cache-dir in install", file: user, content: inWS + "[install]\ncache-dir =\n"},
		{name: "no-cache-dir wins over cache-dir", file: user, content: "[global]\nno-cache-dir = no\n[install]\ncache-dir = /srv/pc\n"},
		{name: "PIP_CONFIG_FILE=/dev/null reads no file", file: user, content: inWS, set: []string{"PIP_CONFIG_FILE=/dev/null"},
			want: []string{cache}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, p := range []string{filepath.Join(home, ".config"), filepath.Join(home, ".pip"), xdg, custom} {
				os.RemoveAll(p)
			}
			if err := os.MkdirAll(filepath.Dir(c.file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.file, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			// .local is moved too, so that only the cache can be warned about.
			set := append([]string{"HOME=" + home, "PYTHONUSERBASE=" + ws + "/.local"}, c.set...)
			w := stateWarning(pol, profiles.ProgramFor("pip"), "", nil, "", Process{ClearEnv: true, SetEnv: set}.getenv)
			checkWarning(t, w, c.want, c.not)
		})
	}
}
