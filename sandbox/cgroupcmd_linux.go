package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
	"weak"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"

	"github.com/omega-run/omega-run/cgroups"
	"github.com/omega-run/omega-run/nsexec"
)

// A command from CommandContext with cgroup limits waits, before
// anything else, for a go-ahead that only Start gives, once the process
// is in its group: the group holds the whole tree from its first
// instruction, and a command started with cmd.Start runs nothing
// (nsexec.NoGoAheadHint). Start creates the group (a command never
// started has none) and a goroutine removes it as soon as the command's
// process exits, killing what is left in it, whether the caller waits
// with Wait or cmd.Wait: it waits for the exit without reaping.
var limited struct {
	sync.Mutex
	// pending: the limits of an unstarted command, forgotten with it.
	pending map[weak.Pointer[exec.Cmd]]cgroups.Limits
	// started: a started command's group, until the command is gone.
	started map[weak.Pointer[exec.Cmd]]*groupWatch
}

// groupWatch is a started command's group, removed after its exit.
type groupWatch struct {
	done chan struct{}
	err  error // an OOM kill or a failed removal; read after done
}

// limitCommand asks spec (not yet encoded) to wait for the go-ahead, and
// refuses limits this host cannot give.
func limitCommand(p *plan, spec *nsexec.Spec, ns nsexec.Namespaces) error {
	if p.cgroup.IsZero() {
		return nil
	}
	if err := cgroups.Probe(p.cgroup); err != nil {
		return cgroupErr(err)
	}
	if err := initPids(p.cgroup.Pids, ns.Enabled); err != nil {
		return err
	}
	// On cgroup v2 the clone places it too (CLONE_INTO_CGROUP); the
	// cgroup namespace comes after the go-ahead on both versions.
	spec.GoAhead, spec.CgroupNS = true, ns.Enabled
	return nil
}

// registerLimits remembers l for Start.
func registerLimits(cmd *exec.Cmd, l cgroups.Limits) {
	key := weak.Make(cmd)
	limited.Lock()
	defer limited.Unlock()
	if limited.pending == nil {
		limited.pending = map[weak.Pointer[exec.Cmd]]cgroups.Limits{}
	}
	limited.pending[key] = l
	runtime.AddCleanup(cmd, forgetPending, key)
}

func forgetPending(key weak.Pointer[exec.Cmd]) {
	limited.Lock()
	defer limited.Unlock()
	delete(limited.pending, key)
}

// takeLimits returns (and forgets) the limits of cmd, a command from
// CommandContext, if it has any.
func takeLimits(cmd *exec.Cmd) (cgroups.Limits, bool) {
	key := weak.Make(cmd)
	limited.Lock()
	defer limited.Unlock()
	l, ok := limited.pending[key]
	delete(limited.pending, key)
	return l, ok
}

// startLimited starts cmd in a new group with limits l and gives it the
// go-ahead; on any failure nothing is left running.
func startLimited(cmd *exec.Cmd, l cgroups.Limits) error {
	last := len(cmd.ExtraFiles) - 1 // the shared placeholder, left open
	g, err := cgroups.New("", l)
	if err != nil {
		return launcherErr(cgroupErr(err))
	}
	r, w, err := os.Pipe()
	if err != nil {
		_ = g.Delete()
		return launcherErr(err)
	}
	cmd.ExtraFiles[last] = r
	if fd, ok := g.FD(); ok {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	}
	err = nsexec.StartFailure(cmd, nsexec.StartBlocked(cmd.Start))
	r.Close()
	if err == nil {
		err = goAhead(g, cmd.Process.Pid, w)
		if errors.Is(err, syscall.EPIPE) {
			// Gone before it read it (killed: a cancelled context), as
			// the CLI's launch reads it: started, and Wait tells how it
			// ended, as after cmd.Start. It ran nothing, and its group
			// goes below as any other.
			err = nil
		} else if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}
	w.Close()
	if err != nil {
		_ = g.Delete()
		return launcherErr(err)
	}
	watchGroup(cmd, g)
	return nil
}

// goAhead places pid (cgroup v1; v2's clone did) and lets it go on.
func goAhead(g *cgroups.Group, pid int, w *os.File) error {
	if _, ok := g.FD(); !ok {
		if err := g.Add(pid); err != nil {
			return err
		}
	}
	_, err := w.Write([]byte{1})
	return err
}

