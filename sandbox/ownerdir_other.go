//go:build !linux

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// mkdirOwnerOnly is os.MkdirAll(d, 0o700) that leaves each directory it
// makes, d and its missing parents (a --data-dir a/b/c), with that mode
// whatever the caller's umask: under 0277 a parent made r-x refused the
// next level.
func mkdirOwnerOnly(d string) error {
	if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(d, 0o700) // there already; MkdirAll says what is wrong
	}
	if parent := filepath.Dir(d); parent != d {
		if err := mkdirOwnerOnly(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(d, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return os.MkdirAll(d, 0o700) // made meanwhile, not by this launch
		}
		return err
	}
	return os.Chmod(d, 0o700)
}

// createEmpty creates the file path, 0600 whatever the umask, failing if
// any file is there (O_EXCL: a symlink too).
func createEmpty(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Chmod(0o600)
}
