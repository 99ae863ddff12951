package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// forwardSignals passes what omega-run receives on to the init stage,
// which passes it to the program. Signals the terminal sends to the whole
// foreground process group already reached the program directly, so they
// are not sent a second time (a doubled Ctrl-C makes many TUIs quit).
func forwardSignals(sigs <-chan os.Signal, proc *child) {
	for sig := range sigs {
		if fromTerminal(sig) && inForeground() {
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
