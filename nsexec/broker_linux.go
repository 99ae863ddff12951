//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// broker_linux.go: the Go init stage's connect broker (Spec.Broker), with
// the C one's decisions (cinit_broker.c; broker_take_linux.go decides and
// performs a call). How it differs, and why:
//
//   - The program's filter (Broker.Filter) with its listener goes on PID
//     1's locked thread, the only one with the program's Landlock domain,
//     right before the program's fork: os.StartProcess runs no Go code in
//     the child. PID 1's other threads get Broker.Supervisor after the
//     start, synchronised from that thread (TSYNC), so they carry the
//     program's filter too, under it: their own connect() calls come to
//     the listener as well. The listener answers a call of PID 1's own
//     threads (tgkill(PID 1, tid, 0), checked again by NOTIF_ID_VALID
//     after it: a tid is not reused while its call waits) with
//     SECCOMP_USER_NOTIF_FLAG_CONTINUE. That is sound: the address is in
//     PID 1's memory, which the program can neither write nor read (PID 1
//     is not dumpable), and the kernel then connects as the C broker's
//     own connect() would, with PID 1's credentials and domain.
//   - A unix path is connected from any thread: below Landlock ABI 9 no
//     domain judges it. An abstract or unnamed unix address is connected
//     on the locked thread, since Landlock's scoping (ABI 6) judges the
//     connecting task's domain, and so is an inet one under --net none,
//     whose TCP rules do the same; other families, which Landlock does
//     not judge, from any thread. Never with FLAG_CONTINUE for the
//     program: between the check and the kernel's connect, another of its
//     threads could dup2 a unix socket onto the fd, or rewrite the address.
//   - Up to maxBrokerWorkers connects run at once, as in C; further calls
//     wait their turn, and a blocking connect to a listener that never
//     accepts holds its worker until the program ends. Of those, only
//     workSlots are at work at once, and a waiting connect a slice at a
//     time (broker_threads_linux.go: each holds a thread meanwhile). The
//     locked thread makes one connect at a time, and never waits long in
//     one: see broker_domain_linux.go.

const maxBrokerWorkers = 32

type goBroker struct {
	listener int
	pid      int // PID 1's, whose threads' own calls go through
	sockets  []allowedSocket
	denyTCP  bool
	// /proc is not this pid namespace's (the host's, kept where a fresh
	// one was refused): paths through /proc/<tid> take the pidfd's number
	// there (fdinfoPid).
	foreignProc bool
	w           warner
	sem         chan struct{}
	turns       chan struct{} // calls at work (broker_threads_linux.go)
	domain      chan *call
	// ready is closed once started has closed the caller's path fds:
	// until then a path through /proc/self/fd/N would resolve with one
	// of them (a directory of the host's), which the C broker, serving
	// only after omega_close_from, never meets.
	ready chan struct{}
	// Counters of what was said once (pidfd_getfd, pidfd_open,
	// process_vm_readv refused) or at most thrice.
	saidRefused, saidOpenRefused, saidReadRefused, reported atomic.Int32
	slicing                                                 slicing // broker_signal_linux.go
	// netCookie is the sandbox's own network namespace's (--net none),
	// or 0; saidOtherNet counts refusals on the host's sockets
	// (broker_othernet_linux.go).
	netCookie    uint64
	saidOtherNet atomic.Int32
}

// struct seccomp_notif and struct seccomp_notif_resp.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

const (
	auditArchI386 = 0x40000003
	auditArchARM  = 0x40000028
)

// startBroker installs the program's filter with its listener on this
// (locked) thread, after confine and before the program's fork, and
// starts answering it. Where the kernel cannot, it warns, or fails with
// --fail-closed, and installs the plain profile (nil broker).
func startBroker(s *Spec, w warner) (*goBroker, error) {
	// Before the filter: a custom profile may refuse PID 1 a socket.
	cookie := ownNetCookie(s)
	listener, err := -1, kernelBefore(5, 6)
	if err == nil {
		listener, err = s.Broker.Filter.InstallListener()
	}
	if err != nil {
		msg := "connect broker unavailable (" + err.Error() + "): " + BrokerGapWhat
		if s.FailClosed {
			return nil, errors.New("--fail-closed: " + msg)
		}
		w.warn(msg)
		if s.Seccomp != nil {
			if err := installProfile(s); err != nil {
				return nil, fmt.Errorf("seccomp: %w", err)
			}
		}
		return nil, nil
	}
	b := &goBroker{
		listener:    listener,
		pid:         os.Getpid(),
		sockets:     prepareSockets(s.Broker.Sockets),
		denyTCP:     s.Landlock.DenyTCP,
		netCookie:   cookie,
		foreignProc: foreignProc(),
		w:           w,
		sem:         make(chan struct{}, maxBrokerWorkers),
		turns:       make(chan struct{}, workSlots(warmed)),
		domain:      make(chan *call),
		ready:       make(chan struct{}),
	}
	go b.listen()
	return b, nil
}

