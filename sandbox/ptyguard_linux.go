package sandbox

import (
	"io"
	"os"
	"os/signal"
	"strconv"
	"unsafe"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/nsexec"
)

// --pty's guardian puts the caller's terminal back when omega-run cannot:
// killed with SIGKILL (the OOM killer, kill -9) while the terminal was
// raw, it left the shell with no echo and no line editing until `reset`
// (sudo's use_pty, script and tmux's client leave it so too). It is this
// binary run again (C before the Go runtime, where the init stage is C),
// outside the sandbox, holding the terminal and one end
// of a socket pair that only omega-run writes: the settings to put back
// while the terminal is raw, nothing once it is not. The end of the
// stream with nothing to put back lets it exit; with settings, omega-run
// died, and it puts them back unless the shell has taken the terminal.

// ptyGuardArg is the guardian's argv[1].
const ptyGuardArg = nsexec.PtyGuardArg

// The guardian's fds: the caller's terminal and its end of a socket
// pair, where it answers once ready and then reads omega-run's messages.
const (
	guardTermFD = 3
	guardConnFD = 4
)

// guardRecord is one message: 'R' and the settings to put back, or 'C'
// and nothing to. Under PIPE_BUF, each is written and read whole.
const guardRecord = 1 + int(unsafe.Sizeof(unix.Termios{}))

// ptyGuard is omega-run's side: its end of the pair and the process.
type ptyGuard struct {
	w    *os.File
	proc *os.Process
}

// startPtyGuard starts the guardian of the terminal at fd term; nil
// where it cannot start (then only omega-run's own restore is left), or
// where this binary run again would not be its guardian: a program that
// embeds the package without calling Init first would run its main.
func startPtyGuard(term int) *ptyGuard {
	if !initCalled.Load() {
		return nil
	}
	g, err := spawnPtyGuard(term)
	if err != nil {
		logrus.Debugf("--pty: no guardian restores the terminal if omega-run is killed: %v", err)
	}
	return g
}

func spawnPtyGuard(term int) (*ptyGuard, error) {
	tfd, err := unix.FcntlInt(uintptr(term), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, os.NewSyscallError("fcntl(F_DUPFD_CLOEXEC)", err)
	}
	tty := os.NewFile(uintptr(tfd), "/dev/tty")
	defer tty.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	defer null.Close()
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socketpair", err)
	}
	r, w := os.NewFile(uintptr(pair[0]), "guard"), os.NewFile(uintptr(pair[1]), "guard")
	defer r.Close()
	// No pdeathsig: it is to outlive omega-run. In omega-run's process
	// group, the job's, which is the terminal's foreground while the
	// terminal is raw, and no longer once the shell has taken it back.
	// argv[2] is for the C guardian (nsexec/cinit_ptyguard.c).
	argv := []string{"omega-run-pty-guard", ptyGuardArg, strconv.Itoa(guardRecord)}
	proc, err := os.StartProcess("/proc/self/exe", argv, &os.ProcAttr{
		Env:   []string{"GOMAXPROCS=1", "GOGC=off"},
		Files: []*os.File{null, null, null, tty, r},
	})
	if err != nil {
		w.Close()
		return nil, err
	}
	return &ptyGuard{w: w, proc: proc}, nil
}

// wait waits for the guardian to be ready: its signals set, so that the
// SIGHUP the terminal's foreground group gets when omega-run led its
// session and dies does not end it. nil for none, or one that died.
func (g *ptyGuard) wait() *ptyGuard {
	if g == nil {
		return nil
	}
	if _, err := io.ReadFull(g.w, make([]byte, 1)); err != nil {
		logrus.Debugf("--pty: no guardian restores the terminal if omega-run is killed: it ended (%v)", err)
		g.w.Close()
		go g.proc.Wait()
		return nil
	}
	return g
}

// arm tells the guardian the settings to put back; disarm that there are
// none. A failed write (the guardian gone) changes nothing for omega-run.
func (g *ptyGuard) arm(saved *unix.Termios) {
	if g != nil {
		rec := make([]byte, 0, guardRecord)
		rec = append(rec, 'R')
		g.w.Write(append(rec, unsafe.Slice((*byte)(unsafe.Pointer(saved)), guardRecord-1)...))
	}
}

func (g *ptyGuard) disarm() {
	if g != nil {
		g.w.Write(make([]byte, guardRecord))
	}
}

// pid is the guardian's, which omega-run as a subreaper spares (end).
func (g *ptyGuard) pid() int {
	if g == nil {
		return 0
	}
	return g.proc.Pid
}

// stop disarms and lets the guardian go: it exits at the stream's end,
// reaped in the background (a library's process runs on).
func (g *ptyGuard) stop() {
	if g == nil {
		return
	}
	g.disarm()
	g.w.Close()
	go g.proc.Wait()
}

// runPtyGuard is the guardian's process; it never returns.
func runPtyGuard() {
	// The job's Ctrl-C and Ctrl-Z (keys from /dev/tty leave ISIG on) are
	// omega-run's to act on; SIGHUP comes to the foreground group when
	// omega-run led the terminal's session, just as it dies. SIGTTOU
	// keeps its default: a restore from the background is refused (EIO
	// once omega-run's group is orphaned).
	signal.Ignore(unix.SIGHUP, unix.SIGINT, unix.SIGQUIT, unix.SIGTSTP, unix.SIGTTIN)
	conn := os.NewFile(guardConnFD, "guard")
	if _, err := conn.Write([]byte{1}); err != nil {
		os.Exit(0)
	}
	saved := guardWatch(conn)
	if saved != nil && guardForeground(guardTermFD) {
		// TCSETS, not TCSETSW: the kernel's foreground check and the
		// change are one step, with no wait for output in between.
		_ = unix.IoctlSetTermios(guardTermFD, unix.TCSETS, saved)
	}
	os.Exit(0)
}

// guardWatch reads omega-run's messages until the stream ends and returns
// the settings to put back then, nil for none.
func guardWatch(r io.Reader) *unix.Termios {
	var saved *unix.Termios
	rec := make([]byte, guardRecord)
	for {
		if _, err := io.ReadFull(r, rec); err != nil {
			return saved
		}
		saved = nil
		if rec[0] == 'R' {
			saved = new(unix.Termios)
			copy(unsafe.Slice((*byte)(unsafe.Pointer(saved)), guardRecord-1), rec[1:])
		}
	}
}

// guardForeground tells whether omega-run's job still has the terminal:
// it is its foreground process group, or the terminal is no controlling
// terminal of the guardian's (a harness's pty), where none competes.
func guardForeground(fd int) bool {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err == unix.ENOTTY {
		return true
	}
	return err == nil && pgrp == unix.Getpgrp()
}

// guardPid is the pid of r's guardian, 0 for none.
func (r *ptyRelay) guardPid() int {
	if r == nil {
		return 0
	}
	return r.guard.pid()
}
