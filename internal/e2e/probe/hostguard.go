//go:build linux

package main

import (
	"net/netip"
	"strconv"

	"golang.org/x/sys/unix"
)

// hostGuard runs the actions that reach past Landlock without a pid or
// network namespace (seccomp.HostGuard).
func hostGuard(action string, args []string) (bool, error) {
	switch action {
	case "prlimit": // PID: set PID's open-file limit to 0
		pid, _ := strconv.Atoi(args[0])
		return true, unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{}, nil)
	case "tcp-fastopen": // ADDR: connect and send with TCP Fast Open
		return true, tcpTo(args[0], unix.IPPROTO_TCP, func(fd int, sa unix.Sockaddr) error {
			return unix.Sendto(fd, []byte("fastopen\n"), unix.MSG_FASTOPEN, sa)
		})
	case "mptcp-connect": // ADDR: connect an MPTCP socket and send
		return true, tcpTo(args[0], unix.IPPROTO_MPTCP, func(fd int, sa unix.Sockaddr) error {
			if err := unix.Connect(fd, sa); err != nil {
				return err
			}
			_, err := unix.Write(fd, []byte("mptcp\n"))
			return err
		})
	}
	return false, nil
}

func tcpTo(addr string, proto int, send func(fd int, sa unix.Sockaddr) error) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, proto)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return send(fd, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()})
}
