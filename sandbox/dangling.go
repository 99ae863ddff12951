package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// danglingLink says whether a symlink lies on the way from dir to name
// (a RunsLater name, which exists tested and found missing): a link
// that leads nowhere yet, or to a directory without the file. One lstat
// per component.
func danglingLink(dir, name string) bool {
	p := dir
	for _, c := range strings.Split(name, "/") {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil {
			return false
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}