// kernelBefore fails on a kernel older than major.minor: the broker
// connects a pidfd_getfd copy of the program's socket (Linux 5.6).
// Told by the version, not by a call, which a filter around omega-run
// might answer by killing the process.
func kernelBefore(major, minor int) error {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return nil
	}
	f := strings.SplitN(unix.ByteSliceToString(u.Release[:]), ".", 3)
	if len(f) < 2 {
		return nil
	}
	ma, err1 := strconv.Atoi(f[0])
	mi, err2 := strconv.Atoi(leadingDigits(f[1]))
	if err1 != nil || err2 != nil || ma > major || (ma == major && mi >= minor) {
		return nil
	}
	return errors.New("pidfd_getfd, which came with Linux 5.6: " + unix.ENOSYS.Error())
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// started finishes the setup once the program runs: PID 1 keeps no file
// of the caller's by path (the broker resolves /proc/self/fd/N with PID
// 1's own fd table), and its threads get the supervisor's filter.
func (b *goBroker) started(s *Spec, kept []*os.File) error {
	for _, f := range kept {
		f.Close()
	}
	if initParent != nil {
		initParent.status.Close()
		initParent = nil
	}
	keep := []int{b.listener}
	for _, a := range b.sockets {
		keep = append(keep, a.fd)
	}
	closePathFDs(keep)
	if s.Broker.Supervisor != nil {
		if err := s.Broker.Supervisor.Install(); err != nil {
			return errors.New("connect broker: PID 1's filter: " + err.Error())
		}
	}
	close(b.ready)
	return nil
}

// closePathFDs closes this process's fds from 3 on that name a file by
// its path (a directory or a socket file of the host's would be reached
// through /proc/self/fd/N), but keep (the listener, the allowed sockets,
// which lead nowhere else). Pipes, sockets and anonymous inodes (the Go
// runtime's) lead nowhere.
func closePathFDs(keep []int) {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < 3 || slices.Contains(keep, fd) {
			continue
		}
		if link, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(link, "/") {
			unix.Close(fd)
		}
	}
}

// listen takes the calls off the listener. It never connects itself: its
// own call would wait for itself.
func (b *goBroker) listen() {
	for {
		var req seccompNotif
		if err := b.ioctl(unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req)); err != nil {
			if err == unix.ENOENT {
				continue // the caller went away
			}
			// Calls then fail with ENOSYS rather than hang.
			unix.Close(b.listener)
			return
		}
		if b.own(&req) {
			b.reply(req.id, 0, unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE)
			continue
		}
		c := &call{
			id: req.id, tid: int(req.pid), fd: int(int32(req.args[0])), addr: req.args[1], len: uint32(req.args[2]),
			indirect: req.nr == 102 && (req.arch == auditArchI386 || req.arch == auditArchARM),
			sock:     -1,
		}
		go b.answer(c)
	}
}

// own tells whether a call comes from one of PID 1's own threads.
func (b *goBroker) own(req *seccompNotif) bool {
	return unix.Tgkill(b.pid, int(req.pid), 0) == nil && b.valid(req.id)
}

func (b *goBroker) valid(id uint64) bool {
	return b.ioctl(unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&id)) == nil
}

func (b *goBroker) ioctl(req uint, arg unsafe.Pointer) error {
	for {
		_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(b.listener), uintptr(req), uintptr(arg))
		switch e {
		case 0:
			return nil
		case unix.EINTR:
			// A signal to this thread of PID 1 (the Go runtime's
			// preemption) while it waited for the filter's notify lock,
			// which the other calls hold briefly: an answer not sent
			// would leave the program's thread waiting for ever.
		default:
			return e
		}
	}
}

// reply answers a call; ENOENT (its thread was killed) needs nothing.
func (b *goBroker) reply(id uint64, e unix.Errno, flags uint32) {
	resp := seccompNotifResp{id: id, error: -int32(e), flags: flags}
	_ = b.ioctl(unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
}

// answer decides and performs one call of the program's, in its turn.
func (b *goBroker) answer(c *call) {
	<-b.ready
	b.sem <- struct{}{}
	defer func() { <-b.sem }()
	b.takeTurn()
	defer b.endTurn()
	e := b.take(c)
	if e == 0 {
		e = b.perform(c)
	}
	if c.sock >= 0 {
		unix.Close(c.sock)
	}
	b.reply(c.id, e, 0)
}

// perform connects a taken call.
func (b *goBroker) perform(c *call) unix.Errno {
	if b.otherNet(c.sock) {
		return unix.EACCES // as Landlock's TCP rules answer
	}
	path, e := c.unixPath()
	switch {
	case e != 0:
		return e
	case path != "":
		return b.connectPath(c, path)
	case b.needsDomain(c.sock):
		return b.domainConnect(c)
	}
	return b.sliced(c, func() unix.Errno { return connectRaw(c.sock, c.ss[:c.len]) })
}

// needsDomain tells whether Landlock judges a connect of sock by the
// connecting task's domain: a unix socket's (abstract scoping), and an
// inet one's where the rules handle TCP.
func (b *goBroker) needsDomain(sock int) bool {
	family, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	switch {
	case err != nil || family == unix.AF_UNIX:
		return true
	case family == unix.AF_INET || family == unix.AF_INET6:
		return b.denyTCP
	}
	return false
}
