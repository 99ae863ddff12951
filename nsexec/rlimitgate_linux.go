package nsexec

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// started is the program as startProgram leaves it: running with its
// limits, or already gone before its first instruction (gone != nil).
type started struct {
	proc *os.Process
	gone *unix.WaitStatus
}

// startProgram starts the program for supervise. Go's fork runs no code
// of ours between fork and execve, and limits set on PID 1 would bind
// PID 1 too (a low nproc stops its runtime's threads), so --rlimit goes
// through a ptrace gate: the child calls PTRACE_TRACEME right before its
// execve, which then stops it before the program's first instruction;
// PID 1 sets the limits with prlimit and detaches. The child's tracer is
// the thread that forked it, PID 1's locked one, and only it may detach.
// Without limits the launch stays a plain fork and exec. limits are
// s.Limits with PID 1's tasks on top of nproc's (ownOnTop). forked runs
// once the program's process is there, before the gate lets it go: PID
// 1 puts its OOM score back then, which it gave the program by raising
// its own, rather than hold it while the limits are set (a cgroup's OOM
// kill then took PID 1, the larger, over the program).
func startProgram(s *Spec, limits []rlimits.Limit, attr *os.ProcAttr, forked func()) (started, error) {
	if len(limits) == 0 {
		proc, err := startProc(s.Path, s.Argv, attr)
		if err == nil {
			forked()
		}
		return started{proc: proc}, err
	}
	sys := *attr.Sys
	sys.Ptrace = true
	gated := *attr
	gated.Sys = &sys
	proc, err := startProc(s.Path, s.Argv, &gated)
	var refused error
	if err != nil {
		if refused = tracemeRefused(); refused == nil {
			return started{}, err // the execve's own failure
		}
	} else {
		st, gerr := holdAtExec(proc, limits, forked)
		if !errors.Is(gerr, errGateKilled) {
			return st, gerr
		}
		refused = gerr
	}
	return startLate(s, limits, attr, refused, forked)
}

// startLate is the launch where ptrace is refused (Yama's ptrace_scope 2
// or 3, a seccomp filter around omega-run or in the profile): the limits
// are set on the program just after it has started.
func startLate(s *Spec, limits []rlimits.Limit, attr *os.ProcAttr, refused error, forked func()) (started, error) {
	if s.FailClosed {
		return started{}, fmt.Errorf("--fail-closed: --rlimit: %v: the limits could only be set on the program after its start", refused)
	}
	proc, err := startProc(s.Path, s.Argv, attr)
	if err != nil {
		return started{}, err
	}
	forked()
	warner{json: s.LogJSON}.warn("--rlimit: " + refused.Error() +
		" (Yama's ptrace_scope 2 or 3, a seccomp filter, or omega-run itself traced: strace -f), so the limits are set on the program just after it starts: its first instructions run without them")
	if err := applyTo(proc.Pid, limits); err != nil {
		_ = proc.Kill()
		return started{}, err
	}
	return started{proc: proc}, nil
}

// applyTo sets the program's limits from a thread outside its profile,
// which may kill prlimit64 (offThread).
func applyTo(pid int, limits []rlimits.Limit) (err error) {
	offThread(func() { err = rlimits.ApplyTo(pid, limits) })
	return err
}

func startProc(path string, argv []string, attr *os.ProcAttr) (*os.Process, error) {
	proc, err := os.StartProcess(path, argv, attr)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, execFailure(path, err)
	}
	return proc, nil
}

// errGateKilled: the child died of SIGSYS before it stopped: a seccomp
// filter kills ptrace (systemd's SystemCallFilter= without @debug).
var errGateKilled = errors.New("PTRACE_TRACEME is refused (killed by SIGSYS)")

// holdAtExec waits for the traced child's first stop, sets the limits
// and lets it go. A traced execve stops the child before the program's
// first instruction, and so does any signal before it, so the first stop
// comes before the program runs. At the execve's own SIGTRAP the child
// goes on without it (a SIGTRAP sent in the instant before the execve is
// lost with it); another signal is passed on. held runs at that stop
// (startProgram's forked): not for a child killed before it, whose
// launch goes on without the gate.
func holdAtExec(proc *os.Process, limits []rlimits.Limit, held func()) (started, error) {
	var ws unix.WaitStatus
	for {
		// A tracee's stops are reported without WUNTRACED.
		_, err := unix.Wait4(proc.Pid, &ws, 0, nil)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EINTR) {
			_ = proc.Kill()
			return started{}, &os.SyscallError{Syscall: "wait4", Err: err}
		}
	}
	if !ws.Stopped() {
		if ws.Signaled() && ws.Signal() == unix.SIGSYS {
			return started{}, errGateKilled
		}
		return started{gone: &ws}, nil // SIGKILL before the program ran
	}
	held()
	err := applyTo(proc.Pid, limits)
	sig := ws.StopSignal()
	if sig == unix.SIGTRAP {
		sig = 0
	}
	if err != nil {
		sig = unix.SIGKILL // the program must not run without its limits
	}
	if _, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(proc.Pid), 0, uintptr(sig), 0, 0); errno != 0 && err == nil {
		_ = proc.Kill()
		err = &os.SyscallError{Syscall: "ptrace(PTRACE_DETACH)", Err: errno}
	}
	if err != nil {
		return started{}, err
	}
	return started{proc: proc}, nil
}

// tracemeRefused tells whether a failed gated start was PTRACE_TRACEME's
// refusal rather than the execve's: it starts a traced child whose execve
// fails for certain (ENOENT) and says what it met before.
func tracemeRefused() error {
	pid, err := syscall.ForkExec("", []string{""}, &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Ptrace: true}})
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return fmt.Errorf("PTRACE_TRACEME is refused (%w)", err)
	}
	var ws unix.WaitStatus
	for {
		if _, err := unix.Wait4(pid, &ws, 0, nil); !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if ws.Signaled() && ws.Signal() != unix.SIGSYS {
		return fmt.Errorf("PTRACE_TRACEME is refused (its child killed by %v)", ws.Signal())
	}
	return errGateKilled
}
