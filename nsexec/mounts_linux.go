package nsexec

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// devNodes are bound from the host into the private /dev.
var devNodes = []string{"null", "zero", "full", "random", "urandom", "tty"}

// setupMounts runs inside the new mount namespace. The host root stays the
// root (no pivot_root): Landlock, not read-only mounts, confines writes, so
// the only mounts are those that change what the program sees.
func setupMounts(writable []string) error {
	// Nothing mounted here may propagate back to the host.
	if err := mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return err
	}
	if err := readOnlyRoot(writable); err != nil {
		return err
	}
	if err := mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return err
	}
	return setupDev()
}

// readOnlyRoot makes every mount read-only except the writable roots.
// Landlock already confines writes; this adds what Landlock has no rights
// for (chmod, chown, utimes, xattrs) and a second wall behind it.
func readOnlyRoot(writable []string) error {
	var binds []string
	for _, w := range writable {
		if strings.HasPrefix(w, "/dev/") {
			continue // the private /dev comes later
		}
		if err := mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue
			}
			return err
		}
		binds = append(binds, w)
	}
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, ro); err != nil {
		return &os.SyscallError{Syscall: "mount_setattr(/, RDONLY)", Err: err}
	}
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, w := range binds {
		if err := unix.MountSetattr(unix.AT_FDCWD, w, 0, rw); err != nil {
			return &os.SyscallError{Syscall: "mount_setattr(" + w + ", rw)", Err: err}
		}
	}
	return nil
}

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
		fd, ok := fds[n]
		if !ok {
			continue
		}
		target := "/dev/" + n
		if err := os.WriteFile(target, nil, 0o666); err != nil {
			return fmt.Errorf("create %s: %w", target, err)
		}
		if err := mount(fmt.Sprintf("/proc/self/fd/%d", fd), target, "", unix.MS_BIND, ""); err != nil {
			return err
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

func mkdirMount(source, target, fstype string, flags uintptr, data string) error {
	if err := os.Mkdir(target, 0o755); err != nil {
		return fmt.Errorf("mkdir %s: %w", target, err)
	}
	return mount(source, target, fstype, flags, data)
}

func mount(source, target, fstype string, flags uintptr, data string) error {
	if err := unix.Mount(source, target, fstype, flags, data); err != nil {
		return fmt.Errorf("mount %s on %s: %w", source, target, err)
	}
	return nil
}

// loopbackUp brings lo up in a new network namespace (SIOCSIFFLAGS on a
// throwaway socket: no netlink library needed for one flag).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return &os.SyscallError{Syscall: "socket", Err: err}
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return &os.SyscallError{Syscall: "ioctl(SIOCSIFFLAGS)", Err: err}
	}
	return nil
}
