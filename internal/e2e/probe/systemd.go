//go:build linux

package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"
)

// systemd performs a service's side of socket activation and readiness
// notification, as libsystemd does it.
func systemd(action string, args []string) (bool, error) {
	switch action {
	case "listen-fds": // sd_listen_fds(3), then answer one connection on fd 3
		return true, listenFDs()
	case "notify": // sd_notify(3): READY=1 to $NOTIFY_SOCKET, connected first
		return true, notify(true)
	case "notify-sendto": // the same with sendto(2) and no connect(2)
		return true, notify(false)
	}
	return false, nil
}

func listenFDs() error {
	if pid := os.Getenv("LISTEN_PID"); pid != strconv.Itoa(os.Getpid()) {
		return fmt.Errorf("LISTEN_PID=%q, but this process is %d: sd_listen_fds would ignore the fds", pid, os.Getpid())
	}
	if n := os.Getenv("LISTEN_FDS"); n != "1" {
		return fmt.Errorf("LISTEN_FDS=%q, want 1", n)
	}
	l, err := net.FileListener(os.NewFile(3, "listen-fd"))
	if err != nil {
		return fmt.Errorf("fd 3: %w", err)
	}
	defer l.Close()
	if tl, ok := l.(*net.TCPListener); ok {
		tl.SetDeadline(time.Now().Add(10 * time.Second))
	}
	c, err := l.Accept()
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte("hello from fd 3\n"))
	return err
}

// notify sends READY=1 as sd_notify(3) implementations do: some connect
// the datagram socket first (systemd's self-contained example does; the
// connect is what sandbox mode brokers), others only sendto(2).
func notify(connect bool) error {
	path := os.Getenv("NOTIFY_SOCKET")
	if path == "" {
		return errors.New("NOTIFY_SOCKET is not set")
	}
	addr := &net.UnixAddr{Name: path, Net: "unixgram"}
	if connect {
		c, err := net.DialUnix("unixgram", nil, addr)
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte("READY=1"))
		return err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	return syscall.Sendto(fd, []byte("READY=1"), 0, &syscall.SockaddrUnix{Name: path})
}
