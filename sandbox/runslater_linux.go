package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// gitScan is what runsLater saw, to tell after the run what the program
// added that runs code outside later and no bind could hold beforehand:
// a RunsLater file that was absent, and inside the repositories' .git
// dirs, what git would run code from: a git dir below .git (a
// submodule's, which a gitlink in the index makes the user's next git
// status enter and run its fsmonitor) or a commondir (git follows it to
// another config and hooks). A new repository elsewhere in the project
// is the same risk and is not looked for (README, threat model): the
// index that makes git enter it must stay writable for commits.
type gitScan struct {
	// canon maps each writable root as named to its canonical path; nil
	// for explain, which makes no missing hooks dir.
	canon map[string]string
	roots []string // the writable roots, as named and resolved
	// privateTmp: "/tmp" among roots is the sandbox's own, not the host's.
	privateTmp bool
	warnings   []string
	dotGits    []string        // .git directories
	gitDirs    map[string]bool // each of them and the git dirs below it
	absent     []string        // commondir files not there at the start
	// missingHooks are the git dirs whose hooks dir makeHooks makes.
	missingHooks []string
	home         string // for ~ in config paths
	// unmade are the places configs send git to (gitRedirects) that did
	// not exist at the start: the program could make them.
	unmade []redirect
	// configs are the config files read for redirects, each once: a
	// planted repository's config could include itself a hundred times.
	configs map[string]bool
	// laterAbsent are, for each project top (a writable root the user
	// granted, the workspace and each directory in it, a repository's
	// top) and the
	// directories directly in one, the RunsLater files the scan did not
	// find (with --writable-git-config too: they are not git's); at most
	// maxLaterDirs. Not every directory the scan reads: checking each
	// again after the run cost as much as the scan (2.5 µs a stat, eight
	// names a directory: 6.7 ms for 331 directories).
	laterAbsent []laterDir
	// laterTops maps each project top to the names in it at the scan:
	// a directory the program makes there is looked in after the run.
	laterTops map[string]map[string]bool
	workspace string
	scanned   time.Time // when the scan began
	// claudeWatched are the Claude Code settings files the launch's own
	// report compares key by key (claudewatch.go).
	claudeWatched map[string]bool
	// denied are the caller's directories the scan may not read
	// (unreadable_linux.go).
	denied []string
}

// laterDir is a directory and the RunsLater names absent from it, bit i
// for profiles.RunsLater[i]: one small record per directory, as a big
// tree has thousands.
type laterDir struct {
	dir    string
	absent uint64
	// linked are the absent names a symlink on their way already led to
	// at the scan (a dangling link of the user's): not the program's.
	linked uint64
}

// watchedElsewhere notes the settings files the Claude Code report
// compares key by key: a new one is named there, not also here.
func (g *gitScan) watchedElsewhere(w *claudeWatch) {
	if g != nil && w != nil {
		g.claudeWatched = w.paths()
	}
}

// maxLaterDirs bounds the directories checked again after the run for
// RunsLater files the program made (6 stats each at most).
const maxLaterDirs = 128

// recordAbsent keeps dir's absent RunsLater names for the check after the
// run when dir is a project top or directly in one. The scan visits a
// parent before its children.
func (g *gitScan) recordAbsent(pol profiles.Policy, root, dir string, entries map[string]bool, absent, linked uint64) {
	repo := entries[".git"]
	ws := pol.Workspace()
	// The data dir and ~/.claude are omega-run's and Claude Code's own,
	// not projects anyone opens: only the workspace in them counts.
	own := root == pol.DataDir || root == pol.ClaudeDir()
	top := (dir == root && !own) || dir == ws || filepath.Dir(dir) == ws || repo
	if top {
		if g.laterTops == nil {
			g.laterTops = map[string]map[string]bool{}
		}
		g.laterTops[dir] = entries
	}
	_, inTop := g.laterTops[filepath.Dir(dir)]
	if (top || inTop) && absent != 0 && len(g.laterAbsent) < maxLaterDirs {
		g.laterAbsent = append(g.laterAbsent, laterDir{dir, absent, linked})
	}
}

// maxGitConfigs bounds the configs one launch reads for redirects.
const maxGitConfigs = 64

