//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// broker_take_linux.go decides and performs one call of the Go init
// stage's connect broker (broker_linux.go takes the calls and answers
// them), as cinit_broker.c does for the C one: the address is read from
// the program's memory once, and a unix socket path is opened in the
// program's view and connected through the opened file, so that nothing
// the program changes afterwards alters what was checked.

// call is one connect(2) of the program, then what take got for it.
type call struct {
	id       uint64
	tid      int
	procPid  int // what names the thread in /proc (procPid)
	fd       int
	addr     uint64
	len      uint32
	indirect bool            // socketcall(SYS_CONNECT): the arguments sit behind addr
	sock     int             // PID 1's copy of the program's socket, or -1
	ss       [128]byte       // a struct sockaddr_storage, as cinit_broker.c reads
	done     chan unix.Errno // the locked thread's answer (domainConnect)
}

// devIno names a socket reachable wherever it lies (Broker.Sockets).
type devIno struct{ dev, ino uint64 }

// allowedSocket is one of Broker.Sockets, and the fd that holds it.
type allowedSocket struct {
	devIno
	fd   int
	path string // where it was allowed (replacedAllowed)
}

// prepareSockets records Broker.Sockets by device and inode before the
// program starts: looked up later, their paths could lead through a
// symlink the program planted to any socket. The parent sends canonical
// paths: no symlink is followed on the way (RESOLVE_NO_SYMLINKS), or,
// without openat2, only the last one is not. Each socket stays open for
// the run (O_CLOEXEC: not the program's): removed on the host, its inode
// number would go to the next file made there (ext4 gives a freed one
// out at once), and a host socket bound then would pass as allowed.
func prepareSockets(paths []string) []allowedSocket {
	var out []allowedSocket
	for _, p := range paths {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS,
		})
		if err == unix.ENOSYS {
			fd, err = unix.Open(p, unix.O_PATH|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		}
		if err != nil {
			continue
		}
		var st unix.Stat_t
		if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFSOCK {
			out = append(out, allowedSocket{devIno{uint64(st.Dev), st.Ino}, fd, p})
			continue // held: a raw fd, which no finalizer closes
		}
		unix.Close(fd)
	}
	return out
}

