package sandbox

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// changes says, after the run, what the program added inside the .git
// dirs that git would run code from and which absent RunsLater files it
// made (see gitScan): a few directory reads per repository, a stat per
// absent file, and maxReported lines at most for each kind of change (and
// each repository's git dirs): a program can make thousands.
func (g *gitScan) changes() []string {
	if g == nil {
		return nil
	}
	var appeared, made []string
	for _, p := range g.absent {
		if _, err := os.Lstat(p); err == nil {
			appeared = append(appeared, p+" appeared while the program ran: git follows it to another directory's config and hooks, which may run code; check it before running git in "+filepath.Dir(filepath.Dir(p)))
		}
	}
	for _, r := range g.unmade {
		if _, err := os.Lstat(r.path); err == nil {
			made = append(made, "the program made "+r.path+", "+r.what+": git runs code from it; check it before running git, or remove it")
		}
	}
	out := slices.Concat(capped(appeared, "commondir files appeared in git dirs while the program ran, as above"),
		capped(made, "files the program made where git configs send git, as above"))
	for _, dotGit := range g.dotGits {
		var dirs []string
		for _, gd := range gitDirsIn(dotGit, nil) {
			switch {
			case g.gitDirs[gd] || plainWorktree(dotGit, gd):
			case filepath.Base(filepath.Dir(gd)) == "worktrees":
				dirs = append(dirs, "the program made the worktree git dir "+gd+" with its own config or common dir: git may run code from it in that worktree; check it, or remove the worktree")
			default:
				dirs = append(dirs, "the program made the git dir "+gd+": a submodule's config and hooks, which git status in "+filepath.Dir(dotGit)+" may run; check them, or remove it")
			}
		}
		out = append(out, capped(dirs, "git dirs the program made below "+dotGit+", as above")...)
	}
	out = append(out, capped(g.madeLater(), "files the program made that tools outside the sandbox run, as above")...)
	return append(out, capped(g.linksOut(), "symlinks the program made out of the writable set, as above")...)
}

// linksOut lists the symlinks the program made in a project top that
// lead out of the writable set, to a directory the caller may write or to
// nothing yet: a later launch given that path (--allow-write ~/src/app,
// or --allow-write . after a cd there) would have where it leads
// writable, though no launch was given it, and no check at that launch
// can tell the program's link from the user's own (~/code -> /data/code).
// Made: a name the scan did not see, or a link whose ctime, which nothing
// sets back, is the run's. A RunsLater name is madeLater's. One directory
// read of each top changed since the scan.
func (g *gitScan) linksOut() []string {
	var out []string
	tops := slices.Sorted(maps.Keys(g.laterTops))
	for _, top := range tops[:min(len(tops), maxLaterDirs)] {
		if !changedSince(top, g.scanned) {
			continue
		}
		had := g.laterTops[top]
		for _, e := range readDirNoFollow(top) {
			l := filepath.Join(top, e.Name())
			if e.Type()&os.ModeSymlink == 0 || laterFirst[e.Name()] || (had[e.Name()] && !madeSince(l, g.scanned)) {
				continue
			}
			if to, ok := g.leadsOut(l); ok {
				out = append(out, "the program made "+l+" a symlink to "+to+", outside its writable set: a later launch given "+l+
					" (--allow-write, or --allow-write . there) would make that writable; remove the link")
			}
		}
	}
	return out
}

// laterFirst are the first components of the RunsLater names.
var laterFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range profiles.RunsLater {
		first, _, _ := strings.Cut(n, "/")
		m[first] = true
	}
	return m
}()

// madeSince says whether the link at p was made (or changed) after t: its
// ctime, which the kernel's coarse clock may put a tick before t.
func madeSince(p string, t time.Time) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		return false
	}
	return time.Unix(st.Ctim.Unix()).After(t.Add(-20 * time.Millisecond))
}

// leadsOut says where the symlink l leads when that is out of the
// writable set: a directory the caller may write, or nothing yet.
func (g *gitScan) leadsOut(l string) (string, bool) {
	real, err := filepath.EvalSymlinks(l)
	if err != nil {
		to, err := os.Readlink(l)
		if err != nil {
			return "", false
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(l), to)
		}
		if to = filepath.Clean(to); g.writable(to) {
			return "", false
		}
		return to + " (not there yet)", true
	}
	if g.writable(real) {
		return "", false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() || unix.Access(real, unix.W_OK) != nil {
		return "", false
	}
	return real, true
}

