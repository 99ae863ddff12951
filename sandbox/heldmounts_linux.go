package sandbox

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/mountinfo"
	"github.com/omega-run/omega-run/profiles"
)

// onReadOnlyMount tells whether p lies on a read-only mount: without
// capabilities the program cannot make it writable, whatever its
// permissions say.
func onReadOnlyMount(p string) bool {
	var st unix.Statfs_t
	return unix.Statfs(p, &st) == nil && st.Flags&unix.ST_RDONLY != 0
}

// maskedHere tells whether p is covered as omega-run masks a credential
// store: a read-only mount of its own on that very path (not the parent
// directory's mount) that shows an empty directory or file. What lies
// below it cannot be read through p.
func maskedHere(p string) bool {
	self, okSelf := mountID(p)
	parent, okParent := mountID(filepath.Dir(p))
	if !okSelf || !okParent || self == parent || !onReadOnlyMount(p) {
		return false
	}
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return false
	case fi.Mode().IsRegular():
		return fi.Size() == 0
	case !fi.IsDir():
		return false
	}
	d, err := os.Open(p)
	if err != nil {
		return false
	}
	defer d.Close()
	_, err = d.Readdirnames(1)
	return errors.Is(err, io.EOF)
}

// mountID is the id of the mount p (not followed if a symlink) is on;
// ok is false where the kernel does not say (before 5.8).
func mountID(p string) (id uint64, ok bool) {
	var stx unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &stx) != nil {
		return 0, false
	}
	return stx.Mnt_id, stx.Mask&unix.STATX_MNT_ID != 0
}

// outerOwnMounts are the file systems an omega-run sandbox makes for
// itself, writable but none of the host's: what their root-owned files
// are, the program changes only for itself and the outer sandbox.
var outerOwnMounts = map[string]string{"/run": "tmpfs", "/dev": "tmpfs", "/dev/pts": "devpts", "/dev/shm": "tmpfs"}

// outerMountsHold tells whether an outer omega-run sandbox's read-only
// mounts stop metadata changes (chmod, utimes, xattrs) outside pol's
// writable set, which Landlock does not: this launch runs inside one,
// whose root is read-only, and every writable mount is in pol's writable
// set or one of the outer sandbox's own. Where the outer one grants more
// (an --allow-write of its own), the gap is there and stays said.
func outerMountsHold(pol profiles.Policy) bool {
	if !insideOuterMounts() {
		return false
	}
	mounts, err := mountinfo.Read()
	if err != nil {
		return false
	}
	for _, m := range mounts {
		if !strings.HasPrefix(m.Options, "rw") || pol.WritableRootOf(m.Point) != "" || outerOwnMounts[m.Point] == m.FSType {
			continue
		}
		return false
	}
	return true
}
