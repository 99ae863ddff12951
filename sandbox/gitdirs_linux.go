package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/omega-run/omega-run/profiles"
	"golang.org/x/sys/unix"
)

// gitfileDir is the git dir a .git file names ("gitdir: PATH", relative
// to the file's directory), or "".
func gitfileDir(file string) string {
	b, err := readFileAt(file, false, 4096) // the program's: no FIFO, link or endless file
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	if dir = strings.TrimSpace(dir); !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(file), dir)
	}
	return filepath.Clean(dir)
}

// isGitDir tells a git dir by what git itself looks for: a HEAD of any
// kind but a directory (a symlinked HEAD counts), or a config, a
// commondir or an objects directory.
func isGitDir(dir string) bool {
	if fi, err := os.Lstat(filepath.Join(dir, "HEAD")); err == nil && !fi.IsDir() {
		return true
	}
	for _, n := range []string{"config", "commondir", "objects"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// gitDirsIn lists dotGit and the git dirs below it, in modules/ (a
// submodule named libs/foo has its git dir at modules/libs/foo) and
// worktrees/, at most ScanDepth git dirs deep and 8 directories below
// each modules/; nothing below a git dir but its own modules/ and
// worktrees/. Symlinks are not followed (a program's link must not lead
// the scan, or the hooks dirs made for what it finds, elsewhere).
func gitDirsIn(dotGit string, denied func(string)) []string {
	out := []string{dotGit}
	var below func(dir string, levels int)
	below = func(dir string, levels int) {
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || levels == 0 {
			return
		}
		list, err := os.ReadDir(dir)
		if denied != nil && (errors.Is(err, fs.ErrPermission) || unix.Faccessat(unix.AT_FDCWD, dir, unix.X_OK, unix.AT_EACCESS) == unix.EACCES) {
			denied(dir) // unlisted, or listed but not searchable (mode 600)
		}
		for _, e := range list {
			if !e.IsDir() { // a symlink's entry is not a directory
				continue
			}
			if p := filepath.Join(dir, e.Name()); isGitDir(p) {
				out = append(out, p)
			} else {
				below(p, levels-1)
			}
		}
	}
	for i, depth := 0, 0; depth < profiles.ScanDepth && i < len(out); depth++ {
		for end := len(out); i < end; i++ {
			below(filepath.Join(out[i], "modules"), 8)
			below(filepath.Join(out[i], "worktrees"), 1)
		}
	}
	return out
}