// madeLater lists the absent RunsLater files that exist now, by the
// scan's own test, and those a symlink the program made on their way
// leads to, dangling: the next sandbox's /tmp (the data dir's), an rx
// run or any user (the host's /tmp) can make its target later, without
// a launch that names it, and the tools outside follow the link. A
// dangling link that was there at the scan is not the program's, until
// its target appears.
func (g *gitScan) madeLater() []string {
	var out []string
	for _, d := range append(g.laterAbsent, g.newLaterDirs()...) {
		gone := map[string]bool{} // .vscode still missing: none of its files to look for
		for i, n := range profiles.RunsLater {
			if d.absent&(1<<i) == 0 {
				continue
			}
			if first, _, sub := strings.Cut(n, "/"); sub {
				if _, known := gone[first]; !known {
					_, err := os.Lstat(filepath.Join(d.dir, first))
					gone[first] = err != nil
				}
				if gone[first] {
					continue
				}
			}
			p := filepath.Join(d.dir, n)
			switch {
			case g.claudeWatched[p]: // named by Claude Code's report
			case exists(p):
				out = append(out, "the program made "+p+": "+laterTool(n)+
					" runs what it says outside the sandbox (check it before opening the project)")
			case d.linked&(1<<i) == 0 && danglingLink(d.dir, n):
				out = append(out, "the program made "+p+": a symlink that leads to no file yet; "+laterTool(n)+
					" runs what appears there outside the sandbox (check the link and remove it before opening the project)")
			}
		}
	}
	return out
}

// newLaterDirs lists, with every RunsLater name absent, the directories
// the program made directly in a project top, and in a project it made
// in the workspace (a top itself): the scan could not record them, and a
// new project's .envrc is the likeliest one planted. One stat per top,
// and a directory read of each changed one, for maxLaterDirs tops and as
// many new directories at most.
func (g *gitScan) newLaterDirs() []laterDir {
	var out []laterDir
	all := uint64(1)<<len(profiles.RunsLater) - 1
	var look func(top string, had map[string]bool, projects bool)
	look = func(top string, had map[string]bool, projects bool) {
		list := readDirNoFollow(top)
		for _, e := range list {
			if !e.IsDir() || had[e.Name()] || skipDirs[e.Name()] || len(out) >= maxLaterDirs {
				continue // a symlink's entry is not a directory
			}
			d := filepath.Join(top, e.Name())
			out = append(out, laterDir{d, all, 0})
			if projects {
				look(d, nil, false)
			}
		}
	}
	tops := slices.Sorted(maps.Keys(g.laterTops)) // a parent before its children
	for _, top := range tops[:min(len(tops), maxLaterDirs)] {
		if changedSince(top, g.scanned) {
			look(top, g.laterTops[top], top == g.workspace)
		}
	}
	return out
}

// changedSince says whether dir's entries may have changed since t: its
// ctime, which a new entry sets and utimes cannot set back, is not a
// second older (the file system's clock is coarser than Go's). One stat
// instead of reading every top again.
func changedSince(dir string, t time.Time) bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		return false
	}
	return time.Unix(st.Ctim.Unix()).After(t.Add(-time.Second))
}

// readDirNoFollow lists dir unless the program made it something else
// since the scan: a link (to a tree outside the writable set) or a FIFO.
func readDirNoFollow(dir string) []os.DirEntry {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	list, _ := f.ReadDir(-1)
	slices.SortFunc(list, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list
}

// laterTool is the tool that runs a RunsLater name.
func laterTool(name string) string {
	if t, ok := profiles.RunsLaterTool[name]; ok {
		return t
	}
	return "a tool"
}

// plainWorktree says whether gd is a linked worktree's git dir as git
// worktree add makes it: its commondir leads back to dotGit, and it has
// no config or hooks of its own.
func plainWorktree(dotGit, gd string) bool {
	if filepath.Dir(gd) != filepath.Join(dotGit, "worktrees") {
		return false
	}
	for _, own := range []string{"config", "config.worktree", "hooks"} {
		if _, err := os.Lstat(filepath.Join(gd, own)); err == nil {
			return false
		}
	}
	b, err := readFileAt(filepath.Join(gd, "commondir"), false, 4096)
	if err != nil {
		return false
	}
	common := strings.TrimSpace(string(b))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gd, common)
	}
	return filepath.Clean(common) == filepath.Clean(dotGit)
}
