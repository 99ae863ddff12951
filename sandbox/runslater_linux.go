package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// gitScan is what runsLater saw of the repositories below the writable
// set, to tell after the run what the program added there that git would
// run code from: a repository (a .git in a directory that had none), a
// git dir below a .git (a submodule's, made with a gitlink in the index,
// runs its fsmonitor at the user's next git status in the project), or a
// commondir (git follows it to another config and hooks). None of these
// can be held read-only before it exists.
type gitScan struct {
	roots   []string
	repos   map[string]bool // directories holding a .git
	gitDirs map[string]bool // each .git dir and the git dirs below it
	absent  []string        // commondir files not there at the start
}

// runsLater finds, below each writable root (ScanDepth levels at most),
// the files that tools outside the sandbox execute later, and takes the
// gitScan (nil with --writable-git-config). Each directory is read once;
// a candidate is only looked at when its first component is listed.
func runsLater(pol profiles.Policy) ([]string, *gitScan) {
	g := &gitScan{repos: map[string]bool{}, gitDirs: map[string]bool{}}
	var protect []string
	for _, root := range pol.Writable {
		if root == "/tmp" {
			continue // scratch space: nothing there runs later
		}
		g.roots = append(g.roots, root)
		walkDirs(root, profiles.ScanDepth, func(dir string, entries map[string]bool) {
			for _, n := range profiles.RunsLater {
				first, _, _ := strings.Cut(n, "/")
				if p := filepath.Join(dir, n); entries[first] && exists(p) {
					protect = append(protect, p)
				}
			}
			if entries[".git"] {
				g.repos[dir] = true
				if !pol.WritableGitConfig {
					protect = append(protect, g.gitRunsLater(filepath.Join(dir, ".git"))...)
				}
			}
		})
	}
	if pol.WritableGitConfig {
		return protect, nil
	}
	return protect, g
}

// gitRunsLater lists what in a repository's .git runs code or redirects
// git to files that do (profiles.GitRunsLater), in the repository and in
// each submodule's and linked worktree's git dir below .git, recording
// the git dirs and absent commondirs. A .git that is a file (a linked
// worktree or submodule checkout) names its git dir: the file is kept.
func (g *gitScan) gitRunsLater(dotGit string) (protect []string) {
	st, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return nil
	case st.Mode().IsRegular():
		return []string{dotGit}
	case !st.IsDir():
		return nil
	}
	for _, gitDir := range gitDirsIn(dotGit) {
		g.gitDirs[gitDir] = true
		for _, n := range profiles.GitRunsLater {
			if p := filepath.Join(gitDir, n); exists(p) {
				protect = append(protect, p)
			} else if n == "commondir" {
				g.absent = append(g.absent, p)
			}
		}
	}
	return protect
}

// gitDirsIn lists dotGit and the git dirs below it: ScanDepth levels of
// modules/ and worktrees/ at most.
func gitDirsIn(dotGit string) []string {
	out := []string{dotGit}
	for i, depth := 0, 0; depth < profiles.ScanDepth && i < len(out); depth++ {
		for end := len(out); i < end; i++ {
			for _, sub := range []string{"modules", "worktrees"} {
				list, _ := os.ReadDir(filepath.Join(out[i], sub))
				for _, e := range list {
					if e.IsDir() {
						out = append(out, filepath.Join(out[i], sub, e.Name()))
					}
				}
			}
		}
	}
	return out
}

// changes says, after the run, what the program added that git would run
// code from (see gitScan).
func (g *gitScan) changes() []string {
	if g == nil {
		return nil
	}
	var out []string
	for _, p := range g.absent {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p+" appeared while the program ran: git follows it to another directory's config and hooks, which may run code; check it before running git in "+filepath.Dir(filepath.Dir(p)))
		}
	}
	for _, root := range g.roots {
		walkDirs(root, profiles.ScanDepth, func(dir string, entries map[string]bool) {
			if !entries[".git"] {
				return
			}
			if !g.repos[dir] {
				out = append(out, "the program made a git repository in "+dir+": its config and hooks are the program's; check them before running git there or in a repository around it")
				return
			}
			for _, gd := range gitDirsIn(filepath.Join(dir, ".git")) {
				if !g.gitDirs[gd] {
					out = append(out, "the program made the git dir "+gd+" (a submodule's or worktree's): git status in "+dir+" may run its config and hooks; check them, or remove it")
				}
			}
		})
	}
	return out
}

// skipDirs are never descended into: large, and not where projects live.
var skipDirs = map[string]bool{"tmp": true, "node_modules": true, ".git": true, "vendor": true, ".cache": true, "target": true, "__pycache__": true, ".venv": true}

// walkDirs calls visit with each directory and the names in it.
func walkDirs(dir string, depth int, visit func(dir string, entries map[string]bool)) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	entries := make(map[string]bool, len(list))
	for _, e := range list {
		entries[e.Name()] = true
	}
	visit(dir, entries)
	if depth == 0 {
		return
	}
	for _, e := range list {
		if e.Type()&fs.ModeDir != 0 && !skipDirs[e.Name()] {
			walkDirs(filepath.Join(dir, e.Name()), depth-1, visit)
		}
	}
}
