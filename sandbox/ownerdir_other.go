//go:build !linux

package sandbox

import "os"

// mkdirOne makes dir with mode 0700 whatever the caller's umask took
// from it.
func mkdirOne(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	return os.Chmod(dir, 0o700)
}
