//go:build linux

package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sockets runs the unix-socket actions that need the test to act while
// they run: each prints "ready", then waits for the test to bind HOST.
func sockets(action string, args []string) (bool, error) {
	switch action {
	case "connect-unix-later": // HOST: connect once the test has bound it
		if err := readyThenWait(args[0]); err != nil {
			return true, err
		}
		c, err := net.DialTimeout("unix", args[0], 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "connect-unix-when": // WAIT PATH: connect to PATH once the test has made WAIT
		if err := readyThenWait(args[0]); err != nil {
			return true, err
		}
		c, err := net.DialTimeout("unix", args[1], 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "swap-allowed": // ALLOWED HOST: make ALLOWED a symlink to HOST, then connect to it
		if err := readyThenWait(args[1]); err != nil {
			return true, err
		}
		dir := filepath.Dir(args[0])
		if err := os.Rename(dir, dir+".moved"); err != nil {
			return true, err
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return true, err
		}
		if err := os.Symlink(args[1], args[0]); err != nil {
			return true, err
		}
		c, err := net.DialTimeout("unix", args[0], 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "connect-race": // OWN HOST: connect while another thread flips the address
		return true, connectRace(args[0], args[1])
	case "dgram-recv": // PATH: bind a datagram socket at PATH (mode 777), say "ready", print "GOT MSG" of one datagram within 10 s
		return true, dgramRecv(args[0])
	case "stream-recv": // PATH: listen on PATH (mode 777), say "ready", print "GOT" when a connection comes within 10 s
		return true, streamRecv(args[0])
	}
	return false, nil
}

// ownSockets runs the socket actions that need nothing of the test while
// they run: the program's own servers, early connects, a datagram sent,
// an io_uring set up.
func ownSockets(action string, args []string) (bool, error) {
	switch action {
	case "tcp-serve-self": // ADDR: listen on ADDR and connect to it, a test's own server
		ln, err := net.Listen("tcp4", args[0])
		if err != nil {
			return true, err
		}
		defer ln.Close()
		c, err := net.DialTimeout("tcp4", ln.Addr().String(), 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "connect-unix-early": // PATH MS: connect from the first instant on, again and again for MS ms
		ms, err := strconv.Atoi(args[1])
		if err != nil {
			return true, err
		}
		for end := time.Now().Add(time.Duration(ms) * time.Millisecond); ; {
			fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				return true, err
			}
			err = unix.Connect(fd, &unix.SockaddrUnix{Name: args[0]})
			unix.Close(fd)
			if err == nil || time.Now().After(end) {
				return true, err
			}
		}
	case "send-dgram": // PATH: one datagram to PATH with sendto(2), no connect(2)
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return true, err
		}
		defer unix.Close(fd)
		return true, unix.Sendto(fd, []byte("through"), 0, &unix.SockaddrUnix{Name: args[0]})
	case "own-socket-dgram": // PATH: a datagram to our own socket, via connect
		return true, ownDgram(args[0])
	case "own-socket-abstract": // NAME: listen in the abstract namespace and connect
		return true, ownStream("@" + args[0])
	case "io-uring": // set up an io_uring, whose IORING_OP_CONNECT no filter sees
		var params [120]byte // struct io_uring_params
		fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if e != 0 {
			return true, e
		}
		return true, unix.Close(int(fd))
	}
	return false, nil
}

func readyThenWait(path string) error {
	fmt.Println("ready")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Lstat(path); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s never appeared", path)
}

func ownStream(path string) error {
	ln, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

func ownDgram(path string) error {
	srv, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer srv.Close()
	c, err := net.Dial("unixgram", path)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		return err
	}
	b := make([]byte, 1)
	srv.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, err = srv.Read(b)
	return err
}

// connectRace attacks a broker that checks the address and then lets the
// kernel read it again: one thread flips the address between a socket the
// program may reach (own, which it serves itself) and the host's, while
// the other connects thousands of times. It succeeds when a connection
// reached host.
func connectRace(own, host string) error {
	ln, err := net.Listen("unix", own)
	if err != nil {
		return err
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if err := readyThenWait(host); err != nil {
		return err
	}
	var sa unix.RawSockaddrUnix
	sa.Family = unix.AF_UNIX
	set := func(p string) {
		for i := range len(p) {
			sa.Path[i] = int8(p[i])
		}
		sa.Path[len(p)] = 0
	}
	set(own)
	var stop atomic.Bool
	go func() {
		for !stop.Load() {
			set(host)
			set(own)
		}
	}()
	defer stop.Store(true)
	ok := 0
	for range 3000 {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		_, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
		if e == 0 {
			ok++
		}
		unix.Close(fd)
	}
	// Then the host's address, still: on a loaded machine the flipper may
	// not have run during the loop, and where nothing confines the
	// program (the rwx control) this one must reach the host; the broker
	// refuses it like any other.
	stop.Store(true)
	if c, err := net.DialTimeout("unix", host, time.Second); err == nil {
		ok++
		c.Close()
	}
	fmt.Printf("%d of 3001 connects went through\n", ok)
	if ok == 0 {
		return errors.New("no connect went through")
	}
	return nil
}

func dgramRecv(path string) error {
	srv, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer srv.Close()
	if err := os.Chmod(path, 0o777); err != nil { // only omega-run may stand in the way
		return err
	}
	fmt.Println("ready")
	b := make([]byte, 64)
	srv.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := srv.Read(b)
	if err != nil {
		return err
	}
	fmt.Printf("GOT %s\n", b[:n])
	return nil
}

func streamRecv(path string) error {
	ln, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	defer ln.Close()
	if err := os.Chmod(path, 0o777); err != nil {
		return err
	}
	fmt.Println("ready")
	ln.(*net.UnixListener).SetDeadline(time.Now().Add(10 * time.Second))
	c, err := ln.Accept()
	if err != nil {
		return err
	}
	fmt.Println("GOT")
	return c.Close()
}
