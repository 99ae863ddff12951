package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/omega-run/omega-run/internal/termsafe"
	"github.com/omega-run/omega-run/profiles"
)

// cfgFile is one settings file as it was before the run.
type cfgFile struct {
	path   string
	before []byte // nil: absent, or unreadable
	err    error  // reading it failed, for another reason than absence
	// noDir: its directory was absent before the run; one stat of it
	// after tells whether there is anything to read.
	noDir bool
	// links: which of its directory (linkDir) and itself (linkFile,
	// looked at only when it was missing) were symlinks before the run: a
	// dangling one then was the user's, not the program's.
	links uint8
	// legacy: Claude Code's legacy global config (legacyState), compared
	// as its state is; absent: it was not there before the run.
	legacy, absent bool
}

// legacyState is Claude Code's legacy global config in its config dir:
// where it exists, Claude Code reads it instead of .claude.json (its
// getClaudeConfigFilePath), so a program that makes one in ~/.claude has
// an unconfined claude start the MCP servers it names, past the state
// sync, which carries .claude.json alone.
const legacyState = ".config.json"

const (
	linkDir uint8 = 1 << iota
	linkFile
)

// claudeWatch is Claude Code's settings files in the program's reach as
// they were before the run.
type claudeWatch struct {
	home  string
	files []cfgFile
}

// watchClaude reads the settings files Claude Code would run commands
// from that lie in the program's reach: settings.json and
// settings.local.json (and legacyState) in ~/.claude and in
// CLAUDE_CONFIG_DIRs (the caller's, the program's), and .claude/'s in
// each writable root, the workspace and the working directory. One open
// per absent file.
func watchClaude(pol profiles.Policy, configDirs []string, cwd string) *claudeWatch {
	w := &claudeWatch{home: pol.Home}
	seen := map[string]bool{}
	add := func(dir string, configDir bool) {
		if pol.ReachableWritable(dir) == "" || seen[dir] {
			return
		}
		seen[dir] = true
		// Mostly absent: one call for both files, two for a link.
		var dirLink uint8
		fi, err := os.Lstat(dir)
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			dirLink = linkDir
			_, err = os.Stat(dir)
		}
		names := []string{"settings.json", "settings.local.json"}
		if configDir {
			names = append(names, legacyState)
		}
		for _, n := range names {
			f := cfgFile{path: filepath.Join(dir, n), noDir: err != nil, links: dirLink, legacy: n == legacyState}
			f.absent = f.noDir
			if err == nil {
				// Followed if a link (dotfile managers link
				// settings.json, and Claude Code follows it), but never
				// blocking, regular files only, bounded.
				f.before, f.err = readRegular(f.path, false, f.max())
			}
			if errors.Is(f.err, fs.ErrNotExist) {
				f.err, f.links, f.absent = nil, links(f.path), true
			}
			w.files = append(w.files, f)
		}
	}
	for _, d := range append([]string{pol.ClaudeDir()}, configDirs...) {
		if filepath.IsAbs(d) {
			add(filepath.Clean(d), true)
		}
	}
	for _, r := range append(slices.Clone(pol.Writable), pol.Workspace(), cwd) {
		if r != "" && r != "/tmp" && r != pol.ClaudeDir() && filepath.IsAbs(r) {
			add(filepath.Join(r, profiles.ClaudeDirName), false)
		}
	}
	return w
}

// max bounds f's read: the legacy config is a whole state file.
func (f cfgFile) max() int64 {
	if f.legacy {
		return maxState
	}
	return maxSettings
}

// compare names what the program changed in f, now after.
func (f cfgFile) compare(home string, after []byte) []string {
	name := shown(home, f.path)
	if !f.legacy {
		return settingsChanges(name, f.before, after)
	}
	var out []string
	if f.absent {
		out = append(out, fmt.Sprintf("the program made %s, which Claude Code outside omega-run reads instead of .claude.json, starting the MCP servers it names: remove it before running claude unconfined", termsafe.String(name)))
	}
	return append(out, stateChanges(name, f.before, after)...)
}

// changes names, after the run, each key the program changed in the
// watched files (a file it left unreadable, once).
func (w *claudeWatch) changes() []string {
	if w == nil {
		return nil
	}
	var out []string
	dirGone := map[string]bool{}
	for _, f := range w.files {
		if dir := filepath.Dir(f.path); f.noDir {
			if _, known := dirGone[dir]; !known {
				_, err := os.Lstat(dir) // a dangling link counts: below
				dirGone[dir] = err != nil
			}
			if dirGone[dir] {
				continue // still absent: nothing to read
			}
		}
		after, err := readRegular(f.path, false, f.max())
		switch {
		case errors.Is(err, fs.ErrNotExist) && links(f.path)&^f.links != 0:
			// Whatever appears at the link's target later (the next
			// sandbox's /tmp, the host's /tmp) is what claude runs.
			out = append(out, fmt.Sprintf("the program made %s a symlink that leads to no file yet: Claude Code outside omega-run runs the hooks and commands of what appears there; remove it before running claude unconfined", termsafe.String(shown(w.home, f.path))))
			continue
		case errors.Is(err, fs.ErrNotExist):
			continue // removed: nothing runs from it
		case err != nil && f.err == nil:
			out = append(out, fmt.Sprintf("the program left %s unreadable to omega-run (%s): check it before running claude unconfined", termsafe.String(shown(w.home, f.path)), termsafe.String(err.Error())))
			continue
		case err != nil:
			continue // so before the run too
		}
		out = append(out, f.compare(w.home, after)...)
	}
	return out
}

// paths are the settings files w compares after the run.
func (w *claudeWatch) paths() map[string]bool {
	out := map[string]bool{}
	for _, f := range w.files {
		out[f.path] = true
	}
	return out
}

// watchClaudeFor is watchClaude for p's launch: the CLAUDE_CONFIG_DIRs
// are the caller's (what an unconfined claude uses) and --setenv's.
func watchClaudeFor(p *plan) *claudeWatch {
	dirs := []string{os.Getenv("CLAUDE_CONFIG_DIR")}
	for _, kv := range p.process.SetEnv {
		if v, ok := strings.CutPrefix(kv, "CLAUDE_CONFIG_DIR="); ok {
			dirs = append(dirs, v)
		}
	}
	cwd, _ := os.Getwd()
	return watchClaude(p.policy, dirs, cwd)
}

// reportClaude warns, after the run and the state sync, about what the
// program changed in Claude Code's settings and state, capped.
func reportClaude(w *claudeWatch, syncs []*stateSync) {
	lines := w.changes()
	for _, st := range syncs {
		lines = append(lines, st.changed...)
	}
	for _, l := range capped(lines, cfgRest) {
		logrus.Warn(l)
	}
}

// links says which of the settings file path's directory and path
// itself are symlinks (.claude -> elsewhere, settings.json -> /tmp/x).
func links(path string) uint8 {
	var l uint8
	for _, c := range []struct {
		p   string
		bit uint8
	}{{filepath.Dir(path), linkDir}, {path, linkFile}} {
		if fi, err := os.Lstat(c.p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			l |= c.bit
		}
	}
	return l
}
