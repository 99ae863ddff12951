//go:build linux && !cgo

package sandbox

import "os"

// catchSignals is signal.Notify in builds without cgo, which cannot
// install a C handler.
func catchSignals(sigs []os.Signal) signalCatcher { return notifyCatcher(sigs) }
