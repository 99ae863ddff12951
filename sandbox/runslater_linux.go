package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
)

// runsLater finds, below each writable root (ScanDepth levels at most),
// the files that tools outside the sandbox execute later, and the git
// files that must not appear (watch). Each directory is read once; a
// candidate is only looked at when its first component is in the
// listing, so the scan costs one getdents per directory.
func runsLater(pol profiles.Policy) (protect, watch []string) {
	for _, root := range pol.Writable {
		if root == "/tmp" {
			continue // scratch space: nothing there runs later
		}
		walkDirs(root, profiles.ScanDepth, func(dir string, entries map[string]bool) {
			for _, n := range profiles.RunsLater {
				first, _, _ := strings.Cut(n, "/")
				if p := filepath.Join(dir, n); entries[first] && exists(p) {
					protect = append(protect, p)
				}
			}
			if entries[".git"] && !pol.WritableGitConfig {
				p, w := gitRunsLater(filepath.Join(dir, ".git"))
				protect, watch = append(protect, p...), append(watch, w...)
			}
		})
	}
	return protect, watch
}

// gitRunsLater lists what in a repository's .git runs code or redirects
// git to files that do (profiles.GitRunsLater), in the repository and in
// each submodule's git dir below .git/modules. A .git that is a file (a
// linked worktree or submodule checkout) names its git dir: the file is
// kept. The absent commondir, which git would follow to another config
// and hooks, cannot be bound; it is watched instead.
func gitRunsLater(dotGit string) (protect, watch []string) {
	st, err := os.Lstat(dotGit)
	switch {
	case err != nil:
		return nil, nil
	case st.Mode().IsRegular():
		return []string{dotGit}, nil
	case !st.IsDir():
		return nil, nil
	}
	var visit func(gitDir string, depth int)
	visit = func(gitDir string, depth int) {
		for _, n := range profiles.GitRunsLater {
			if p := filepath.Join(gitDir, n); exists(p) {
				protect = append(protect, p)
			} else if n == "commondir" {
				watch = append(watch, p)
			}
		}
		if depth == 0 {
			return
		}
		for _, sub := range []string{"modules", "worktrees"} {
			list, _ := os.ReadDir(filepath.Join(gitDir, sub))
			for _, e := range list {
				if e.IsDir() {
					visit(filepath.Join(gitDir, sub, e.Name()), depth-1)
				}
			}
		}
	}
	visit(dotGit, profiles.ScanDepth)
	return protect, watch
}

// appeared warns about each watched path that exists after the run.
func appeared(watch []string) []string {
	var out []string
	for _, p := range watch {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p+" appeared while the program ran: git follows it to another directory's config and hooks, which may run code; check it before running git in "+filepath.Dir(filepath.Dir(p)))
		}
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
