//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnexpandedTildeRefused: a path that begins with ~ reaches omega-run
// unexpanded when no shell expanded it (--data-dir=~/dd, a quoted "~/dd",
// a unit's Environment=, the config file). Taken from the working
// directory, it named a directory called ~ there: the data dir was made
// there, unsaid, and a missing --allow-write got "mkdir -p '…/~/proj'".
// Each is refused (125) naming the path meant, and nothing is made; ./~
// still names a directory called ~.
func TestUnexpandedTildeRefused(t *testing.T) {
	for _, u := range users {
		for _, c := range []unexpandedCase{
			{name: "data-dir flag", args: []string{"--data-dir=~/dd"}, meant: "dd"},
			{name: "data-dir env", env: []string{"OMEGA_DATA_DIR=~/dd"}, meant: "dd", from: "(from OMEGA_DATA_DIR)"},
			{name: "allow-write flag", args: []string{"--allow-write=~/proj"}, meant: "proj"},
			{name: "allow-write home", args: []string{"--allow-write=~"}, meant: "."},
			{name: "allow-write config", config: "[sandbox]\nallow_write = [\"~/proj\"]\n", meant: "proj", from: "(from config "},
			{name: "config flag", args: []string{"--config=~/c.toml"}, meant: "c.toml"},
			{name: "hide env", env: []string{"OMEGA_RUN_HIDE=~/proj"}, meant: "proj", from: "(from OMEGA_RUN_HIDE)"},
			{name: "a directory named ~", args: []string{"--allow-write=./~"}},
		} {
			t.Run(u.name+"/"+c.name, func(t *testing.T) {
				runUnexpanded(t, u, c, "~", func(w *world) string { return filepath.Join(w.home, c.meant) + " " })
			})
		}
	}
}

// unexpandedCase is a launch with a path setting no shell expanded.
type unexpandedCase struct {
	name   string
	env    []string
	args   []string
	config string
	meant  string // below home, or a case's own mark; "" for a launch that runs
	from   string // where the message says the value came from
}

// runUnexpanded runs c in a world where literal (the path taken as
// written) does not exist, or, for a case that runs, does: refused, the
// one line of stderr names want(w) and c.from, offers no mkdir and nothing
// is made; a case that runs prints "ran".
func runUnexpanded(t *testing.T, u user, c unexpandedCase, literal string, want func(*world) string) {
	t.Helper()
	w := newWorld(t, u)
	mustMkdir(t, filepath.Join(w.home, "proj"))
	if c.meant == "" {
		mustMkdir(t, filepath.Join(w.home, literal))
	}
	if c.config != "" {
		writeFile(t, filepath.Join(w.dataDir, "config.toml"), c.config)
	}
	chownTree(t, w.home, u)
	args := append(append(c.args, "--"), "/bin/sh", "-c", "echo ran")
	r := w.runEnv(c.env, args...)
	if c.meant == "" {
		if r.code != 0 || r.stdout != "ran\n" {
			t.Fatalf("./%s exists: exit %d, stdout %q, stderr %q", literal, r.code, r.stdout, r.stderr)
		}
		return
	}
	if _, err := os.Lstat(filepath.Join(w.home, literal)); err == nil {
		t.Errorf("a directory named %s was made in the working directory", literal)
	}
	meant := want(w)
	if r.code != 125 || r.stdout != "" || !strings.Contains(r.stderr, meant) ||
		strings.Contains(r.stderr, "mkdir") || !strings.Contains(r.stderr, c.from) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q: want 125, one line with %q %s, no mkdir hint", r.code, r.stdout, r.stderr, meant, c.from)
	}
}
