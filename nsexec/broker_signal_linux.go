//go:build linux && (!cgo || omega_goinit)

package nsexec

import (
	"bytes"
	"strconv"
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
// that never accepts). The answer is EINTR, also for a handler with
// SA_RESTART, which the broker cannot tell; a TCP connect goes on, as
// the kernel's does after EINTR.

// signalPoll is how often a waiting connect looks for signals.
const signalPoll = 50 * time.Millisecond

// sliced makes connect, of c's socket, in signalPoll slices where it
// may wait (a blocking stream or seqpacket socket): its SO_SNDTIMEO is
// set for that time and put back after, as domainConnect does.
func (b *goBroker) sliced(c *call, connect func() unix.Errno) unix.Errno {
	typ, err := unix.GetsockoptInt(c.sock, unix.SOL_SOCKET, unix.SO_TYPE)
	if err != nil || typ == unix.SOCK_DGRAM {
		return connect()
	}
	fl, err := unix.FcntlInt(uintptr(c.sock), unix.F_GETFL, 0)
	if err != nil || fl&unix.O_NONBLOCK != 0 {
		return connect()
	}
	old, err := unix.GetsockoptTimeval(c.sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO)
	own := time.Duration(old.Nano())
	if err != nil || (own > 0 && own <= signalPoll) {
		return connect()
	}
	slice := unix.NsecToTimeval(signalPoll.Nanoseconds())
	if unix.SetsockoptTimeval(c.sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &slice) != nil {
		return connect()
	}
	defer unix.SetsockoptTimeval(c.sock, unix.SOL_SOCKET, unix.SO_SNDTIMEO, old)
	start := time.Now()
	first := unix.Errno(0)
	for {
		e := connect()
		if first == 0 {
			first = e
		}
		// Still waiting: EAGAIN (unix), EINPROGRESS then EALREADY (TCP).
		if e != unix.EAGAIN && e != unix.EINPROGRESS && e != unix.EALREADY {
			return e
		}
		switch {
		case own > 0 && time.Since(start) >= own:
			return first // what the kernel says when SO_SNDTIMEO passes
		case signalPending(c.tid):
			return unix.EINTR
		case !b.valid(c.id):
			return unix.ESRCH
		}
	}
}

// signalPending tells whether thread tid has a signal pending, its own
// or its process's, that it does not block.
func signalPending(tid int) bool {
	status, err := readFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return false
	}
	pending := statusMask(status, "SigPnd:") | statusMask(status, "ShdPnd:")
	return pending&^statusMask(status, "SigBlk:")&^statusMask(status, "SigIgn:") != 0
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
