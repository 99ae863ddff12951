package nsexec

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// leaveTerminal gives up the controlling terminal where no PID 1 starts
// the program in a session of its own and no seccomp filter refuses
// TIOCSTI (--seccomp none without namespaces): TIOCSTI works only on
// one's controlling terminal, and a process that is not a session leader
// cannot take one again. The process group stays, so the terminal's
// Ctrl-C still reaches the program. A session leader's TIOCNOTTY hangs up
// its foreground group: SIGHUP and SIGCONT are ignored around it
// (cinit.c's leave_terminal).
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