// watchGroup removes g once cmd's process has exited.
func watchGroup(cmd *exec.Cmd, g *cgroups.Group) {
	gw := &groupWatch{done: make(chan struct{})}
	key := weak.Make(cmd)
	limited.Lock()
	if limited.started == nil {
		limited.started = map[weak.Pointer[exec.Cmd]]*groupWatch{}
	}
	limited.started[key] = gw
	limited.Unlock()
	runtime.AddCleanup(cmd, forgetStarted, key)
	// Pinned now: once Start returns, cmd.Wait may reap it, and its pid
	// may be another process's.
	pid, pidfd := cmd.Process.Pid, -1
	if fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK); err == nil {
		pidfd = fd
	}
	retry := removeRetry
	go func() {
		awaitExit(pid, pidfd)
		err := endGroup(g)
		gw.err = err
		close(gw.done)
		if err != nil {
			retryRemoval(g, retry)
		}
	}()
}

// removeRetry is the first wait before another try at a group that
// endGroup could not remove; it doubles up to ten minutes.
var removeRetry = 30 * time.Second

// retryRemoval tries again until g goes. A process that outlived
// Delete's SIGKILLs (in uninterruptible sleep, or frozen) has the signal
// pending and goes once it wakes; given up, g stayed for good, locked by
// this process and so out of later launches' stale-group cleanup.
func retryRemoval(g *cgroups.Group, wait time.Duration) {
	for ; ; wait = min(2*wait, 10*time.Minute) {
		time.Sleep(wait)
		if g.Delete() == nil {
			return
		}
	}
}

func forgetStarted(key weak.Pointer[exec.Cmd]) {
	limited.Lock()
	defer limited.Unlock()
	delete(limited.started, key)
}

// awaitExit returns once child pid has exited, leaving it for cmd.Wait
// to reap: parked in the netpoller on pidfd (see parkUntilExit), or,
// on kernels without pidfds (before 5.3), in waitid.
func awaitExit(pid, pidfd int) {
	if pidfd >= 0 {
		f := os.NewFile(uintptr(pidfd), "pidfd")
		defer f.Close()
		if rc, err := f.SyscallConn(); err == nil {
			_ = rc.Read(func(fd uintptr) bool {
				var info unix.Siginfo
				err := unix.Waitid(unix.P_PIDFD, int(fd), &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
				return err != nil || info.Signo != 0 // exited, reaped (ECHILD), or no answer
			})
			return
		}
	}
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return // exited, or reaped already (ECHILD)
		}
	}
}

// endGroup kills what is left in g, removes it, and says an OOM kill,
// also beside a removal that failed (g then still there to ask).
func endGroup(g *cgroups.Group) error {
	err := g.Delete()
	if err != nil {
		logrus.Warn(err.Error())
	}
	if why, oom := oomCause(g); oom {
		logrus.WithField("cgroup", g.Name()).Warnf("%s: %s", ErrOOMKilled, why)
		err = errors.Join(fmt.Errorf("%w: %s", ErrOOMKilled, why), err)
	}
	return err
}

// oomCause says why the OOM killer killed in g, if it did: the group's
// memory limit, or, where the group never reached it, memory short
// outside it.
func oomCause(g *cgroups.Group) (why string, oom bool) {
	if oom, _ := g.OOMKilled(); !oom {
		return "", false
	}
	if reached, err := g.MemoryLimitReached(); reached || err != nil {
		return fmt.Sprintf("it reached its memory limit (%s)", g.Limits()), true
	}
	return fmt.Sprintf("it stayed below its memory limit (%s): the machine, or a cgroup above it, ran out of memory", g.Limits()), true
}

// Wait waits for cmd, started by Start, as cmd.Wait does, and for a
// command with cgroup limits also until its group is removed: what the
// command's process left in it killed, gone from the hierarchy. An OOM
// kill in the group (whichever process the kernel chose; the error says
// whether the group had reached its memory limit or the machine, or a
// cgroup above it, ran out of memory) is an error wrapping ErrOOMKilled,
// joined to cmd.Wait's.
// cmd.Wait alone also has the group removed, a moment after it returns.
// A removal that fails (a process SIGKILL did not end within 10 s: in
// uninterruptible sleep) is an error too; the group goes later, in the
// background, once that process has.
func Wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	limited.Lock()
	gw := limited.started[weak.Make(cmd)]
	limited.Unlock()
	if gw == nil {
		return err
	}
	<-gw.done
	forgetStarted(weak.Make(cmd))
	return errors.Join(err, gw.err)
}
