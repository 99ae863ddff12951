//go:build !unix

package sandbox

import (
	"errors"
	"io/fs"
	"os"
)

// owner is unknown where files have no uid.
func owner(fs.FileInfo) (uid, gid int, ok bool) { return -1, -1, false }

// checkPreservedFDs has nothing to check where fds are not inherited.
func checkPreservedFDs(int) error { return nil }

// readWorkCopy reads a working copy the confined program may have
// replaced, refusing anything but a regular file of sane size
// (workCopyMax).
func readWorkCopy(path string, homeSize int) ([]byte, error) {
	return readRegular(path, true, workCopyMax(homeSize))
}

// readRegular reads path when it is a regular file (a symlink is followed
// only without noFollow) no larger than max (max < 0: no limit).
func readRegular(path string, noFollow bool, max int64) ([]byte, error) {
	stat := os.Stat
	if noFollow {
		stat = os.Lstat
	}
	fi, err := stat(path)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, errors.New("it is not a regular file")
	case max >= 0 && fi.Size() > max:
		return nil, errors.New("it is too large")
	}
	return os.ReadFile(path)
}

// checkRegular tells whether path is a regular file, not a symlink,
// without reading it.
func checkRegular(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("it is not a regular file")
	}
	return err
}

// lockState has no file locks to offer here: every launch syncs alone.
func lockState(string, chan os.Signal) (*os.File, syncMode, error) { return nil, syncAlone, nil }

func stateShare(lock *os.File) *os.File { return lock }

func lastOut(*os.File) bool { return true }

func lockAlone(string) *os.File { return nil }

// mayExecute has only the mode bits to go by here.
func mayExecute(string, fs.FileInfo, runner) error { return nil }

// walkPath has no search permission to judge here.
func walkPath(path string, _ runner, _ map[string]bool) (fs.FileInfo, error) { return os.Stat(path) }
