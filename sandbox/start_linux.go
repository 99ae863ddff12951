package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/omega-run/omega-run/nsexec"
	"golang.org/x/sys/unix"
)

// child is the init stage started by startChild. runSupervised starts it
// with syscall.StartProcess instead of cmd.Start: os/exec's first start
// probes pidfd support (pidfd_open, waitid, pidfd_send_signal and a vfork
// of a throwaway child) before the real clone, which the launcher, with
// one child that it waits for itself, does not need (bench/PROFILE.md §7
// #5). The pid cannot be reused while signals are sent to it: wait leaves
// the child a zombie until signal can no longer send anything.
type child struct {
	pid    int
	mu     sync.Mutex
	reaped bool
}

// startChild starts cmd as exec.Cmd.Start would for what nsexec.Command
// and cgroupRun.place set: a path, args, the inherited environment
// (deduplicated as os/exec does it), *os.File stdio and extra files,
// and SysProcAttr. cmd.Environ() is the environment Start would use.
// Errors read the same as Start's.
func startChild(cmd *exec.Cmd) (*child, error) {
	env := cmd.Environ()
	if slices.ContainsFunc(env, func(kv string) bool { return strings.IndexByte(kv, 0) >= 0 }) {
		return nil, errors.New("exec: environment variable contains NUL") // os/exec drops them and fails
	}
	files := make([]uintptr, 0, 3+len(cmd.ExtraFiles))
	for _, f := range append([]*os.File{fileOf(cmd.Stdin), fileOf(cmd.Stdout), fileOf(cmd.Stderr)}, cmd.ExtraFiles...) {
		if f == nil {
			files = append(files, ^uintptr(0)) // closed in the child
			continue
		}
		files = append(files, f.Fd())
	}
	attr := &syscall.ProcAttr{Dir: cmd.Dir, Env: env, Files: files, Sys: cmd.SysProcAttr}
	var pid int
	err := nsexec.StartBlocked(func() (err error) {
		pid, err = syscall.ForkExec(cmd.Path, cmd.Args, attr)
		return err
	})
	if err != nil {
		return nil, nsexec.StartFailure(cmd, &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: err})
	}
	return &child{pid: pid}, nil
}

// fileOf is the *os.File runSupervised sets as stdio; anything else
// would need os/exec's copying goroutines and is not supported here.
func fileOf(v any) *os.File {
	f, _ := v.(*os.File)
	return f
}

// signal sends sig unless the child has been reaped.
func (c *child) signal(sig os.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := sig.(syscall.Signal); ok && !c.reaped {
		_ = unix.Kill(c.pid, s)
	}
}

// kill is Process.Kill for a child that failed to get going.
func (c *child) kill() { c.signal(unix.SIGKILL) }

// wait waits for the child to exit, then reaps it.
func (c *child) wait() (syscall.WaitStatus, error) {
	c.parkUntilExit()
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, c.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			return 0, os.NewSyscallError("waitid", err)
		}
	}
	c.mu.Lock()
	c.reaped = true
	c.mu.Unlock()
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(c.pid, &ws, 0, nil)
		if err == nil {
			return ws, nil
		}
		if err != syscall.EINTR {
			return 0, os.NewSyscallError("wait", err)
		}
	}
}

// parkUntilExit waits for the child's exit in the netpoller, through a
// pidfd, when the kernel has pidfd_open (5.3): a goroutine blocked in
// waitid holds its thread in a system call, and the runtime's monitor
// thread (sysmon) then polls every 20-40 µs for as long as the child runs,
// taking CPU from it; parked in the netpoller, every thread sleeps. On
// any failure it returns and wait's waitid does the waiting.
func (c *child) parkUntilExit() {
	fd, err := unix.PidfdOpen(c.pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		return err != nil || info.Signo != 0 // exited, or waitid cannot tell: stop parking
	})
}
