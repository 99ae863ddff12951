package main

import (
	"os"
	"os/signal"
	"syscall"
)

// keepRunningOnDeadStdio has a write to a stdout or stderr that nobody
// reads any more fail (EPIPE) instead of ending omega-run by SIGPIPE,
// which the Go runtime does on fds 1 and 2 unless SIGPIPE is notified: a
// warning that cannot be shown must not cost the program its run or its
// exit status. The program's SIGPIPE is untouched: execve resets a
// handler, and one the caller ignored is ignored again for the program.
func keepRunningOnDeadStdio() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}
