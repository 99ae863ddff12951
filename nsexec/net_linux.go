package nsexec

import (
	"os"

	"golang.org/x/sys/unix"
)

// loopbackUp brings lo up in a new network namespace (SIOCSIFFLAGS on a
// throwaway socket: no netlink library needed for one flag), on a socket
// of any family: a unit's RestrictAddressFamilies= refuses those it does
// not list with EAFNOSUPPORT; where it refuses all three, so it does to
// the program, and lo stays down with no socket inside to use it.
func loopbackUp() error {
	fd, err := -1, error(unix.EAFNOSUPPORT)
	for _, fam := range []int{unix.AF_INET, unix.AF_INET6, unix.AF_UNIX} {
		if fd, err = unix.Socket(fam, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0); err != unix.EAFNOSUPPORT {
			break
		}
	}
	if err == unix.EAFNOSUPPORT {
		return nil
	}
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
