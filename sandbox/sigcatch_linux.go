package sandbox

import (
	"os"
	"os/signal"

	"github.com/omega-run/omega-run/nsexec"
)

// signalCatcher delivers the signals omega-run forwards to the init stage.
type signalCatcher interface {
	C() <-chan os.Signal
	// stop hands the signals back to their previous handling.
	stop()
}

// notify is signal.Notify behind signalCatcher.
type notify chan os.Signal

func (n notify) C() <-chan os.Signal { return n }
func (n notify) stop()               { signal.Stop(n) } // idempotent

func notifyCatcher(sigs []os.Signal) signalCatcher {
	n := make(notify, 16)
	signal.Notify(n, sigs...)
	return n
}

// forwardedSignals starts catching what runSupervised forwards: with a C
// handler for the CLI (cheaper, see cCatcher), with signal.Notify for
// library callers.
func forwardedSignals(p *plan) signalCatcher {
	if p.exitAfterRun {
		return catchSignals(nsexec.Forwarded)
	}
	return notifyCatcher(nsexec.Forwarded)
}
