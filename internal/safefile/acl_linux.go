package safefile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// extendedACL says whether path has an access ACL beyond its mode bits:
// then the group bits are the ACL's mask, and a write they show may be
// granted to other users or groups, not only to the file's group.
// Unreadable or unsupported counts as none.
func extendedACL(path string) bool {
	_, err := unix.Getxattr(path, "system.posix_acl_access", nil)
	return err == nil || errors.Is(err, unix.ERANGE)
}
