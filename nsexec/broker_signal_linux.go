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
	var watch signalWatch
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
		case watch.interrupted(c.procPid):
			return errRestartSys
		case !b.valid(c.id):
			return unix.ESRCH
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
