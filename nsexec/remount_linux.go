package nsexec

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/internal/mountinfo"
)

// mountSetattr is mount_setattr(2) on what fd refers to or, with fd < 0,
// on canonical path p (which names it in errors either way). A kernel
// without it (before 5.12) remounts instead.
func mountSetattr(fd int, p string, flags uint, attr *unix.MountAttr) error {
	var err error
	if fd >= 0 {
		err = unix.MountSetattr(fd, "", flags|unix.AT_EMPTY_PATH, attr)
	} else {
		err = unix.MountSetattr(unix.AT_FDCWD, p, flags, attr)
	}
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	if fd < 0 {
		if fd, err = openNoFollow(p); err != nil {
			return err
		}
		defer unix.Close(fd)
	}
	if err := remountOne(fd, attr); err != nil {
		return fmt.Errorf("remount %s: %w", p, err)
	}
	if flags&unix.AT_RECURSIVE == 0 {
		return nil
	}
	return remountBelow(p, attr)
}

// remountOne changes the mount fd is the root of, keeping every flag it
// has: a user namespace may not drop one the kernel locked (nosuid, nodev,
// the atime ones).
func remountOne(fd int, attr *unix.MountAttr) error {
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return err
	}
	keep := [][2]uintptr{{unix.ST_RDONLY, unix.MS_RDONLY}, {unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME}, {stNoSymFollow, unix.MS_NOSYMFOLLOW}}
	var flags uintptr
	for _, k := range keep {
		if uintptr(st.Flags)&k[0] != 0 {
			flags |= k[1]
		}
	}
	flags = (flags | msFlags(attr.Attr_set)) &^ msFlags(attr.Attr_clr)
	return unix.Mount("", fmt.Sprintf("/proc/self/fd/%d", fd), "", unix.MS_REMOUNT|unix.MS_BIND|flags, "")
}

func msFlags(attr uint64) uintptr {
	var f uintptr
	for _, m := range [][2]uint64{{unix.MOUNT_ATTR_RDONLY, unix.MS_RDONLY}, {unix.MOUNT_ATTR_NOSUID, unix.MS_NOSUID}, {unix.MOUNT_ATTR_NODEV, unix.MS_NODEV}} {
		if attr&m[0] != 0 {
			f |= uintptr(m[1])
		}
	}
	return f
}

// stNoSymFollow is statfs's ST_NOSYMFOLLOW (Linux 5.10).
const stNoSymFollow = 0x2000

// remountBelow changes every mount strictly below p (from
// /proc/self/mountinfo) that a path reaches. One that none does —
// covered by a later mount (a tmpfs over /tmp), stacked under another at
// the same place, its mount point deleted — is out of the program's
// reach as well, and keeps its flags.
func remountBelow(p string, attr *unix.MountAttr) error {
	mounts, err := mountinfo.Read()
	if err != nil {
		return err // a mount it cannot read could be one to change
	}
	for _, m := range mounts {
		mp := m.Point
		if mp == p || !(p == "/" || strings.HasPrefix(mp, p+"/")) {
			continue
		}
		fd, err := openNoFollow(mp)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EACCES) {
			continue // what covers it has no such path, or one the caller (and program) cannot search
		}
		if err != nil {
			return err
		}
		at, err := mntID(fd)
		if err == nil && uint64(at) == m.ID {
			err = remountOne(fd, attr)
		}
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("remount %s: %w", mp, err)
		}
	}
	return nil
}

// mntID is the id of the mount fd is on (fdinfo's mnt_id).
func mntID(fd int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/fdinfo/%d", fd))
	if err != nil {
		return 0, err
	}
	_, rest, ok := strings.Cut(string(b), "mnt_id:")
	if !ok {
		return 0, errors.New("no mnt_id in /proc/self/fdinfo")
	}
	line, _, _ := strings.Cut(rest, "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}
