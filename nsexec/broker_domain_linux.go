//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"time"

	"golang.org/x/sys/unix"
)

// broker_domain_linux.go: the connects the Go init stage's broker makes on
// PID 1's locked thread, the one with the program's Landlock domain
// (broker_linux.go says which). That thread makes one at a time, so no
// connect may hold it: a blocking unix connect waits for room in the
// listener's backlog, for ever where the listener never accepts, and a
// blocking stream one under --net none (MPTCP, which Landlock's TCP rules
// do not see) waits for the handshake, two minutes where the listener's
// queue is full; every other such connect of the program would wait
// behind it. So the thread lends such a connect domainSlice at most
// (SO_SNDTIMEO, which bounds both waits, set on the socket for that time
// and put back after), and the call's worker comes back with it until it
// gets through, or until the socket's own SO_SNDTIMEO has passed (EAGAIN
// for unix, EINPROGRESS for inet, as the kernel says then). A stream
// connect left waiting goes on in the kernel between slices (EINPROGRESS,
// then EALREADY), and the next slice takes its end. A program thread that
// sets SO_SNDTIMEO on that socket while its connect waits may see its
// value put back.

// A connect that waits takes the thread for domainSlice, then leaves it
// for a pause that doubles from domainSlice up to domainPauseMax: a
// listener that never accepts holds the thread ~2 % of the time per
// waiting connect, and delays another connect by domainSlice at most;
// one that accepts at last is seen domainPauseMax later at most.
const (
	domainSlice    = 5 * time.Millisecond
	domainPauseMax = 200 * time.Millisecond
)

// domainConnect has the locked thread make the connect, slice by slice.
func (b *goBroker) domainConnect(c *call) unix.Errno {
	c.done = make(chan unix.Errno, 1)
	start := time.Now()
	own := sendTimeout(c.sock)
	pause := domainSlice
	var watch signalWatch
	for {
		b.domain <- c
		e := <-c.done
		if e != errSliceOver {
			return e
		}
		if own > 0 && time.Since(start) >= own {
			return timedOut(c.sock)
		}
		if watch.interrupted(c.procPid) {
			return errRestartSys // broker_signal_linux.go
		}
		if !b.valid(c.id) {
			return unix.ESRCH // its thread was killed: nobody waits
		}
		b.endTurn() // no thread is needed for the pause
		time.Sleep(pause)
		b.takeTurn()
		pause = min(2*pause, domainPauseMax)
	}
}

// errSliceOver says that a connect waited its slice out and goes on
// waiting; never an answer.
const errSliceOver = unix.Errno(^uintptr(0) >> 1)

// serveDomain makes the connects that need the locked thread's Landlock
// domain, on it. It never returns: the program's reaper exits.
func (b *goBroker) serveDomain() {
	for c := range b.domain {
		c.done <- connectSlice(c)
	}
}

// connectSlice makes c's connect, waiting domainSlice at most where it
// would block (a unix or inet stream socket whose own SO_SNDTIMEO is
// longer). A non-blocking socket's gets the slice too: the program may
// clear O_NONBLOCK, which its file description shares with c.sock, at
// any moment (sliced says more), so the flag is looked at only after a
// connect that says it would wait.
func connectSlice(c *call) unix.Errno {
	addr := c.ss[:c.len]
	family, ferr := unix.GetsockoptInt(c.sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	typ, terr := unix.GetsockoptInt(c.sock, unix.SOL_SOCKET, unix.SO_TYPE)
	inet := (family == unix.AF_INET || family == unix.AF_INET6) && typ == unix.SOCK_STREAM
	if ferr != nil || terr != nil || (family != unix.AF_UNIX && !inet) {
		return connectRaw(c.sock, addr)
	}
	old, err := unix.GetsockoptTimeval(c.sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO)
	if err != nil || (old.Nano() > 0 && time.Duration(old.Nano()) <= domainSlice) {
		return sliceOverAtEINTR(connectRaw(c.sock, addr))
	}
	slice := unix.NsecToTimeval(domainSlice.Nanoseconds())
	if unix.SetsockoptTimeval(c.sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &slice) != nil {
		return connectRaw(c.sock, addr)
	}
	e := connectRaw(c.sock, addr)
	_ = unix.SetsockoptTimeval(c.sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO, old)
	// A blocking socket says these only when its send timeout passed; a
	// non-blocking one at once, its answer.
	if (!inet && e == unix.EAGAIN) || (inet && (e == unix.EINPROGRESS || e == unix.EALREADY)) {
		if nonblocking(c.sock) {
			return e
		}
		return errSliceOver
	}
	return sliceOverAtEINTR(e)
}

// sliceOverAtEINTR makes EINTR, which a blocking connect here gets only
// from a signal of PID 1's own (the Go runtime's SIGURG, a stop), a slice
// that is over: never the program's answer (sliced says why).
func sliceOverAtEINTR(e unix.Errno) unix.Errno {
	if e == unix.EINTR {
		return errSliceOver
	}
	return e
}

// timedOut is what connect(2) says where sock's own SO_SNDTIMEO passed.
func timedOut(sock int) unix.Errno {
	if family, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN); err == nil && family != unix.AF_UNIX {
		return unix.EINPROGRESS
	}
	return unix.EAGAIN
}

// sendTimeout is sock's SO_SNDTIMEO (0: none).
func sendTimeout(sock int) time.Duration {
	tv, err := unix.GetsockoptTimeval(sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO)
	if err != nil {
		return 0
	}
	return time.Duration(tv.Nano())
}
