//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"bytes"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// broker_signal_linux.go: a blocking connect the broker makes for the
// program ends, as the kernel's would, once a signal the calling thread
// does not block is pending. The thread waits for the answer killably
// (WAIT_KILLABLE_RECV), and the kernel wakes no thread for a fatal signal
// that comes while a caught one is pending: without this, wget -T's
// SIGALRM never ran during the connect, and timeout(1)'s SIGTERM or
// Ctrl-C then left the program waiting too (for ever on a unix listener
// that never accepts). The answer is the kernel's own (ERESTARTSYS): the
// call is restarted where the handler has SA_RESTART and fails with EINTR
// where not; a TCP connect goes on meanwhile, as the kernel's does.

// errRestartSys is the kernel's ERESTARTSYS: a connect that a signal
// interrupts. On the way back to the program, the kernel restarts the
// call where the signal's handler has SA_RESTART (the program's filter
// then brings it to the broker again) and makes it EINTR where not.
const errRestartSys = unix.Errno(512)

// signalPoll is how often a waiting connect looks for signals.
const signalPoll = 50 * time.Millisecond

// sliced makes connect, of c's socket, in signalPoll slices where it
// may wait (a stream or seqpacket socket): its SO_SNDTIMEO is set for
// that time and put back after (slicing), as domainConnect does. Between
// slices it lets the calls waiting for a turn go first.
//
// A non-blocking socket's too, whose connect then ends at once: O_NONBLOCK
// lies in the file description, which the program shares, and a thread
// of it that cleared the flag between a look and the connect made that
// connect wait unsliced, for ever where the listener never accepts, in
// one of PID 1's work slots and deaf to the program's signals. So the
// flag is looked at after a connect that says it would wait: set, that
// is the answer; clear, the connect goes on.
//
// A slice that a signal of PID 1's own ends (EINTR: the Go runtime's
// SIGURG preemption, a SIGCHLD, a stop or a cgroup freeze of PID 1) is
// one more slice: with a finite SO_SNDTIMEO the kernel says EINTR, not
// ERESTARTSYS, so the runtime's SA_RESTART does not restart it. Given to
// the program as its answer, EINTR told it that a connect it never made
// was under way: Python then polls the socket (an unconnected unix one is
// writable at once), reads SO_ERROR 0 and says connected — between 1 run
// in 20 and 1 in 200 of TestConnectsWhileProcessesHeld lost a connection that way.
// The program's own signals are the watch's to tell (errRestartSys).
func (b *goBroker) sliced(c *call, connect func() unix.Errno) unix.Errno {
	if typ, err := unix.GetsockoptInt(c.sock, unix.SOL_SOCKET, unix.SO_TYPE); err != nil || typ == unix.SOCK_DGRAM {
		return connect() // never waits
	}
	own := sendTimeout(c.sock)
	// Not begun: its own timeout is a slice or less; slices of that.
	if key, old, ok := b.slicing.begin(c.sock); ok {
		defer b.slicing.end(c.sock, key)
		own = time.Duration(old.Nano())
	}
	start := time.Now()
	first := unix.Errno(0)
	var watch signalWatch
	for n := 0; ; n++ {
		e := connect()
		if n == 0 {
			first = e
		}
		// Still waiting: EAGAIN (unix), EINPROGRESS then EALREADY (TCP).
		if e != unix.EINTR && e != unix.EAGAIN && e != unix.EINPROGRESS && e != unix.EALREADY {
			return e
		}
		if e != unix.EINTR && nonblocking(c.sock) {
			return e
		}
		b.yieldTurn()
		switch {
		case own > 0 && time.Since(start) >= own && first == unix.EINTR:
			return timedOut(c.sock) // what the first slice would have said
		case own > 0 && time.Since(start) >= own:
			return first // what the kernel says when SO_SNDTIMEO passes
		case watch.interrupted(c.procPid):
			return errRestartSys
		case !b.valid(c.id):
			return unix.ESRCH
		}
	}
}

// nonblocking tells whether sock's file description has O_NONBLOCK now.
func nonblocking(sock int) bool {
	fl, err := unix.FcntlInt(uintptr(sock), unix.F_GETFL, 0)
	return err == nil && fl&unix.O_NONBLOCK != 0
}

// slicing holds the sockets workers connect in slices, by inode, with
// their own SO_SNDTIMEO (cinit_broker_signal.c's begin_slices): two
// threads of the program may connect one socket at once (the kernel has
// both wait), and the second worker must not take the first's slice for
// the socket's own (it failed with EAGAIN after 50 ms) nor put it back.
type slicing struct {
	mu sync.Mutex
	m  map[devIno]*slicedSocket
}

type slicedSocket struct {
	own   unix.Timeval
	users int
}

// begin sets sock's SO_SNDTIMEO to a slice, where no other worker has,
// and gives the socket's own; not ok where the connect is to be made
// plainly (its own timeout is a slice or less, or a call failed).
func (s *slicing) begin(sock int) (key devIno, own unix.Timeval, ok bool) {
	var st unix.Stat_t
	if unix.Fstat(sock, &st) != nil {
		return key, own, false
	}
	key = devIno{uint64(st.Dev), st.Ino}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.m[key]; e != nil {
		e.users++
		return key, e.own, true
	}
	old, err := unix.GetsockoptTimeval(sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO)
	if err != nil {
		return key, own, false
	}
	if d := time.Duration(old.Nano()); d > 0 && d <= signalPoll {
		return key, own, false
	}
	slice := unix.NsecToTimeval(signalPoll.Nanoseconds())
	if unix.SetsockoptTimeval(sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &slice) != nil {
		return key, own, false
	}
	if s.m == nil {
		s.m = map[devIno]*slicedSocket{}
	}
	s.m[key] = &slicedSocket{own: *old, users: 1}
	return key, *old, true
}

// end puts the socket's own SO_SNDTIMEO back once no worker connects it
// any more.
func (s *slicing) end(sock int, key devIno) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.m[key]; e != nil {
		if e.users--; e.users == 0 {
			delete(s.m, key)
			_ = unix.SetsockoptTimeval(sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &e.own)
		}
	}
}

// signalWatch tells when a waiting connect is interrupted: by a signal
// pending for its thread alone, or for its process in two looks running
// (another thread that takes it first would leave ERESTARTSYS to the
// program as errno 512: the kernel then sees no signal to restart for).
type signalWatch struct{ shared bool }

func (w *signalWatch) interrupted(procPid int) bool {
	status, err := readFile("/proc/" + strconv.Itoa(procPid) + "/status")
	if err != nil {
		return false
	}
	open := ^(statusMask(status, "SigBlk:") | statusMask(status, "SigIgn:"))
	if statusMask(status, "SigPnd:")&open != 0 {
		return true
	}
	shared := statusMask(status, "ShdPnd:")&open != 0
	seen := w.shared && shared
	w.shared = shared
	return seen
}

// statusMask is the hexadecimal mask of a /proc/PID/status field.
func statusMask(status []byte, field string) uint64 {
	_, rest, ok := bytes.Cut(status, []byte("\n"+field))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	m, err := strconv.ParseUint(string(bytes.TrimSpace(line)), 16, 64)
	if err != nil {
		return 0
	}
	return m
}
