//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// interruptedError: a terminating signal came while the launch waited
// for another launch's state lock, before the program started. The
// launch ends as the program would have, killed by it.
type interruptedError struct{ sig syscall.Signal }

func (e *interruptedError) Error() string {
	return fmt.Sprintf("state sync: %v while waiting for the lock", e.sig)
}

// lockWaiter pauses lockState's wait on the launch's caught signals. That
// wait has no end while another launch holds the lock, and the signals
// are caught for a program not started yet, so nothing else would act on
// Ctrl-C or a service stop. Others (a resize, SIGUSR1) are kept for the
// program: recatch puts them back on stop. Not sent to this process
// again: every other catcher in it (an embedder's signal.Notify, a
// concurrent launch's, whose program would get it twice) got it once
// already.
type lockWaiter struct {
	stop chan os.Signal
	kept []syscall.Signal
}

func (w *lockWaiter) pause(d time.Duration) error {
	if w.stop == nil {
		time.Sleep(d)
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return nil
		case s := <-w.stop:
			if err := w.take(s); err != nil {
				return err
			}
		}
	}
}

// poll is pause without the wait: it takes what came already.
func (w *lockWaiter) poll() error {
	for {
		select {
		case s := <-w.stop:
			if err := w.take(s); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// take ends the wait on a terminating signal and keeps the others.
func (w *lockWaiter) take(s os.Signal) error {
	sig, ok := s.(syscall.Signal)
	switch {
	case !ok:
	case sig == syscall.SIGINT || sig == syscall.SIGTERM || sig == syscall.SIGHUP || sig == syscall.SIGQUIT:
		w.kept = nil // no program to keep them for
		return &interruptedError{sig: sig}
	default:
		w.kept = append(w.kept, sig)
	}
	return nil
}

// recatch puts the kept signals back, after any that came since; one
// that finds stop full is dropped, as a catcher drops it.
func (w *lockWaiter) recatch() {
	for _, sig := range w.kept {
		select {
		case w.stop <- sig:
		default:
		}
	}
}
