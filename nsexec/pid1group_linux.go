package nsexec

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// leftMark is the signal PID 1 sends itself once it has left the caller's
// process group. A terminal's Ctrl-C, Ctrl-\, resize or hang-up that
// reached PID 1 while it was still in that group reached the program
// too, which stays there, and the launcher, which decides for --pty:
// forwarded, a Ctrl-C arrived twice (a doubled Ctrl-C quits many TUIs),
// and on a busy machine the program can be ready for keys before PID 1
// leaves. The C stage tells them by si_code, which os/signal does not
// give; here the runtime's signal queue orders them: it hands pending
// signals on lowest number first, so whatever PID 1 received before the
// mark (30, above every terminal signal) is in sigs before it. Not
// exact: two threads that take a terminal's signal and the mark at the
// same moment may queue them the other way round (a Ctrl-C then arrives
// twice, as before). Only in the foreground (Spec.Foreground), where the
// launcher forwards none of these: elsewhere, and with --pty, what came
// before the mark was sent on purpose (the program is ready before PID 1
// leaves, often). A SIGPWR sent to PID 1 in the foreground is taken as
// the mark; it was never forwarded.
const leftMark = unix.SIGPWR

// markLeft sends leftMark through sigs, caught now rather than at start:
// the caller may ignore it, and the program, forked already, keeps that.
func markLeft(sigs chan os.Signal) {
	signal.Notify(sigs, leftMark)
	raiseMark(sigs)
}

// raiseMark sends leftMark; where the signal cannot be sent, the mark goes
// in directly (after what the runtime already delivered, if not all).
func raiseMark(sigs chan os.Signal) {
	if unix.Kill(os.Getpid(), leftMark) != nil {
		go func() { sigs <- leftMark }()
	}
}

// beforeLeft tells a signal forward drops: one a terminal sends, before
// the mark. os/signal drops what does not fit in sigs, the mark too: a
// drop with nothing behind it asks for the mark again, so that a flood at
// the start costs at most one later terminal signal sent on purpose (the
// first after it, however late).
func beforeLeft(sig os.Signal, left bool, sigs chan os.Signal) bool {
	if left || !fromTerminal(sig) {
		return false
	}
	if len(sigs) == 0 {
		raiseMark(sigs)
	}
	return true
}

// fromTerminal tells the signals a terminal sends its foreground process
// group (sandbox/signals_linux.go's, for the launcher).
func fromTerminal(sig os.Signal) bool {
	switch sig {
	case unix.SIGINT, unix.SIGQUIT, unix.SIGWINCH, unix.SIGHUP, unix.SIGCONT:
		return true
	}
	return false
}

// catchAsPID1 catches the forwarded signals from PID 1's start (a pid
// namespace's PID 1 is pid 1; an exec in place is not, and dies of them as
// the program would): until preparePID1's Notify, the runtime, which
// unblocks SIGINT, SIGTERM, SIGHUP and SIGQUIT at start, took a Ctrl-C
// typed while the launch set up as the end of a process whose default the
// kernel ignores in PID 1, and exited 2, and the launcher with it, unsaid.
func catchAsPID1() chan os.Signal {
	sigs := make(chan os.Signal, 16)
	if os.Getpid() == 1 {
		signal.Notify(sigs, Forwarded...)
	}
	return sigs
}

// beforeFork takes from sigs, in the foreground, what came before the
// program's fork: the program, not there yet, did not get a terminal's
// signal then, so forward sends it rather than drop it as one that
// reached the program too (a Ctrl-C typed while the launch set up ends
// it, as it ends `sleep 1; prog`).
func beforeFork(s *Spec, sigs chan os.Signal) []os.Signal {
	if !s.Foreground {
		return nil
	}
	var early []os.Signal
	for {
		select {
		case sig := <-sigs:
			early = append(early, sig)
		default:
			return early
		}
	}
}