// runsLater finds, below each writable root (ScanDepth levels at most),
// the files that tools outside the sandbox execute later, and takes the
// gitScan (with --writable-git-config, of the absent RunsLater files only).
// Each directory is read once; a candidate is only looked at when its
// first component is listed, and one not found is recorded as absent
// from what was already probed: no stat more.
// roots are the writable roots as named and as resolved; canon maps the
// named ones to the resolved ones (canonicalRoots) for a launch, which may
// make missing hooks dirs; explain (nil) may not.
func runsLater(pol profiles.Policy, canon map[string]string, roots []string, privateTmp bool) ([]string, *gitScan) {
	g := &gitScan{canon: canon, roots: roots, privateTmp: privateTmp, gitDirs: map[string]bool{}, home: pol.Home,
		configs: map[string]bool{}, workspace: pol.Workspace(), scanned: time.Now()}
	var protect []string
	seen := map[string]bool{} // nested roots: the data dir in a project
	for _, root := range pol.Writable {
		if root == "/tmp" {
			continue // scratch space: nothing there runs later
		}
		var skipTop map[string]bool
		if root == pol.ClaudeDir() {
			skipTop = claudeDataDirs
		}
		walkDirs(root, profiles.ScanDepth, skipTop, g.deny, func(dir string, entries map[string]bool) {
			if seen[dir] {
				return
			}
			seen[dir] = true
			g.checkSearchable(dir, entries)
			var absent, linked uint64
			for i, n := range profiles.RunsLater {
				if n == profiles.ClaudeProjectSettings && filepath.Join(dir, profiles.ClaudeDirName) == pol.ClaudeDir() {
					continue // the user's own (home writable): reported after the run instead
				}
				first, _, _ := strings.Cut(n, "/")
				if p := filepath.Join(dir, n); entries[first] && exists(p) {
					protect = append(protect, p)
				} else {
					absent |= 1 << i
					if entries[first] && danglingLink(dir, n) {
						linked |= 1 << i
					}
				}
			}
			g.recordAbsent(pol, root, dir, entries, absent, linked)
			if entries[".git"] && !pol.WritableGitConfig {
				protect = append(protect, g.gitRunsLater(filepath.Join(dir, ".git"))...)
			}
		})
	}
	return protect, g
}

// gitRunsLater lists what in a repository's .git runs code or redirects
// git to files that do (profiles.GitRunsLater), in the repository and in
// each submodule's and linked worktree's git dir below .git, recording
// the git dirs and absent commondirs. A missing hooks directory is to be
// made (empty, as git init makes it; makeHooks) and held read-only too. A
// .git that is a file (a linked worktree or submodule checkout) names its
// git dir: the file is kept, and a git dir it names elsewhere is scanned
// too. A .git that is a symlink is followed, with a warning: the link
// itself cannot be held.
func (g *gitScan) gitRunsLater(dotGit string) (protect []string) {
	st, err := os.Lstat(dotGit)
	if err != nil || g.gitDirs[dotGit] {
		return nil
	}
	switch {
	case st.Mode().IsRegular():
		protect = append(protect, dotGit)
		// Resolved first, as a .git symlink is: a link on the way
		// (planted by an earlier run) must not lead the scan, or the
		// hooks dir it makes, out of the writable set.
		if real, err := filepath.EvalSymlinks(gitfileDir(dotGit)); err == nil && g.writable(real) {
			protect = append(protect, g.gitRunsLater(real)...)
		}
		return protect
	case st.Mode()&fs.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(dotGit)
		if err != nil || !g.writable(real) {
			return nil // out of the writable set: out of reach anyway
		}
		g.warnings = append(g.warnings, dotGit+" is a symlink to "+real+": its config and hooks are"+keptLinkWords+" (make "+dotGit+" the directory itself)")
		return g.gitRunsLater(real)
	case !st.IsDir() || !isGitDir(dotGit):
		return nil
	}
	g.dotGits = append(g.dotGits, dotGit)
	for _, gitDir := range gitDirsIn(dotGit, g.deny) {
		g.gitDirs[gitDir] = true
		for _, n := range profiles.GitRunsLater {
			p := filepath.Join(gitDir, n)
			switch {
			case exists(p):
				protect = append(protect, p)
			case n == "commondir":
				g.absent = append(g.absent, p)
			case n == "hooks" && g.canon != nil && filepath.Base(filepath.Dir(gitDir)) != "worktrees":
				// Made (makeHooks) and held once the count is checked.
				g.missingHooks = append(g.missingHooks, gitDir)
				protect = append(protect, p)
			}
		}
		protect = append(protect, g.redirects(gitDir, filepath.Dir(dotGit))...)
	}
	return protect
}

