//go:build linux

package main

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// families are the address families restrictFamilies knows by name.
var families = map[string]uint32{
	"AF_UNIX": unix.AF_UNIX, "AF_INET": unix.AF_INET, "AF_INET6": unix.AF_INET6,
	"AF_NETLINK": unix.AF_NETLINK, "AF_PACKET": unix.AF_PACKET, "AF_VSOCK": unix.AF_VSOCK,
}

// restrictFamilies simulates systemd's RestrictAddressFamilies= (an
// allow list; src/shared/seccomp-util.c): "restrict-families
// AF_X[,AF_Y...] PROGRAM ARGS..." makes socket(2) with any other family
// fail with EAFNOSUPPORT (socketpair(2) is not filtered, as systemd's is
// not), then execs.
func restrictFamilies(args []string) error {
	f := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // nr
		jeq(unix.SYS_SOCKET, 1, 0), ret(unix.SECCOMP_RET_ALLOW),
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 16}, // args[0], low half (little-endian)
	}
	names := strings.Split(args[0], ",")
	for i, name := range names {
		af, ok := families[name]
		if !ok {
			return fmt.Errorf("unknown family %q", name)
		}
		// Allowed: jump past the remaining checks and the refusal.
		f = append(f, jeq(af, uint8(len(names)-i), 0))
	}
	f = append(f, ret(unix.SECCOMP_RET_ERRNO|uint32(unix.EAFNOSUPPORT)), ret(unix.SECCOMP_RET_ALLOW))
	return filteredExec(f, args[1:])
}

// loopbackUp (loopback-up) tells whether lo is up, asked on a unix
// socket, or a netlink one: a filter that refuses inet sockets may be
// around (the ioctl reaches the device from any family).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err == unix.EAFNOSUPPORT {
		fd, err = unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	if ifr.Uint16()&unix.IFF_UP == 0 {
		return fmt.Errorf("lo is down")
	}
	return nil
}
