//go:build linux

package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// attack runs the actions that try to get out: it reports whether action
// is one of them, and the attempt's error (nil: it succeeded).
func attack(action string, args []string) (bool, error) {
	switch action {
	case "connect-unix": // PATH, or @NAME for the abstract namespace
		c, err := net.DialTimeout("unix", args[0], 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "own-socket": // listen on PATH and connect to it: the program's own server
		ln, err := net.Listen("unix", args[0])
		if err != nil {
			return true, err
		}
		defer ln.Close()
		go func() {
			if c, err := ln.Accept(); err == nil {
				c.Close()
			}
		}()
		c, err := net.DialTimeout("unix", args[0], 2*time.Second)
		if err != nil {
			return true, err
		}
		return true, c.Close()
	case "tiocsti": // push a character into the terminal on fd 0
		b := []byte(args[0])
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, 0, unix.TIOCSTI, uintptrOf(&b[0]))
		return true, errnoErr(errno)
	case "tiocsetd": // LDISC: set the line discipline of the terminal on fd 0 (27: n_null)
		ldisc, _ := strconv.Atoi(args[0])
		return true, unix.IoctlSetPointerInt(0, unix.TIOCSETD, ldisc)
	case "kdskbmode", "kdsetmode": // MODE: the keyboard mode (4: K_OFF) or display mode (1: KD_GRAPHICS) of the console on fd 0
		req := map[string]uint{"kdskbmode": kdSKBMode, "kdsetmode": kdSetMode}[action]
		mode, _ := strconv.Atoi(args[0])
		return true, unix.IoctlSetInt(0, req, mode)
	case "ptrace": // attach to PID
		pid, _ := strconv.Atoi(args[0])
		err := unix.PtraceAttach(pid)
		if err == nil {
			unix.PtraceDetach(pid)
		}
		return true, err
	case "loop-add": // CONTROL N: LOOP_CTL_ADD through the loop-control node CONTROL, opened read-only
		fd, err := unix.Open(args[0], unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return true, err
		}
		defer unix.Close(fd)
		n, _ := strconv.Atoi(args[1])
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.LOOP_CTL_ADD, uintptr(n))
		return true, errnoErr(errno)
	case "nested-unmask": // DIR FILE
		return true, nested("unmask-inner", args)
	case "unmask-inner":
		return true, unmaskInner(args)
	case "nested-remount-write": // FILE
		return true, nested("remount-inner", args)
	case "remount-inner":
		return true, remountInner(args)
	}
	return false, nil
}

// fileAttack runs the attempts on files: writes, truncation, modes,
// attributes and inode flags, and a read, which prints what it got.
func fileAttack(action string, args []string) (bool, error) {
	switch action {
	case "write": // open PATH for writing and write to it
		f, err := os.OpenFile(args[0], os.O_WRONLY, 0)
		if err != nil {
			return true, err
		}
		defer f.Close()
		_, err = f.WriteString("pwned")
		return true, err
	case "read": // print PATH's content
		b, err := os.ReadFile(args[0])
		fmt.Printf("content=%q\n", b)
		return true, err
	case "truncate": // truncate(2) on PATH, no open for writing first
		return true, unix.Truncate(args[0], 0)
	case "open-trunc": // open(2) PATH O_RDONLY|O_TRUNC: Linux truncates where write is allowed
		fd, err := unix.Open(args[0], unix.O_RDONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
		if err == nil {
			unix.Close(fd)
		}
		return true, err
	case "chmod": // PATH MODE(octal)
		m, _ := strconv.ParseUint(args[1], 8, 32)
		return true, unix.Chmod(args[0], uint32(m))
	case "setxattr": // PATH: set the extended attribute user.omega
		return true, unix.Setxattr(args[0], "user.omega", []byte("1"), 0)
	case "chattr-nodump": // PATH: set the no-dump inode flag through a read-only fd
		return true, setNodump(args[0])
	case "create-mode": // PATH MODE(octal): create a file with that mode
		m, _ := strconv.ParseUint(args[1], 8, 32)
		fd, err := unix.Open(args[0], unix.O_CREAT|unix.O_WRONLY|unix.O_EXCL, uint32(m))
		if err == nil {
			unix.Close(fd)
		}
		return true, err
	}
	return false, nil
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// nested re-executes the probe in a new user and mount namespace with
// CAP_SYS_ADMIN there (ambient, so it survives the exec without a uid
// map, which Landlock would not let anyone write), to try an inner action.
func nested(inner string, args []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, append([]string{inner}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  unix.CLONE_NEWUSER | unix.CLONE_NEWNS,
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN},
	}
	return cmd.Run()
}

// unmaskInner detaches the mount over DIR and prints FILE below it.
func unmaskInner(args []string) error {
	if err := unix.Unmount(args[0], unix.MNT_DETACH); err != nil {
		fmt.Println("umount:", err)
	}
	b, err := os.ReadFile(args[1])
	fmt.Printf("content=%q\n", b)
	return err
}

// remountInner makes / writable again and writes FILE.
func remountInner(args []string) error {
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
		fmt.Println("mount_setattr:", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND, ""); err != nil {
		fmt.Println("remount:", err)
	}
	return os.WriteFile(args[0], []byte("pwned"), 0o644)
}

// setNodump sets FS_NODUMP_FL (chattr +d, which backups skip) with
// FS_IOC_SETFLAGS on a read-only fd: the owner may, no write open needed.
func setNodump(path string) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	return unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags|fsNodumpFL))
}

// fsNodumpFL is FS_NODUMP_FL from linux/fs.h (x/sys/unix lacks it).
const fsNodumpFL = 0x40

// KDSKBMODE and KDSETMODE from linux/kd.h (x/sys/unix lacks them).
const (
	kdSKBMode = 0x4b45
	kdSetMode = 0x4b3a
)
