//go:build linux

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The host's IPC objects (System V and POSIX) and terminals: sandbox mode
// has its own /dev/shm, IPC namespace and devpts; rx, one process in the
// host's namespaces, has none of them (README, threat model).
func init() {
	escapes = append(escapes,
		escape{"host-dev-shm-write", 3, func(t *testing.T, w *world, mode string) bool {
			p := "/dev/shm/omega-esc-" + filepath.Base(filepath.Dir(w.home))
			writeFile(t, p, "HOST")
			os.Chown(p, w.u.uid, w.u.gid)
			t.Cleanup(func() { os.Remove(p) })
			w.run("--mode", mode, "--", "/bin/sh", "-c", "echo pwned > "+p)
			b, _ := os.ReadFile(p)
			return string(b) != "HOST"
		}, rxOpen},
		escape{"host-sysv-shm-write", 3, func(t *testing.T, w *world, mode string) bool {
			key := 0x6f6d0000 | os.Getpid()&0xffff
			id, err := unix.SysvShmGet(key, 4096, unix.IPC_CREAT|unix.IPC_EXCL|0o666)
			if err != nil {
				t.Fatalf("shmget: %v", err)
			}
			t.Cleanup(func() { unix.SysvShmCtl(id, unix.IPC_RMID, nil) })
			w.run("--mode", mode, "--", probe, "sysv-shm-write", fmt.Sprint(key))
			b, err := unix.SysvShmAttach(id, 0, unix.SHM_RDONLY)
			if err != nil {
				t.Fatalf("shmat: %v", err)
			}
			defer unix.SysvShmDetach(b)
			return bytes.HasPrefix(b, []byte("pwned"))
		}, rxOpen},
		escape{"host-posix-mq-unlink", 3, func(t *testing.T, w *world, mode string) bool {
			name := "omega-esc-" + worldID(w)
			fd := mqOpen(t, name, unix.O_CREAT|unix.O_EXCL|unix.O_RDWR)
			unix.Fchown(fd, w.u.uid, w.u.gid) // a queue of the program's user
			unix.Close(fd)
			t.Cleanup(func() { mqUnlink(name) })
			w.run("--mode", mode, "--", probe, "mq-unlink", name)
			return mqUnlink(name) == unix.ENOENT
		}, rxOpen},
		escape{"other-terminal-write", 3, func(t *testing.T, w *world, mode string) bool {
			master, slave := hostPty(t, w.u)
			w.run("--mode", mode, "--", "/bin/sh", "-c", "printf INJECTED > "+slave)
			return strings.Contains(readAvailable(master), "INJECTED")
		}, rxOpen},
	)
}

// hostPty opens a pty the way a terminal emulator does, its slave owned by
// u: another terminal of the same user.
func hostPty(t *testing.T, u user) (*os.File, string) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	slave := fmt.Sprintf("/dev/pts/%d", n)
	if err := os.Chown(slave, u.uid, u.gid); err != nil {
		t.Fatal(err)
	}
	// Keep the slave open so that the line discipline holds what arrives.
	s, err := os.OpenFile(slave, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, slave
}

// readAvailable reads what the pty master holds, waiting a short time for
// more after each read.
func readAvailable(f *os.File) string {
	var out []byte
	buf := make([]byte, 4096)
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN}}
	for {
		if n, err := unix.Poll(fds, 300); n <= 0 || err != nil {
			return string(out)
		}
		n, err := unix.Read(int(f.Fd()), buf)
		if n <= 0 || err != nil {
			return string(out)
		}
		out = append(out, buf[:n]...)
	}
}

// mqOpen opens the POSIX message queue /name (the syscall takes the name
// without its slash).
func mqOpen(t *testing.T, name string, flags int) int {
	t.Helper()
	p, _ := unix.BytePtrFromString(name)
	fd, _, e := unix.Syscall6(unix.SYS_MQ_OPEN, uintptr(unsafe.Pointer(p)), uintptr(flags), 0o600, 0, 0, 0)
	if e != 0 {
		t.Fatalf("mq_open %s: %v", name, e)
	}
	return int(fd)
}

func mqUnlink(name string) error {
	p, _ := unix.BytePtrFromString(name)
	if _, _, e := unix.Syscall(unix.SYS_MQ_UNLINK, uintptr(unsafe.Pointer(p)), 0, 0); e != 0 {
		return e
	}
	return nil
}
