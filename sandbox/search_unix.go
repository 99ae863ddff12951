//go:build unix

package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks is the kernel's limit on symlinks followed in one path walk.
const maxLinks = 40

// walkPath stats path (absolute) as execve's path walk reaches it for
// as: every directory from / down, and down to where a symlink leads,
// must let it search (x). The caller's faccessat walks the path itself;
// otherwise the mode bits decide, and a directory they refuse that has an
// access ACL counts as searchable (execve decides). known holds the
// directories found searchable in this lookup, so that PATH entries
// sharing a prefix cost one lstat per directory.
func walkPath(path string, as runner, known map[string]bool) (fs.FileInfo, error) {
	if as.caller {
		return os.Stat(path)
	}
	if err := searchDir("/", as, known); err != nil {
		return nil, err
	}
	done, todo, links := "/", strings.Split(path, "/"), 0
	for len(todo) > 0 {
		name, last := todo[0], len(todo) == 1
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			done = filepath.Dir(done) // searched on the way down
			continue
		}
		next := filepath.Join(done, name)
		if known[next] && !last {
			done = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case err != nil:
			return nil, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if links++; links > maxLinks {
				return nil, &fs.PathError{Op: "stat", Path: path, Err: syscall.ELOOP}
			}
			target, err := os.Readlink(next)
			if err != nil {
				return nil, err
			}
			if filepath.IsAbs(target) {
				done = "/"
			}
			todo = append(strings.Split(target, "/"), todo...)
			continue
		case last:
			return fi, nil
		}
		if err := searchDirInfo(next, fi, as, known); err != nil {
			return nil, err
		}
		done = next
	}
	return os.Stat(done) // path ends at a directory ("/", "..")
}

// searchDir is searchDirInfo for a directory not yet looked at.
func searchDir(dir string, as runner, known map[string]bool) error {
	if known[dir] {
		return nil
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	return searchDirInfo(dir, fi, as, known)
}

// searchDirInfo checks that dir, which fi describes, is a directory as may
// search, and remembers it in known.
func searchDirInfo(dir string, fi fs.FileInfo, as runner, known map[string]bool) error {
	switch {
	case !fi.IsDir():
		return &fs.PathError{Op: "lookup", Path: dir, Err: syscall.ENOTDIR}
	case !modeGrantsX(fi, as) && !hasAccessACL(dir):
		return &fs.PathError{Op: "search", Path: dir, Err: fs.ErrPermission}
	}
	known[dir] = true
	return nil
}
