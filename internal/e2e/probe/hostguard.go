//go:build linux

package main

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
	"unsafe"

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
	case "fastopen-fd3": // ADDR: turn the TCP socket at fd 3 (an activated listener) into a connection to ADDR with TCP Fast Open
		return true, tcpFromFD3(args[0])
	case "connect-fd3": // ADDR: disconnect the socket at fd 3 (an activated listener), connect it to ADDR and send
		return true, connectFD3(args[0])
	case "fastopen-passed": // ADDR: ask the host peer of the unix socket at fd 3 for a socket, connect the one it passes to ADDR with TCP Fast Open
		return true, fastOpenPassed(3, args[0])
	case "fastopen-passed-at": // PATH ADDR: as fastopen-passed, from the host peer of the unix socket at PATH
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err == nil {
			err = unix.Connect(fd, &unix.SockaddrUnix{Name: args[0]})
		}
		if err != nil {
			return true, fmt.Errorf("connect %s: %w", args[0], err)
		}
		return true, fastOpenPassed(fd, args[1])
	case "mptcp-connect": // ADDR: connect an MPTCP socket and send
		return true, tcpTo(args[0], unix.IPPROTO_MPTCP, func(fd int, sa unix.Sockaddr) error {
			if err := unix.Connect(fd, sa); err != nil {
				return err
			}
			_, err := unix.Write(fd, []byte("mptcp\n"))
			return err
		})
	case "inotify-hold": // DIR: make inotify instances until refused, write their number to DIR/count, hold them until DIR/release exists
		return true, inotifyHold(args[0])
	case "userns-count": // N: make up to N user namespaces, each held by an fd, and print how many the kernel gave
		n, _ := strconv.Atoi(args[0])
		return true, usernsCount(n)
	case "inotify-one": // one inotify instance
		fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
		unix.Close(fd)
		return true, err
	}
	return false, nil
}

// inotifyHold takes every inotify instance the kernel gives this user
// here, for a test to see what is left outside meanwhile.
func inotifyHold(dir string) error {
	n := 0
	for ; n < 1<<16; n++ {
		if _, err := unix.InotifyInit1(unix.IN_CLOEXEC); err != nil {
			break
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "count.new"), []byte(strconv.Itoa(n)), 0o644); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(dir, "count.new"), filepath.Join(dir, "count")); err != nil {
		return err
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "release")); err == nil {
			return nil
		}
	}
	return errors.New("no release")
}

// usernsCount starts a process in a new user namespace, keeps the
// namespace by an fd and ends the process, n times or until refused.
func usernsCount(n int) error {
	got := 0
	var err error
	for ; got < n; got++ {
		p, e := os.StartProcess("/bin/sleep", []string{"sleep", "30"}, &os.ProcAttr{
			Sys: &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER},
		})
		if e != nil {
			err = e
			break
		}
		_, e = unix.Open(fmt.Sprintf("/proc/%d/ns/user", p.Pid), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		p.Kill()
		p.Wait()
		if e != nil {
			err = e
			break
		}
	}
	fmt.Println("namespaces:", got)
	return err
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

// tcpFromFD3 disconnects the TCP socket at fd 3 (connect to AF_UNSPEC:
// a listener becomes a closed socket, still in the namespace it was made
// in) and connects it to addr by TCP Fast Open's send.
func tcpFromFD3(addr string) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	// x/sys/unix has no AF_UNSPEC Sockaddr: the raw call.
	unspec := unix.RawSockaddrAny{Addr: unix.RawSockaddr{Family: unix.AF_UNSPEC}}
	if _, _, e := unix.Syscall(unix.SYS_CONNECT, 3, uintptr(unsafe.Pointer(&unspec)), unsafe.Sizeof(unspec.Addr)); e != 0 {
		return fmt.Errorf("disconnect: %w", e)
	}
	return unix.Sendto(3, []byte("fastopen\n"), unix.MSG_FASTOPEN, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()})
}

// fastOpenPassed asks the host peer of the unix socket at fd 3 for a
// socket (one byte), takes the one it passes (SCM_RIGHTS: a TCP socket
// of the host's network namespace, made after the launch looked at the
// fds) and connects it to addr by TCP Fast Open's send.
func fastOpenPassed(peer int, addr string) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	if _, err := unix.Write(peer, []byte{1}); err != nil {
		return fmt.Errorf("ask: %w", err)
	}
	oob := make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(peer, make([]byte, 1), oob, 0)
	if err != nil {
		return fmt.Errorf("receive: %w", err)
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return fmt.Errorf("no socket passed (%v)", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return fmt.Errorf("no socket passed (%v)", err)
	}
	return unix.Sendto(fds[0], []byte("fastopen\n"), unix.MSG_FASTOPEN, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()})
}

// connectFD3 disconnects the socket at fd 3 (connect to AF_UNSPEC), then
// connects it to addr and sends: an MPTCP socket is no TCP one to
// Landlock's rules.
func connectFD3(addr string) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return err
	}
	unspec := unix.RawSockaddrAny{Addr: unix.RawSockaddr{Family: unix.AF_UNSPEC}}
	if _, _, e := unix.Syscall(unix.SYS_CONNECT, 3, uintptr(unsafe.Pointer(&unspec)), unsafe.Sizeof(unspec.Addr)); e != 0 {
		return fmt.Errorf("disconnect: %w", e)
	}
	if err := unix.Connect(3, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	_, err = unix.Write(3, []byte("reconnected\n"))
	return err
}
