package nsexec

import (
	"os"

	"golang.org/x/sys/unix"
)

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
