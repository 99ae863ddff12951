package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/creack/pty"
	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"
)

// ptyRelay is --pty's pseudo-terminal, as sudo's use_pty: the program
// gets its slave in place of the caller's terminal, as the controlling
// terminal of a session of its own (nsexec.Spec.Terminal), and omega-run
// relays between the two. The program's TIOCSWINSZ, TIOCSPGRP and
// terminal settings then act on its own terminal, and what the user types
// once omega-run is done or in the background stays out of its reach.
type ptyRelay struct {
	master, slave *os.File
	// onFD: which of fds 0–2 are the caller's terminal, replaced by slave.
	onFD [3]bool
	term int // the first of them
	// saved is the caller's terminal's settings, put back on every way out.
	saved *unix.Termios
	// out is the first of stdout, stderr and stdin on the terminal: the
	// program's output goes there.
	out *os.File
	// in is the fd the user's keys are read from (keysFrom); -1: none.
	// unread is in where it is keysFrom's own fd and no input relay has
	// taken it, for close; -1 once taken or closed.
	in, unread int

	mu  sync.Mutex
	raw bool
	// rawNow is raw without output processing, for omega-run's log
	// lines (crlfWhileRaw), which uncrlf puts back as they were.
	rawNow atomic.Bool
	uncrlf func()
	done   bool
	// draining: the program has ended (finish), its output is read until
	// none comes for drainIdle.
	draining atomic.Bool
	wake     chan struct{} // the input relay waits on it in the background
	copied   chan struct{} // closed when the output relay is done
	// stop ends the input relay when closed (the write end of a pipe it
	// polls with stdin, -1 when none), and quit with it: a library's
	// process goes on reading its stdin after Run.
	stop int
	quit chan struct{}
	// guard restores the terminal if omega-run is killed (ptyguard_linux.go).
	guard *ptyGuard
}

// openPTY opens the pseudo-terminal when any of fds 0–2 is a terminal;
// nil without one, where --pty changes nothing.
func openPTY() (*ptyRelay, error) {
	r := &ptyRelay{term: -1, in: -1, unread: -1, stop: -1, wake: make(chan struct{}, 1), copied: make(chan struct{}), quit: make(chan struct{})}
	for fd := 2; fd >= 0; fd-- {
		if tio, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
			r.onFD[fd], r.term, r.saved = true, fd, tio
		}
	}
	if r.term < 0 {
		logrus.Debug("--pty: none of stdin, stdout and stderr is a terminal: the program gets them as they are")
		return nil, nil
	}
	r.out = []*os.File{os.Stdin, os.Stdout, os.Stderr}[r.term]
	for _, fd := range []int{1, 2} {
		if r.onFD[fd] {
			r.out = []*os.File{os.Stdin, os.Stdout, os.Stderr}[fd]
			break
		}
	}
	var err error
	if r.master, r.slave, err = pty.Open(); err != nil {
		return nil, fmt.Errorf("--pty: %w", err)
	}
	if r.master, err = pollable(r.master); err != nil {
		r.slave.Close()
		return nil, fmt.Errorf("--pty: %w", err)
	}
	// The program's terminal starts as the caller's: its settings (the
	// erase key, …) and its size.
	if err := unix.IoctlSetTermios(int(r.slave.Fd()), unix.TCSETS, r.saved); err != nil {
		r.close()
		return nil, fmt.Errorf("--pty: setting the terminal: %w", err)
	}
	r.resize()
	if r.in = r.keysFrom(); r.in > 0 {
		r.unread = r.in
	}
	if r.in >= 0 { // else the terminal is never raw
		r.guard = startPtyGuard(r.term)
	}
	return r, nil
}

