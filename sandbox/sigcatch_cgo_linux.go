//go:build linux && cgo

package sandbox

/*
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int omega_sig_fd = -1;
static pid_t omega_sig_pid;

// Async-signal-safe: one byte per signal into a non-blocking pipe; a full
// pipe drops the signal, as a full os/signal channel does. The child
// between its fork and its execve still has this handler (the runtime
// resets only its own) and must not report signals as omega-run's.
static void omega_on_signal(int sig) {
	int saved = errno;
	if (getpid() == omega_sig_pid) {
		unsigned char b = (unsigned char)sig;
		ssize_t n = write(omega_sig_fd, &b, 1);
		(void)n;
	}
	errno = saved;
}

// SA_ONSTACK: the handler may run on any Go thread, whose goroutine stack
// is too small for it; the runtime gives every thread an alternate stack.
static int omega_catch(int fd, int sig, struct sigaction *old) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = omega_on_signal;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigfillset(&sa.sa_mask);
	omega_sig_fd = fd;
	omega_sig_pid = getpid();
	return sigaction(sig, &sa, old);
}

static int omega_restore(int sig, const struct sigaction *old) {
	return sigaction(sig, old, NULL);
}

// omega_die_of ends the process with sig: its default action, unblocked.
static void omega_die_of(int sig) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(sig, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
}
*/
import "C"

import (
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// cCatcher catches the forwarded signals with a C handler that writes
// them to a pipe. signal.Notify does the same job, but enabling each
// signal is a synchronous hand-off with the runtime's signal-mask thread
// (ensureSigM), 8 of them before the clone: ≈ 0.8 ms of a sandbox launch
// on a 2-vCPU VM (bench/PROFILE.md). The runtime never uses these signals
// itself (SIGURG, its preemption signal, is not among them). Only the CLI
// uses it (one Run per process); library callers keep signal.Notify.
type cCatcher struct {
	sigs    []os.Signal
	old     []C.struct_sigaction
	c       chan os.Signal
	stopped bool
}

// sigPipe is created once and never closed: a handler still running on
// another thread after stop must not write into a reused fd number.
var sigPipe struct {
	once sync.Once
	w    int // write end, non-blocking, written by the handler
	err  error
	mu   sync.Mutex
	to   chan os.Signal // the catcher's channel, nil after stop
}

// catchSignals starts catching sigs; stop hands them back to the Go
// runtime as they were. It falls back to signal.Notify if the pipe or a
// sigaction fails.
func catchSignals(sigs []os.Signal) signalCatcher {
	sigPipe.once.Do(openSigPipe)
	if sigPipe.err != nil {
		return notifyCatcher(sigs)
	}
	c := &cCatcher{sigs: sigs, old: make([]C.struct_sigaction, len(sigs)), c: make(chan os.Signal, 16)}
	sigPipe.mu.Lock()
	sigPipe.to = c.c
	sigPipe.mu.Unlock()
	for i, s := range sigs {
		if C.omega_catch(C.int(sigPipe.w), C.int(s.(syscall.Signal)), &c.old[i]) != 0 {
			c.restore(i)
			return notifyCatcher(sigs)
		}
	}
	return c
}

func openSigPipe() {
	var p [2]int
	if sigPipe.err = unix.Pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK); sigPipe.err != nil {
		return
	}
	sigPipe.w = p[1]
	go relaySignals(os.NewFile(uintptr(p[0]), "signals")) // in the netpoller: no thread waits
}

// relaySignals turns the pipe's bytes into sends on the current channel.
func relaySignals(r *os.File) {
	buf := make([]byte, 16)
	for {
		n, err := r.Read(buf)
		sigPipe.mu.Lock()
		for _, b := range buf[:n] {
			select {
			case sigPipe.to <- syscall.Signal(b): // a nil channel is never ready
			default: // full or stopped: dropped, as signal.Notify drops
			}
		}
		sigPipe.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (c *cCatcher) C() chan os.Signal { return c.c }

func (c *cCatcher) stop() {
	if c.stopped {
		return
	}
	c.stopped = true
	c.restore(len(c.sigs))
}

// restore puts back the first n handlers that were replaced and detaches
// the channel.
func (c *cCatcher) restore(n int) {
	for i := 0; i < n; i++ {
		C.omega_restore(C.int(c.sigs[i].(syscall.Signal)), &c.old[i])
	}
	sigPipe.mu.Lock()
	if sigPipe.to == c.c {
		sigPipe.to = nil
	}
	sigPipe.mu.Unlock()
}

// dieOf ends the process with sig, whoever handles it now (the C
// handler, the runtime's).
func dieOf(sig unix.Signal) { C.omega_die_of(C.int(sig)) }
