//go:build linux && !cgo

package sandbox

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// catchSignals is signal.Notify in builds without cgo, which cannot
// install a C handler.
func catchSignals(sigs []os.Signal) signalCatcher { return notifyCatcher(sigs) }

// dieOf ends the process with sig: the runtime's default for SIGINT,
// SIGHUP and SIGTERM is to die of them.
func dieOf(sig unix.Signal) {
	signal.Reset(sig)
	_ = unix.Kill(os.Getpid(), sig)
}