// pollable is f as a file Go's poller serves, where a read deadline ends
// the drain and Close ends a blocked read or write: creack/pty leaves the
// master blocking (its ioctls use Fd), where neither works.
func pollable(f *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	f.Close()
	if err != nil {
		return nil, os.NewSyscallError("fcntl(F_DUPFD_CLOEXEC)", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, os.NewSyscallError("fcntl(O_NONBLOCK)", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

// stdio is what the init stage gets as fd i: the slave in place of the
// caller's terminal.
func (r *ptyRelay) stdio(i int, f *os.File) *os.File {
	if r != nil && r.onFD[i] {
		return r.slave
	}
	return f
}

// start sets the caller's terminal raw (when omega-run reads it, keysFrom,
// and is in its foreground) and relays both ways. The
// slave is the init stage's now: omega-run's copy goes, so that reading
// the master ends (EIO) once every process on it has.
func (r *ptyRelay) start() {
	if r == nil {
		return
	}
	r.slave.Close()
	r.slave = nil
	r.uncrlf = r.crlfWhileRaw()
	r.guard = r.guard.wait() // ready before the terminal is raw
	r.takeTypedAhead()
	r.resume()
	go r.output()
	var p [2]int
	if r.in >= 0 && unix.Pipe2(p[:], unix.O_CLOEXEC) == nil {
		r.stop, r.unread = p[1], -1
		go r.input(p[0], r.in)
	}
}

// drainIdle is how long the program's output is awaited once it has
// ended: a process it left behind without a pid namespace may hold the
// slave open, and no more comes.
const drainIdle = 500 * time.Millisecond

// output copies the program's output to the caller's terminal until
// every process on the slave has closed it (EIO), or, once draining, none
// came for drainIdle.
func (r *ptyRelay) output() {
	defer close(r.copied)
	buf := make([]byte, 32<<10)
	for {
		n, err := r.master.Read(buf)
		if n > 0 {
			if _, werr := r.out.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
		if r.draining.Load() {
			_ = r.master.SetReadDeadline(time.Now().Add(drainIdle))
		}
	}
}

// input copies what the user types to the program until stopped (a
// readable end of a pipe), but only while omega-run is in the terminal's
// foreground: a read in the background would stop it (SIGTTIN), and what
// is typed then is the shell's.
func (r *ptyRelay) input(stopped, in int) {
	defer unix.Close(stopped)
	if in > 0 {
		defer unix.Close(in) // keysFrom's /dev/tty, this relay's now
	}
	buf := make([]byte, 4096)
	for {
		for !r.foreground() {
			select {
			case <-r.wake:
			case <-r.quit:
				return
			}
		}
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}, {Fd: int32(stopped), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, -1); err != nil && err != unix.EINTR {
			return
		}
		if fds[1].Revents != 0 {
			return
		}
		if fds[0].Revents == 0 || !r.foreground() {
			continue
		}
		n, err := unix.Read(in, buf)
		if n > 0 {
			r.noteInterrupt(buf[:n])
			if _, werr := r.master.Write(buf[:n]); werr != nil {
				return
			}
		}
		if n == 0 || err != nil && err != unix.EINTR && err != unix.EAGAIN {
			return
		}
	}
}

// noteInterrupt takes the caller's interrupt key (Ctrl-C), which reaches
// the program through its terminal alone now that the caller's is raw,
// as omega-run's own SIGINT: Exit then dies of it with the program, so
// that a shell's loop stops.
func (r *ptyRelay) noteInterrupt(typed []byte) {
	r.mu.Lock()
	intr, isig := r.saved.Cc[unix.VINTR], r.saved.Lflag&unix.ISIG != 0
	r.mu.Unlock()
	if isig && intr != 0 && bytes.IndexByte(typed, intr) >= 0 {
		received.Or(1 << uint(unix.SIGINT))
	}
}

// finish drains what the program wrote before it ended (output) and
// restores the terminal.
func (r *ptyRelay) finish() {
	if r == nil {
		return
	}
	r.draining.Store(true)
	_ = r.master.SetReadDeadline(time.Now().Add(drainIdle))
	<-r.copied
	r.mu.Lock()
	r.done = true
	r.mu.Unlock()
	r.restore()
	r.close()
}

// close closes what is still open; on a failed launch it is all that runs.
func (r *ptyRelay) close() {
	if r == nil {
		return
	}
	r.restore()
	r.guard.stop()
	r.guard = nil
	if r.uncrlf != nil {
		r.uncrlf()
		r.uncrlf = nil
	}
	if r.stop >= 0 {
		unix.Close(r.stop)
		r.stop = -1
		close(r.quit)
	}
	if r.unread >= 0 {
		unix.Close(r.unread) // no input relay took it
		r.unread = -1
	}
	r.master.Close()
	if r.slave != nil {
		r.slave.Close()
	}
}

// onSignal handles a signal omega-run received for the terminal's sake
// and tells whether it still goes to the program: SIGWINCH is the
// caller's window resized, copied to the program's terminal, which tells
// the program; after SIGCONT (fg after a stop) the terminal is raw again.
func (r *ptyRelay) onSignal(sig os.Signal) bool {
	switch sig {
	case unix.SIGWINCH:
		r.resize()
		return false
	case unix.SIGCONT:
		r.resume()
	}
	return true
}

// suspend gives the caller's terminal its settings back before omega-run
// stops with the program, so that the shell's prompt works.
func (r *ptyRelay) suspend() {
	if r != nil {
		r.restore()
	}
}

// resume makes the caller's terminal raw again when omega-run is in its
// foreground and reads it, copies its size, and wakes the input relay.
func (r *ptyRelay) resume() {
	r.resize()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	if r.in < 0 || !r.foreground() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if now, err := unix.IoctlGetTermios(r.term, unix.TCGETS); r.raw && err == nil && now.Lflag&unix.ICANON != 0 {
		// A stop omega-run did not follow (its own SIGTSTP: Ctrl-Z
		// signals the whole job where the keys come from /dev/tty) left
		// the shell's settings there at fg.
		r.raw = false
	}
	if r.raw || r.done {
		return
	}
	// What the user set while the job was stopped (stty at the shell's
	// prompt) is what goes back at the end, as sudo does.
	if now, err := unix.IoctlGetTermios(r.term, unix.TCGETS); err == nil {
		r.saved = now
	}
	raw := *r.saved
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	// In a pipeline (stdin or stdout not this terminal: omega-run --pty
	// -- cmd | less, seq 9 | omega-run --pty -- less, or > another
	// terminal) other programs write here too; output processing stays on
	// for them, as sudo keeps it then.
	if r.onFD[0] && r.onFD[1] && sameTerminal(r.term, 1) {
		raw.Oflag &^= unix.OPOST
	}
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.IEXTEN
	if r.onFD[0] {
		raw.Lflag &^= unix.ISIG
	} // else the keys come from /dev/tty, and Ctrl-C, Ctrl-Z and Ctrl-\ still signal the whole job (sleep 9 | omega-run --pty -- cat)
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	r.guard.arm(r.saved) // before: a kill right after leaves it raw
	if unix.IoctlSetTermios(r.term, unix.TCSETSW, &raw) == nil {
		r.raw = true
		r.rawNow.Store(raw.Oflag&unix.OPOST == 0)
	}
}

// foreground tells whether omega-run may read the caller's terminal and
// set it raw: in its foreground, or when it is not omega-run's controlling
// terminal (setsid, a harness's pty in a session of its own), where no
// job control applies.
func (r *ptyRelay) foreground() bool {
	if inForeground() {
		return true
	}
	_, err := unix.IoctlGetInt(r.term, unix.TIOCGPGRP)
	return err == unix.ENOTTY
}

// restore puts the caller's terminal settings back if they were changed.
func (r *ptyRelay) restore() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.raw {
		_ = unix.IoctlSetTermios(r.term, unix.TCSETSW, r.saved)
		r.guard.disarm() // after: a kill before leaves it to the guardian
		r.raw = false
		r.rawNow.Store(false)
	}
}

// resize copies the caller's window size to the program's terminal; the
// kernel sends SIGWINCH to its foreground process group.
func (r *ptyRelay) resize() {
	ws, err := unix.IoctlGetWinsize(r.term, unix.TIOCGWINSZ)
	if err != nil {
		return
	}
	rc, err := r.master.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { _ = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) })
}
