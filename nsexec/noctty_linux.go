package nsexec

import (
	"errors"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// leaveTerminal gives up the controlling terminal where no PID 1 starts
// the program in a session of its own and no seccomp filter refuses
// TIOCSTI (--seccomp none without namespaces): TIOCSTI works only on
// one's controlling terminal, and a process that is not a session leader
// cannot take one again. The process group stays, so the terminal's
// Ctrl-C still reaches the program. A session leader's TIOCNOTTY hangs up
// its foreground group: SIGHUP and SIGCONT are ignored around it
// (cinit_terminal.c's omega_leave_terminal).
func leaveTerminal() error {
	fd, err := unix.Open("/dev/tty", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil // no controlling terminal to leave
	}
	defer unix.Close(fd)
	if sid, _ := unix.Getsid(0); sid == unix.Getpid() {
		signal.Ignore(unix.SIGHUP, unix.SIGCONT)
		defer signal.Reset(unix.SIGHUP, unix.SIGCONT)
	}
	if err := unix.IoctlSetInt(fd, unix.TIOCNOTTY, 0); err != nil {
		return os.NewSyscallError("ioctl(TIOCNOTTY)", err)
	}
	return nil
}

// takeTerminal starts a session of this process's own with the first of
// its fds 0–2 that is a terminal, the launcher's pseudo-terminal (--pty),
// as its controlling terminal (cinit_terminal.c's omega_take_terminal, which
// says why PID 1 does it).
func takeTerminal() error {
	if _, err := unix.Setsid(); err != nil {
		return os.NewSyscallError("--pty: setsid", err)
	}
	fd, err := terminalFD()
	if err != nil {
		return err
	}
	return os.NewSyscallError("--pty: ioctl(TIOCSCTTY)", unix.IoctlSetInt(fd, unix.TIOCSCTTY, 0))
}

// terminalFD is the first of fds 0–2 that is a terminal.
func terminalFD() (int, error) {
	for fd := 0; fd <= 2; fd++ {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
			return fd, nil
		}
	}
	return -1, errors.New("--pty: no terminal on fds 0-2")
}

// programSession is how PID 1 starts the program: with --pty in a
// process group of its own in the foreground of the terminal PID 1 took
// (takeTerminal; cinit_terminal.c's omega_foreground); without a seccomp
// filter in a session of its own (no controlling terminal); else in the
// caller's.
func programSession(s *Spec) *syscall.SysProcAttr {
	if !s.Terminal {
		return &syscall.SysProcAttr{Setsid: s.NewSession}
	}
	fd, _ := terminalFD() // takeTerminal found it
	return &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: fd}
}
