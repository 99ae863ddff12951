//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnexpandedVariableRefused: a $VAR or ${VAR} in a path setting
// reaches omega-run unexpanded where no shell read it (the config file,
// a unit's Environment=, an exec-form argument list). Taken as written,
// allow_write = ["$HOME/proj"] named a directory called $HOME in the
// working directory: the data dir was made there, a missing --allow-write
// got "mkdir -p '…/$HOME/proj'", a --hide hid nothing. Each is refused
// (125) naming the path meant (or the variable not set); ./ before the
// path still names a directory called $HOME.
func TestUnexpandedVariableRefused(t *testing.T) {
	for _, u := range users {
		for _, c := range []struct {
			name   string
			env    []string
			args   []string
			config string
			meant  string // below home, or "$UNSET" for a variable not set; "" for a launch that runs
			from   string
		}{
			{name: "allow-write config", config: "[sandbox]\nallow_write = [\"$HOME/proj\"]\n", meant: "proj", from: "(from config "},
			{name: "hide config braces", config: "[sandbox]\nhide = [\"${HOME}/proj\"]\n", meant: "proj", from: "(from config "},
			{name: "data-dir env", env: []string{"OMEGA_DATA_DIR=$HOME/dd"}, meant: "dd", from: "(from OMEGA_DATA_DIR)"},
			{name: "hide env", env: []string{"OMEGA_RUN_HIDE=$HOME/proj"}, meant: "proj", from: "(from OMEGA_RUN_HIDE)"},
			{name: "allow-write argument", args: []string{"--allow-write=$HOME/proj"}, meant: "proj"},
			{name: "config argument", args: []string{"--config=$HOME/c.toml"}, meant: "c.toml"},
			{name: "variable not set", config: "[sandbox]\nread_only = [\"/srv/$OMEGA_E2E_UNSET_VAR/x\"]\n", meant: "$UNSET", from: "(from config "},
			{name: "a directory named $HOME", args: []string{"--allow-write=./$HOME"}},
		} {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				w := newWorld(t, u)
				mustMkdir(t, filepath.Join(w.home, "proj"))
				if c.meant == "" {
					mustMkdir(t, filepath.Join(w.home, "$HOME"))
				}
				if c.config != "" {
					writeFile(t, filepath.Join(w.dataDir, "config.toml"), c.config)
				}
				chownTree(t, w.home, u)
				args := append(append(c.args, "--"), "/bin/sh", "-c", "echo ran")
				r := w.runEnv(c.env, args...)
				if c.meant == "" {
					if r.code != 0 || r.stdout != "ran\n" {
						t.Fatalf("./$HOME exists: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
					}
					return
				}
				if _, err := os.Lstat(filepath.Join(w.home, "$HOME")); err == nil {
					t.Errorf("a directory named $HOME was made in the working directory")
				}
				meant := "write " + filepath.Join(w.home, c.meant) + " "
				if c.meant == "$UNSET" {
					meant = "$OMEGA_E2E_UNSET_VAR is not set"
				}
				if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, meant) ||
					strings.Contains(r.stderr, "mkdir") || !strings.Contains(r.stderr, c.from) || strings.Count(r.stderr, "\n") != 1 {
					t.Errorf("exit %d, stdout %q, stderr %q: want 125, one line with %q %s, no mkdir hint", r.code, r.stdout, r.stderr, meant, c.from)
				}
			})
		}
	}
}