// makeHooks makes the missing hooks dirs the scan found, once protected
// has checked the count: a program may have left thousands of git dirs,
// and a launch that fails on them must not fill them first.
func (g *gitScan) makeHooks() {
	for _, d := range g.missingHooks {
		g.mkdirHooks(d)
	}
}

// mkdirHooks makes gitDir/hooks (already there: fine) through a
// directory opened without following symlinks: another sandbox of the
// user, running, could swap one in on the way since the scan. The path
// is canonical first: a symlink on the way to the writable root (a
// project reached through /home -> /var/home) is the user's. A hooks dir
// that cannot be made is a warning (an error with --fail-closed): the
// program could make it and plant hooks in it — unless permission is
// what refused it, as the program holds the launcher's ids or fewer
// rights (a vendored repository owned by another user).
func (g *gitScan) mkdirHooks(gitDir string) {
	dir := g.canonical(gitDir)
	fd, err := openDirNoSymlinks(dir)
	switch {
	case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM):
		err = os.Mkdir(filepath.Join(dir, "hooks"), 0o755) // no openat2 (before 5.6)
	case err == nil:
		err = unix.Mkdirat(fd, "hooks", 0o755)
		unix.Close(fd)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) && !errors.Is(err, unix.EROFS) && !errors.Is(err, fs.ErrPermission) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		g.warnings = append(g.warnings, "cannot make the missing "+filepath.Join(gitDir, "hooks")+" ("+err.Error()+
			"): the program can make it and plant hooks that git runs outside the sandbox")
	}
}

// canonical is p (in the writable set) with the part up to its writable
// root, as named, replaced by the root's canonical path; a path below no
// named root is canonical already (the scan resolved it).
func (g *gitScan) canonical(p string) string {
	best := ""
	for named := range g.canon {
		if profiles.Within(p, named) && len(named) > len(best) {
			best = named
		}
	}
	if best == "" {
		return p
	}
	rel, _ := filepath.Rel(best, p)
	return filepath.Join(g.canon[best], rel)
}

// writable says whether dir lies in a writable root (host /tmp aside,
// unless the sandbox shares it).
func (g *gitScan) writable(dir string) bool { return inRoots(dir, g.roots, g.privateTmp) }

// skipDirs are never descended into: large, and not where projects live.
var skipDirs = map[string]bool{"tmp": true, "node_modules": true, ".git": true, "vendor": true, ".cache": true, "target": true, "__pycache__": true, ".venv": true}

// claudeDataDirs are not descended into in ~/.claude: Claude Code's own
// records of past sessions (transcripts, file snapshots, shell
// environments, plans, caches), a few directories per session, where no
// one opens a project, runs git or starts an editor (the scan looks for
// what those run; ~/.claude is writable by design, and what Claude Code
// itself reads there is its own to trust). A heavy user's thousands of
// them made the scan the largest part of a launch (+70 ms for 3,000).
// What Claude Code runs from ~/.claude (plugins and their git clones,
// hooks, commands, agents, skills) is still scanned.
var claudeDataDirs = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range profiles.ClaudeDataDirs {
		m[n] = true
	}
	return m
}()

// walkDirs calls visit with each directory and the names in it, but not
// below the names in skipTop directly in dir, and denied with each it
// may not read.
func walkDirs(dir string, depth int, skipTop map[string]bool, denied func(string), visit func(dir string, entries map[string]bool)) {
	list, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			denied(dir)
		}
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
		if e.Type()&fs.ModeDir != 0 && !skipDirs[e.Name()] && !skipTop[e.Name()] {
			walkDirs(filepath.Join(dir, e.Name()), depth-1, nil, denied, visit)
		}
	}
}

// gitHookNames are the hooks git runs (githooks(5)).
var gitHookNames = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
	"pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
	"fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
	"post-index-change",
}
