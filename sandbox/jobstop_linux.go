package sandbox

import (
	"bytes"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// followStops makes the omega-run CLI stop when the program stops, as a
// program run without it would be seen to: the caller's shell waits for
// omega-run, not for the program, and takes the terminal back only when
// omega-run stops. A stop the terminal sends (Ctrl-Z with the terminal in
// its usual mode) reaches both, as they share a process group; one the
// program sends itself does not: vi and Claude Code read Ctrl-Z as a key
// and then kill(0, SIGTSTP), which the program's Landlock domain keeps
// from reaching omega-run, which then waited with the terminal held. An
// embedder is never stopped for its program. With PID 1, PID 1 reports
// the program's stops over the spec socket; without it, the program is
// omega-run's own child.
// With --pty a job-control stop omega-run does not follow (an embedder,
// or no shell's job: setsid, a harness's pty) is undone: it came from the
// program's own terminal, which nothing outside would ever continue.
func (l *launch) followStops(p *plan, pid1 bool, done <-chan struct{}) {
	if !p.exitAfterRun && p.term == nil {
		return
	}
	follow := func(prog int, sig syscall.Signal) {
		if p.exitAfterRun && stopAsProgram(prog, sig, p.term) || p.term == nil {
			return
		}
		if sig == unix.SIGTSTP || sig == unix.SIGTTIN || sig == unix.SIGTTOU {
			l.proc.signal(unix.SIGCONT)
		}
	}
	if pid1 {
		go l.pipe.Stops(func(sig syscall.Signal) { follow(programOf(l.proc.pid), sig) })
		return
	}
	go childStops(l.proc.pid, done, follow)
}

// childStops follows the stops of omega-run's child pid until done.
func childStops(pid int, done <-chan struct{}, follow func(int, syscall.Signal)) {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, unix.SIGCHLD)
	defer signal.Stop(ch)
	for {
		select {
		case <-done:
			return
		case <-ch:
		}
		// WSTOPPED alone: an exit stays for wait to reap.
		var info unix.Siginfo
		if unix.Waitid(unix.P_PID, pid, &info, unix.WSTOPPED|unix.WNOHANG, nil) != nil || info.Signo == 0 {
			continue
		}
		follow(pid, syscall.Signal(siginfoStatus(&info)))
	}
}

// siginfoStatus is si_status of a SIGCHLD siginfo: in the union after
// si_signo, si_errno and si_code (padded to 16 bytes on 64-bit ABIs),
// after si_pid and si_uid.
func siginfoStatus(info *unix.Siginfo) int32 {
	union := 3*4 + (unsafe.Sizeof(uintptr(0)) - 4)
	return *(*int32)(unsafe.Add(unsafe.Pointer(info), union+8))
}

// stopAsProgram stops omega-run by sig as the program stopped by it, but
// only as a job of a shell: in the terminal's foreground, or a background
// job of the terminal's session leader (cmd &; a job-control stop only,
// not SIGSTOP). There the shell shows the job stopped, and its fg or bg
// continues both (they share the process group). Elsewhere — no
// terminal, a background group of timeout(1) or watchexec — nothing
// would continue omega-run once the program went on and ended (another
// process may continue the program alone), and it could not exit. Not when the program has gone on since: a stop from the
// terminal reached both, and when the shell continued both, PID 1's
// report of it may still be unread. A job-control stop is taken as the
// program took it (the kernel drops it in an orphaned process group, and
// a caller that ignores it made the program ignore it too). With --pty
// (term) the caller's terminal gets its settings back first; SIGCONT
// makes it raw again and continues the program (forwardSignals), which is
// on a terminal of its own, out of the reach of the shell's fg. It tells
// whether omega-run followed the stop (or the program has gone on).
func stopAsProgram(prog int, sig syscall.Signal, term *ptyRelay) (followed bool) {
	switch sig {
	case unix.SIGTSTP, unix.SIGTTIN, unix.SIGTTOU:
		if !inForeground() && !(onTerminal() && shellJob()) {
			return false
		}
	case unix.SIGSTOP:
		if !inForeground() {
			return false
		}
	default:
		return false
	}
	if prog > 0 && !isStopped(prog) {
		return true // gone on already
	}
	term.suspend()
	_ = unix.Kill(unix.Getpid(), sig)
	return true
}

// shellJob tells whether this process is a job of its session's leader
// (the interactive shell of a terminal) in a process group of its own,
// as a shell starts each job.
func shellJob() bool {
	ppid := unix.Getppid()
	sid, err := unix.Getsid(0)
	if err != nil || sid != ppid {
		return false
	}
	pgrp, err := unix.Getpgid(ppid)
	return err == nil && pgrp != unix.Getpgrp()
}

// onTerminal tells whether stdin, stdout or stderr is this process's
// controlling terminal (TIOCGPGRP answers only for that one).
func onTerminal() bool {
	for fd := 0; fd <= 2; fd++ {
		if _, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err == nil {
			return true
		}
	}
	return false
}

// programOf is PID 1's first child, the program (orphans it adopts come
// after it), or 0 when there is none. Without the kernel's list of
// children (CONFIG_PROC_CHILDREN), the oldest process whose parent is
// PID 1: a stop is rare, and a stale report must not stop omega-run.
func programOf(pid1 int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid1) + "/task/" + strconv.Itoa(pid1) + "/children")
	if err != nil {
		return oldestChild("/proc", pid1)
	}
	f := bytes.Fields(b)
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(string(f[0]))
	return n
}

// oldestChild scans proc for the children of parent and returns the one
// started first, or 0.
func oldestChild(proc string, parent int) int {
	entries, _ := os.ReadDir(proc)
	best, bestStart := 0, uint64(0)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(proc + "/" + e.Name() + "/stat")
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		// After the comm: state, ppid, …; starttime is field 22 of stat.
		f := bytes.Fields(b[i+1:])
		if len(f) < 20 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		start, _ := strconv.ParseUint(string(f[19]), 10, 64)
		if ppid == parent && (best == 0 || start < bestStart) {
			best, bestStart = pid, start
		}
	}
	return best
}

// isStopped tells whether pid is stopped now (state T in its stat).
func isStopped(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if i := bytes.LastIndexByte(b, ')'); err == nil && i >= 0 && i+2 < len(b) {
		return b[i+2] == 'T'
	}
	return false
}
