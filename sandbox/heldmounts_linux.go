package sandbox

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
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
