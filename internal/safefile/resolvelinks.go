package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ResolveLinks is filepath.EvalSymlinks of an absolute path that also
// returns where each symlink it followed lies; .. after a link goes up
// from where the link leads, as the kernel resolves it. With missingOK a last component that does not
// exist (a dangling link's target too) is no error. check, if not nil,
// sees each symlink before it is followed and may stop the walk.
func ResolveLinks(path string, missingOK bool, check func(link string) error) (string, []string, error) {
	todo := strings.Split(strings.Trim(path, "/"), "/")
	resolved := "/"
	var links []string
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, name)
		st, err := os.Lstat(next)
		if missingOK && errors.Is(err, fs.ErrNotExist) && len(todo) == 0 {
			return next, links, nil
		}
		if err != nil {
			return "", nil, err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if check != nil {
			if err := check(next); err != nil {
				return "", nil, err
			}
		}
		if links = append(links, next); len(links) > 40 {
			return "", nil, &fs.PathError{Op: "resolve", Path: path, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, err
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return resolved, links, nil
}
