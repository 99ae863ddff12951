package sandbox

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ownLikeDataDir gives the workspace omega-run has just made the owner of
// the data dir it lies in, when that is another user: root running a
// program with --user in a data dir that user owns made a workspace of
// root's, 0700, where the program could write nothing. It grants nothing
// the data dir's owner could not do itself (make the workspace); a data
// dir of root's (a service's) keeps a workspace of root's. The directory
// is opened without following a link, and changed through that fd.
func ownLikeDataDir(ws string) error {
	if os.Geteuid() != 0 {
		return nil // only root gives files away, and only root has --user
	}
	var parent unix.Stat_t
	if err := unix.Stat(filepath.Dir(ws), &parent); err != nil {
		return fmt.Errorf("stat: %w", err)
	}
	if parent.Uid == 0 {
		return nil
	}
	fd, err := unix.Open(ws, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Fchown(fd, int(parent.Uid), int(parent.Gid)); err != nil {
		return fmt.Errorf("chown: %w", err)
	}
	return nil
}
