package sandbox

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// A confined shell session keeps its history in the sandbox's own file,
// <data dir>/history/<shell>_history, kept across sessions and read by
// the next: the host's ~/.bash_history is read-only to it (its write at
// exit failed, silently), and made writable it would let a confined
// program plant the line the user re-runs with Up+Enter.

// historyEnv is the HISTFILE a shell session at path gets, and the
// history file's name (nil, "" when none: not a shell that keeps one in
// $HISTFILE, or the user chose HISTFILE already). An inherited HISTFILE
// the program could not write (the host's history) gives way to the
// sandbox's own; one given with --setenv stays, as does an empty one
// (no history, on purpose).
func historyEnv(pol profiles.Policy, path string, args []string, proc Process) (env []string, file string) {
	name, _ := profiles.ShellHistory(realProgram(path), args)
	return historyEnvFor(pol, name, proc)
}

// historyEnvFor is historyEnv for the shell whose history file is name.
func historyEnvFor(pol profiles.Policy, name string, proc Process) (env []string, file string) {
	if name == "" || hasEnvKey(proc.SetEnv, "HISTFILE") {
		return nil, ""
	}
	if v, ok := proc.lookupEnv("HISTFILE"); ok && (v == "" || pol.WritableRootOf(v) != "") {
		return nil, ""
	}
	file = filepath.Join(pol.DataDir, profiles.HistoryDirName, name)
	return []string{"HISTFILE=" + file}, file
}

// realProgram is path with its symlinks resolved (/bin/sh to bash), or
// path where that fails.
func realProgram(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// histfileSet matches a line that sets HISTFILE unconditionally.
var histfileSet = regexp.MustCompile(`^\s*(?:export\s+|typeset\s+(?:-\w+\s+)*|declare\s+(?:-\w+\s+)*)?HISTFILE=(\S*)`)

// rcSetsHistfile is the first rc file (in dir, or absolute), or file one
// sources, that sets HISTFILE to a file outside pol's writable set, and
// the line; "" when none does. A value it cannot tell ($VAR other than
// HOME) counts as outside: the warning is better than a history lost
// unsaid.
func rcSetsHistfile(pol profiles.Policy, dir string, rcs []string) (string, int) {
	var files []string
	for _, rc := range rcs {
		if !filepath.IsAbs(rc) {
			rc = filepath.Join(dir, rc)
		}
		files = append(files, rc)
	}
	for i := 0; i < len(files) && i < maxRCFiles; i++ {
		rc := files[i]
		if slices.Contains(files[:i], rc) {
			continue
		}
		// A regular file of sane size only: a FIFO planted where a
		// writable ZDOTDIR is would block the launch.
		b, err := readRegular(rc, false, 1<<20)
		if err != nil {
			continue
		}
		s := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; s.Scan(); n++ {
			files = append(files, sourcedFiles(s.Text(), pol.Home)...)
			m := histfileSet.FindStringSubmatch(s.Text())
			if m == nil {
				continue
			}
			v := expandHome(strings.Trim(strings.TrimRight(m[1], ";"), `"'`), pol.Home)
			if v != "" && (!filepath.IsAbs(v) || strings.Contains(v, "$") || pol.WritableRootOf(v) == "") {
				return rc, n
			}
		}
	}
	return "", 0
}

// maxRCFiles bounds the rc files and files they source that one launch
// reads (a file that sources itself is read once).
const maxRCFiles = 16

// sourceCmd matches ". FILE" or "source FILE" at a line's start or after
// &&, ; or then: dotfiles kept in pieces ([ -f ~/.x ] && . ~/.x).
var sourceCmd = regexp.MustCompile(`(?:^|&&|;|\bthen)\s*(?:\.|source)\s+("[^"]*"|'[^']*'|[^\s;&|]+)`)

// sourcedFiles are the files line sources by a path written out (~,
// $HOME and ${HOME} expanded); not one named through another variable
// or a loop's (for f in ~/.bashrc.d/*; do . "$f"; done).
func sourcedFiles(line, home string) []string {
	var out []string
	for _, m := range sourceCmd.FindAllStringSubmatch(line, -1) {
		p := expandHome(strings.Trim(m[1], `"'`), home)
		if filepath.IsAbs(p) && !strings.ContainsAny(p, "$*?[`") {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// expandHome expands a leading ~, $HOME or ${HOME} in v.
func expandHome(v, home string) string {
	for _, h := range []string{"~", "$HOME", "${HOME}"} {
		if v == h || strings.HasPrefix(v, h+"/") {
			return home + v[len(h):]
		}
	}
	return v
}
