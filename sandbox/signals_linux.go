package sandbox

import (
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// received has bit N set once omega-run received signal N during a run.
var received atomic.Uint64

// Exit ends the CLI with a run's status as a shell sees it: when the
// program died of SIGINT, SIGHUP or SIGTERM, and omega-run received that
// signal too, omega-run dies of it as well, as an exec in place (rx)
// would. A shell's loop stops at Ctrl-C only when its child died of
// SIGINT (bash's wait-and-cooperative-exit); an exit status of 130 tells
// it the child handled the signal. PID 1 reports a program killed by N
// and one that exited with 128+N alike, so both count: the status means
// "interrupted" either way. Otherwise it is os.Exit(code).
func Exit(code int) {
	if sig := unix.Signal(code - 128); code > 128 && received.Load()&(1<<uint(sig&63)) != 0 &&
		(sig == unix.SIGINT || sig == unix.SIGHUP || sig == unix.SIGTERM) {
		dieOf(sig)
		time.Sleep(100 * time.Millisecond) // delivery is asynchronous
	}
	os.Exit(code)
}

// forwardSignals passes what omega-run receives on to the init stage,
// which passes it to the program. Signals the terminal sends to the whole
// foreground process group already reached the program directly, so they
// are not sent a second time (a doubled Ctrl-C makes many TUIs quit).
// With --pty (term) the program is on a terminal of its own, which none
// of them reached.
func forwardSignals(sigs <-chan os.Signal, proc *child, term *ptyRelay) {
	for sig := range sigs {
		if s, ok := sig.(unix.Signal); ok && s < 64 {
			received.Or(1 << uint(s))
		}
		if term != nil {
			if !term.onSignal(sig) {
				continue
			}
		} else if fromTerminal(sig) && inForeground() {
			continue
		}
		proc.signal(sig)
	}
}

func fromTerminal(sig os.Signal) bool {
	switch sig {
	case unix.SIGINT, unix.SIGQUIT, unix.SIGWINCH, unix.SIGHUP, unix.SIGCONT:
		return true
	}
	return false
}

// inForeground reports whether this process group is the foreground group
// of the terminal on stdin, stdout or stderr.
func inForeground() bool {
	pgrp := unix.Getpgrp()
	for fd := 0; fd <= 2; fd++ {
		fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		if err == nil {
			return fg == pgrp
		}
	}
	return false
}
