package nsexec

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// devNodes are bound from the host into the private /dev.
var devNodes = []string{"null", "zero", "full", "random", "urandom", "tty"}

// setupDev replaces /dev with a tmpfs holding only harmless nodes, a new
// devpts instance and a private /dev/shm, as bubblewrap's --dev does: the
// host's disks and other users' terminals stay out of reach.
func setupDev() error {
	// Hold the host nodes by fd: the tmpfs is about to cover their paths.
	fds := make(map[string]int, len(devNodes))
	for _, n := range devNodes {
		fd, err := unix.Open("/dev/"+n, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // a host without the node gets none
		}
		defer unix.Close(fd)
		fds[n] = fd
	}
	if err := mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return err
	}
	for _, n := range devNodes {
		if fd, ok := fds[n]; ok {
			if err := bindFD(fd, "/dev/"+n); err != nil {
				return err
			}
		}
	}
	if err := mkdirMount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return err
	}
	if err := mkdirMount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	links := [][2]string{{"pts/ptmx", "/dev/ptmx"}, {"/proc/self/fd", "/dev/fd"}, {"/proc/self/fd/0", "/dev/stdin"},
		{"/proc/self/fd/1", "/dev/stdout"}, {"/proc/self/fd/2", "/dev/stderr"}}
	for _, l := range links {
		if err := os.Symlink(l[0], l[1]); err != nil {
			return fmt.Errorf("symlink %s: %w", l[1], err)
		}
	}
	return nil
}

func bindFD(fd int, target string) error {
	if err := os.WriteFile(target, nil, 0o666); err != nil {
		return fmt.Errorf("create %s: %w", target, err)
	}
	if err := mount(fmt.Sprintf("/proc/self/fd/%d", fd), target, "", unix.MS_BIND, ""); err != nil {
		return err
	}
	// The bind takes over the host /dev's nodev from the read-only root.
	if err := mountSetattr(-1, target, 0, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_NODEV}); err != nil {
		return &os.SyscallError{Syscall: "mount_setattr(" + target + ", dev)", Err: err}
	}
	return nil
}

func mkdirMount(source, target, fstype string, flags uintptr, data string) error {
	if err := os.Mkdir(target, 0o755); err != nil {
		return fmt.Errorf("mkdir %s: %w", target, err)
	}
	return mount(source, target, fstype, flags, data)
}

// hide masks credential stores: a directory becomes an empty read-only
// tmpfs, a file an empty read-only file (bound from one that is unlinked
// again, so nothing shows where it came from).
func hide(dirs, files []string) error {
	// What has disappeared since the parent listed it (a host socket
	// whose service stopped) is skipped: there is nothing left to hide.
	for _, d := range dirs {
		if err := mount("tmpfs", d, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0755"); err != nil && !errors.Is(err, unix.ENOENT) {
			return err
		}
	}
	if len(files) == 0 {
		return nil
	}
	const empty = "/dev/.omega-run-empty"
	if err := os.WriteFile(empty, nil, 0o444); err != nil {
		return fmt.Errorf("create %s: %w", empty, err)
	}
	defer os.Remove(empty)
	for _, f := range files {
		if err := mount(empty, f, "", unix.MS_BIND, ""); errors.Is(err, unix.ENOENT) {
			continue
		} else if err != nil {
			return err
		}
		if err := setReadOnly(f, false); err != nil {
			return err
		}
	}
	return nil
}

// readOnlyBinds pins the directories that lead to the read-only paths (a
// mount point cannot be renamed: .git cannot be moved aside with its
// read-only config and replaced), then makes each path (inside a writable
// root) read-only and records what each bind pins for readOnlyLost.
func readOnlyBinds(pins, paths []string) error {
	for _, p := range pins {
		if err := selfBind(p); err != nil && !errors.Is(err, unix.ENOENT) {
			return err
		}
	}
	for _, p := range paths {
		// Gone since the parent listed it fails too: the program could
		// otherwise create the path freely.
		if err := selfBind(p); err != nil {
			return err
		}
		if err := setAttrAt(p, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}, "RDONLY"); err != nil {
			return err
		}
		var st unix.Stat_t
		if unix.Stat(p, &st) == nil {
			pinned = append(pinned, pin{p, st.Dev, st.Ino})
		}
	}
	return nil
}

// selfBind binds canonical path p onto itself, recursively, without
// following symlinks.
func selfBind(p string) error {
	fd, err := openNoFollow(p)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	at := fmt.Sprintf("/proc/self/fd/%d", fd)
	if err := unix.Mount(at, at, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s onto itself: %w", p, err)
	}
	return nil
}

// pin is a read-only bind and the file it holds.
type pin struct {
	path     string
	dev, ino uint64
}

var pinned []pin

// readOnlyLost lists the read-only binds that are gone: a host process
// that replaces or removes such a file (an editor's save by rename, git
// writing .git/config) detaches the bind in this namespace, and the
// program may then have written the new file. The kernel allows that
// from another mount namespace; all PID 1 can do is tell.
func readOnlyLost() []string {
	var lost []string
	for _, p := range pinned {
		var st unix.Stat_t
		switch err := unix.Lstat(p.path, &st); {
		case err == nil && st.Dev == p.dev && st.Ino == p.ino:
		case err != nil && err != unix.ENOENT && err != unix.ENOTDIR:
			// Out of this user's sight (EACCES after --user): no news.
		default:
			lost = append(lost, p.path)
		}
	}
	return lost
}

// lostWarning is the warning for readOnlyLost's paths (both init stages).
func lostWarning(path string) string {
	return path + " was replaced on the host while the sandbox ran, which lifted its read-only bind: " +
		"the program could have changed the new file; check it before anything runs it"
}

func setReadOnly(path string, recursive bool) error {
	flags := uint(0)
	if recursive {
		flags = unix.AT_RECURSIVE
	}
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := mountSetattr(-1, path, flags, ro); err != nil {
		return &os.SyscallError{Syscall: "mount_setattr(" + path + ", RDONLY)", Err: err}
	}
	return nil
}
