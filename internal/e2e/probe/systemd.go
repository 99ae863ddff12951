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
	case "notify": // [MSG]: sd_notify(3): MSG (READY=1) to $NOTIFY_SOCKET, connected first
		return true, notify(true, args)
	case "notify-sendto": // [MSG]: the same with sendto(2) and no connect(2)
		return true, notify(false, args)
	case "notify-fd": // MSG: the same with an fd attached (FDSTORE=1)
		return true, notifyFD(args)
	case "notify-many": // N: STATUS=1…N, then STOPPING=1, then exit at once
		n, _ := strconv.Atoi(args[0])
		for i := 1; i <= n; i++ {
			if err := notify(true, []string{"STATUS=" + strconv.Itoa(i)}); err != nil {
				return true, err
			}
		}
		return true, notify(true, []string{"STOPPING=1"})
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
func notify(connect bool, args []string) error {
	path := os.Getenv("NOTIFY_SOCKET")
	if path == "" {
		return errors.New("NOTIFY_SOCKET is not set")
	}
	msg := "READY=1"
	if len(args) > 0 {
		msg = args[0]
	}
	addr := &net.UnixAddr{Name: path, Net: "unixgram"}
	if connect {
		c, err := net.DialUnix("unixgram", nil, addr)
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte(msg))
		return err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	return syscall.Sendto(fd, []byte(msg), 0, &syscall.SockaddrUnix{Name: path})
}

func notifyFD(args []string) error {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	to := &syscall.SockaddrUnix{Name: os.Getenv("NOTIFY_SOCKET")}
	return syscall.Sendmsg(fd, []byte(args[0]), syscall.UnixRights(0), to, 0)
}