// tidPidfd opens a pidfd for the calling thread (PIDFD_THREAD, Linux
// 6.9), or for its thread group where only that works: pidfd_getfd
// reads the fd table, which the threads share.
func tidPidfd(tid int) (int, error) {
	fd, err := unix.PidfdOpen(tid, unix.PIDFD_THREAD)
	if err != unix.EINVAL {
		return fd, err
	}
	b, rerr := readFile("/proc/" + strconv.Itoa(tid) + "/status")
	if rerr != nil {
		return -1, unix.ESRCH
	}
	_, rest, ok := bytes.Cut(b, []byte("\nTgid:"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	tgid, cerr := strconv.Atoi(string(bytes.TrimSpace(line)))
	if !ok || cerr != nil {
		return -1, unix.ESRCH
	}
	return unix.PidfdOpen(tgid, 0)
}

// foreignProc tells whether /proc is another pid namespace's than this
// process's: the host's, kept where a fresh one was refused (freshProc).
// A tid from the listener, which is this namespace's, then names another
// task there, or none.
func foreignProc() bool {
	self, err := os.Readlink("/proc/self")
	return err == nil && self != strconv.Itoa(os.Getpid())
}

// fdinfoPid is the number of a pidfd's task in /proc's pid namespace,
// which its fdinfo gives (Pid:), or 0. The caller has checked that the
// pidfd names the calling thread (or its thread group, before Linux 6.9).
func fdinfoPid(pidfd int) int {
	b, err := readFile("/proc/self/fdinfo/" + strconv.Itoa(pidfd))
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte("\nPid:"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if !ok || err != nil || n <= 0 {
		return 0
	}
	return n
}

// readFile reads a /proc file with plain calls, all of it: a status's
// Groups: line, before its signal masks, alone runs past 4 KiB for a
// caller in some hundreds of groups.
func readFile(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == unix.EINTR:
		case err != nil:
			return nil, err
		case n == 0:
			return buf, nil
		default:
			buf = buf[:len(buf)+n]
		}
	}
}

// readMem copies len(dst) bytes at addr from the calling thread, once;
// 0 or the errno connect(2) gives back (cinit_broker.c's read_addr).
func readMem(tid int, addr uint64, dst []byte) unix.Errno {
	if len(dst) == 0 {
		return 0
	}
	local := []unix.Iovec{{Base: &dst[0]}}
	local[0].SetLen(len(dst))
	remote := []unix.RemoteIovec{{Base: uintptr(addr), Len: len(dst)}}
	n, err := unix.ProcessVMReadv(tid, local, remote, 0)
	switch {
	case err == unix.ESRCH || err == unix.EPERM || err == unix.ENOSYS:
		return err.(unix.Errno)
	case err != nil || n != len(dst):
		return unix.EFAULT
	}
	return 0
}

// take gets what a call needs from the program: its socket (a
// pidfd_getfd copy in c.sock, which the caller closes) and its address,
// read once into c.ss. 0 or the errno that is then the answer.
func (b *goBroker) take(c *call) unix.Errno {
	c.sock = -1
	pidfd, e := b.pin(c)
	if e != 0 {
		return e
	}
	e = b.takeSocket(c, pidfd)
	unix.Close(pidfd)
	if e != 0 {
		return e
	}
	// connect(2)'s own order: the fd, then the address.
	var st unix.Stat_t
	if unix.Fstat(c.sock, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return unix.ENOTSOCK
	}
	if int(c.len) > len(c.ss) {
		return unix.EINVAL
	}
	if e := readMem(c.tid, c.addr, c.ss[:c.len]); e != 0 {
		if (e == unix.EPERM || e == unix.ENOSYS) && b.saidReadRefused.Add(1) == 1 {
			b.w.warn(fmt.Sprintf("connect broker: process_vm_readv: %v: unix connects of that process fail (a filter or LSM "+
				"around omega-run refuses the call, or the process made itself non-dumpable, as ssh-agent does)", e))
		}
		return e
	}
	// And still the same thread after the read: the memory was its own.
	if !b.valid(c.id) {
		return unix.ESRCH
	}
	return 0
}

// pin opens a pidfd of the thread that called and sets c.procPid: a
// pidfd the caller closes, or the errno that is then the answer.
func (b *goBroker) pin(c *call) (int, unix.Errno) {
	pidfd, err := tidPidfd(c.tid)
	switch err {
	case nil:
	case unix.EMFILE, unix.ENFILE, unix.ENOMEM:
		return -1, err.(unix.Errno)
	case unix.ENOSYS, unix.EPERM, unix.EACCES, unix.EINVAL:
		// Not the thread's end: a filter or LSM around omega-run.
		if b.saidOpenRefused.Add(1) == 1 {
			b.w.warn(fmt.Sprintf("connect broker: pidfd_open: %v: unix connects of that process fail (a filter or LSM "+
				"around omega-run refuses the call)", err))
		}
		return -1, err.(unix.Errno)
	default:
		return -1, unix.ESRCH
	}
	// Still the thread that called (not a recycled tid): from here the
	// pidfd pins it.
	if !b.valid(c.id) {
		unix.Close(pidfd)
		return -1, unix.ESRCH
	}
	if c.procPid = c.tid; b.foreignProc {
		c.procPid = fdinfoPid(pidfd)
	}
	return pidfd, 0
}

// takeSocket copies the program's socket into c.sock through pidfd,
// reading socketcall(2)'s arguments first where the call was one.
func (b *goBroker) takeSocket(c *call, pidfd int) unix.Errno {
	if c.indirect {
		// socketcall(SYS_CONNECT, args): three 32-bit words, fd,
		// address and length.
		var a [12]byte
		if e := readMem(c.tid, c.addr, a[:]); e != 0 {
			return unix.EFAULT
		}
		c.fd = int(int32(binary.NativeEndian.Uint32(a[0:])))
		c.addr = uint64(binary.NativeEndian.Uint32(a[4:]))
		c.len = binary.NativeEndian.Uint32(a[8:])
	}
	sock, err := unix.PidfdGetfd(pidfd, c.fd, 0)
	if err != nil {
		if err != unix.EBADF && err != unix.ESRCH {
			b.refusedOnce(err)
		}
		if e, ok := err.(unix.Errno); ok {
			return e
		}
		return unix.EBADF
	}
	c.sock = sock
	return 0
}

// refusedOnce says, the first time, that pidfd_getfd was refused.
func (b *goBroker) refusedOnce(err error) {
	if b.saidRefused.Add(1) == 1 {
		b.w.warn(fmt.Sprintf("connect broker: pidfd_getfd: %v: unix connects of that process fail (a filter or LSM "+
			"around omega-run refuses the call, or the process made itself non-dumpable, as ssh-agent does)", err))
	}
}

// unixPath is the path of a taken call's unix address, or "" when it has
// none (abstract, unnamed, or another family); EINVAL for an address
// longer than a sockaddr_un, as unix_validate_addr says.
func (c *call) unixPath() (string, unix.Errno) {
	family := binary.NativeEndian.Uint16(c.ss[:])
	const off = 2 // offsetof(struct sockaddr_un, sun_path)
	if family != unix.AF_UNIX {
		return "", 0
	}
	if c.len > unix.SizeofSockaddrUnix {
		return "", unix.EINVAL
	}
	if c.len <= off || c.ss[off] == 0 {
		return "", 0
	}
	p := c.ss[off:c.len]
	if i := bytes.IndexByte(p, 0); i >= 0 {
		p = p[:i]
	}
	return string(p), 0
}

// connectPath connects c.sock to a unix socket path as the program sees
// it (cinit_broker.c's connect_path).
func (b *goBroker) connectPath(c *call, path string) unix.Errno {
	if c.procPid <= 0 {
		return unix.ESRCH
	}
	where := "/proc/" + strconv.Itoa(c.procPid) + "/cwd/" + path
	if path[0] == '/' {
		where = "/proc/" + strconv.Itoa(c.procPid) + "/root" + path
	}
	opath, err := unix.Open(where, unix.O_PATH|unix.O_CLOEXEC, 0)
	for err == unix.EINTR { // a FUSE lookup a signal to PID 1 ended (sliced says which)
		opath, err = unix.Open(where, unix.O_PATH|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return errnoOf(err)
	}
	defer unix.Close(opath)
	var st unix.Stat_t
	if err := unix.Fstat(opath, &st); err != nil {
		return errnoOf(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return unix.ECONNREFUSED // what connect(2) says for a file that is no socket
	}
	if !b.allowed(opath, &st) {
		b.reportRefusal(path, opath)
		return unix.EACCES
	}
	via := &unix.SockaddrUnix{Name: "/proc/self/fd/" + strconv.Itoa(opath)}
	return b.sliced(c, func() unix.Errno { return errnoOf(unix.Connect(c.sock, via)) })
}

// allowed tells whether the opened socket may be reached: it lies on a
// writable mount (mounts outside the writable set are read-only, and the
// program can change no mount: Landlock refuses it), or it is one of the
// spec's sockets.
func (b *goBroker) allowed(opath int, st *unix.Stat_t) bool {
	var fs unix.Statfs_t
	if unix.Fstatfs(opath, &fs) == nil && fs.Flags&unix.ST_RDONLY == 0 {
		return true
	}
	for _, s := range b.sockets {
		if s.dev == uint64(st.Dev) && s.ino == st.Ino {
			return true
		}
	}
	return false
}

// connectRaw is connect(2) with the address as the program gave it.
func connectRaw(sock int, addr []byte) unix.Errno {
	var p unsafe.Pointer
	if len(addr) > 0 {
		p = unsafe.Pointer(&addr[0])
	}
	_, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(sock), uintptr(p), uintptr(len(addr)))
	return e
}

// errnoOf is err's errno (EIO for anything else, which never comes).
func errnoOf(err error) unix.Errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EIO
}
