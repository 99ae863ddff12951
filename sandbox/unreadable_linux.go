package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/profiles"
)

// Landlock has no metadata rights, so a program may chmod what lies in
// its writable set: one run made a repository's .git (or the directory
// holding an .envrc, or a .vscode) mode 000, the next launch of a caller
// who is not root could not read it and held nothing there read-only,
// and that run's program changed the mode back and wrote .git/config —
// code the user's next git status runs. What the scan may not read, of
// the caller's own, is now held read-only whole (deniedWarnings says
// so; past maxProtected the launch is refused: unreadableError); another
// user's directory (a container's volume in a project) the program
// could not have changed, nor written into.

// deny notes dir, which the scan may not read, when it is the caller's.
func (g *gitScan) deny(dir string) {
	var st unix.Stat_t
	if unix.Lstat(dir, &st) == nil && int(st.Uid) == os.Geteuid() {
		g.denied = append(g.denied, dir)
	}
}

// checkSearchable notes dir, when the scan may not look into it, or else
// the .git and the directories of RunsLater files in it (named in
// entries) that it may not look into.
func (g *gitScan) checkSearchable(dir string, entries map[string]bool) {
	// Listed but not searchable (mode 600): nothing in it can be looked at.
	if unix.Faccessat(unix.AT_FDCWD, dir, unix.X_OK, unix.AT_EACCESS) == unix.EACCES {
		g.deny(dir)
		return
	}
	check := func(name string, dirMode uint32) {
		if !entries[name] {
			return
		}
		p := filepath.Join(dir, name)
		var st unix.Stat_t
		if unix.Lstat(p, &st) != nil {
			return
		}
		mode := uint32(unix.R_OK)
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			mode = dirMode
		case unix.S_IFLNK:
			return // followed, and judged, where it leads
		}
		if unix.Faccessat(unix.AT_FDCWD, p, mode, unix.AT_EACCESS) == unix.EACCES {
			g.deny(p)
		}
	}
	check(".git", unix.R_OK|unix.X_OK)
	done := map[string]bool{}
	for _, n := range profiles.RunsLater {
		if first, _, sub := strings.Cut(n, "/"); sub && !done[first] {
			done[first] = true
			check(first, unix.X_OK)
		}
	}
}

// deniedWarnings says, for each directory the scan may not read, that it
// is held read-only (protected): refusing the launch stopped every run
// in a project whose tests leave such a directory (a permission test's
// fixture).
func (g *gitScan) deniedWarnings() []string {
	var out []string
	for _, d := range g.denied {
		out = append(out, d+" is not readable to omega-run,"+unreadableWords+" (a program may have made it so, to keep what runs code there from being held read-only); make it readable (chmod u+rwx), or remove it")
	}
	return out
}

// unreadableError refuses a launch whose scan met more that it may not
// read than one launch holds read-only.
func (g *gitScan) unreadableError() error {
	if len(g.denied) == 0 {
		return nil
	}
	more := ""
	if len(g.denied) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(g.denied)-1)
	}
	return fmt.Errorf("%s%s is not readable to omega-run, in the writable set: a program may have made it so, to keep what runs code there (.git/config, hooks, .envrc) from being held read-only; make it readable (chmod u+rwx), or remove it", g.denied[0], more)
}
