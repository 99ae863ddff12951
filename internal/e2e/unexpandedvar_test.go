//go:build linux

package e2e

import (
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
		for _, c := range []unexpandedCase{
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
				runUnexpanded(t, u, c, "$HOME", func(w *world) string {
					if c.meant == "$UNSET" {
						return "$OMEGA_E2E_UNSET_VAR is not set"
					}
					return "write " + filepath.Join(w.home, c.meant) + " "
				})
			})
		}
	}
}

// TestUnexpandedVariableAbsoluteAsWritten: an absolute path with a $ in
// a name (WSL's /mnt/c/$Recycle.Bin) is taken as written after /./, as a
// relative one is after ./: it had no way but ./../../ from the working
// directory. The directory is hidden; its file unread.
func TestUnexpandedVariableAbsoluteAsWritten(t *testing.T) {
	for _, u := range users {
		w := newWorld(t, u)
		dir := filepath.Join(w.outside, "$Recycle.Bin")
		mustMkdir(t, dir)
		writeFile(t, filepath.Join(dir, "f"), "secret")
		chownTree(t, w.outside, u)
		r := w.run("--hide", "/."+dir, "--", "/bin/cat", filepath.Join(dir, "f"))
		if r.code == 0 || r.code == 125 || strings.Contains(r.stdout, "secret") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want cat's failure in a hidden directory", u.name, r.code, r.stdout, r.stderr)
		}
	}
}
