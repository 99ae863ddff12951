package sandbox

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/omega-run/omega-run/nsexec"
)

// signalCatcher delivers the signals omega-run forwards to the init stage.
type signalCatcher interface {
	// C is also where a wait for the state lock puts back what it
	// took but keeps for the program (lockWaiter).
	C() chan os.Signal
	// stop hands the signals back to their previous handling.
	stop()
}

// notify is signal.Notify behind signalCatcher.
type notify chan os.Signal

func (n notify) C() chan os.Signal { return n }
func (n notify) stop()             { signal.Stop(n) } // idempotent

func notifyCatcher(sigs []os.Signal) signalCatcher {
	n := make(notify, 16)
	if len(sigs) > 0 { // none would be all
		signal.Notify(n, sigs...)
	}
	return n
}

// forwardedSignals starts catching what runSupervised forwards: with a C
// handler for the CLI (cheaper, see cCatcher), with signal.Notify for
// library callers. A signal the caller left ignored is not caught: the
// program ignores it too (Spec.IgnoredSignals). The CLI ignores it as
// well, as an exec in place would, rather than leave it to the Go
// runtime, which ends the process on SIGTERM, SIGUSR1 or SIGQUIT whether
// they were ignored or not (SIGHUP and SIGINT it leaves ignored).
func forwardedSignals(p *plan) signalCatcher {
	ignored := nsexec.SignalSet(p.ignoredSignals)
	var sigs, skip []os.Signal
	for _, sig := range nsexec.Forwarded {
		if ignored.Has(sig.(syscall.Signal)) {
			skip = append(skip, sig)
		} else {
			sigs = append(sigs, sig)
		}
	}
	if p.exitAfterRun {
		if len(skip) > 0 {
			signal.Ignore(skip...)
		}
		if callerBlocked(sigs, nsexec.SignalSet(p.blockedSignals)) {
			return notifyCatcher(sigs)
		}
		return catchSignals(sigs)
	}
	return notifyCatcher(sigs)
}

// callerBlocked reports whether the caller blocked one of sigs. The Go
// runtime starts every thread with the caller's mask, so no thread would
// run the C handler for it: the signal would wait in omega-run until it
// exits instead of reaching the program (which starts with it blocked and
// finds it pending, as after an exec in place). signal.Notify's own
// thread unblocks what it catches, for the price of its hand-offs.
func callerBlocked(sigs []os.Signal, blocked nsexec.SignalSet) bool {
	for _, s := range sigs {
		if blocked.Has(s.(syscall.Signal)) {
			return true
		}
	}
	return false
}
