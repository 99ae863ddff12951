//go:build linux

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// vsockListen (vsock-listen PORT FILE) listens on vsock PORT, which
// network namespaces do not separate, prints "ready" and holds the port
// until FILE appears, so the test can bind it outside meanwhile.
func vsockListen(args []string) error {
	port, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	err = listenVsock(uint32(port))
	fmt.Println("ready")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, serr := os.Lstat(args[1]); serr == nil {
			return err
		}
	}
	return fmt.Errorf("%s never appeared (listening: %v)", args[1], err)
}

// listenVsock leaves the listening socket open until the process exits.
func listenVsock(port uint32) error {
	fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrVM{CID: unix.VMADDR_CID_ANY, Port: port}); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	if err := unix.Listen(fd, 1); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	return nil
}

// listenUnbound listens on a TCP socket it never bound: the kernel binds
// a free port at listen(), past Landlock's bind rule.
func listenUnbound() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := unix.Listen(fd, 1); err != nil {
		return err
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return err
	}
	fmt.Println(sa.(*unix.SockaddrInet4).Port)
	tv := unix.Timeval{Sec: 3}
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	c, _, err := unix.Accept(fd)
	if err != nil {
		return err
	}
	return unix.Close(c)
}
