package sandbox

import (
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/sirupsen/logrus"
	"golang.org/x/sys/unix"
)

// Without a pid namespace (rx, and the fallbacks), a process the program
// leaves behind (setsid, a double fork) outlives it, still confined, and
// could change Claude Code's settings, a git dir or the state's working
// copy after the checks and the copy back, unseen: a hook planted a
// second after the report, for an unconfined claude to run. Where
// omega-run stays the program's parent, it becomes their subreaper, so
// that they stay its children, and ends them once the program is done,
// as the pid namespace ends sandbox mode's and a cgroup's end rx's.

// orphans is omega-run as the subreaper of the program's processes.
type orphans struct {
	main int // the program: waited for by child.wait, not here
	// spare is --pty's guardian (0: none), a child of omega-run's that
	// must outlive the program: it restores the terminal should omega-run
	// be killed before it does.
	spare int
	stop  chan struct{}
	// mu serializes reaping with end, which sets ended: from then on no
	// pid is reaped, so none reused, between its listing and its kill.
	mu    sync.Mutex
	ended bool
}

// adoptOrphans makes omega-run the subreaper of what main (not yet
// running the program) starts, and reaps those that exit while it runs:
// each is a zombie of omega-run's, holding a pid, until reaped. nil when
// the kernel refuses it. spare is a child of omega-run's own, left running.
func adoptOrphans(main, spare int) *orphans {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		logrus.Debugf("leftover processes are not ended: PR_SET_CHILD_SUBREAPER: %v", err)
		return nil
	}
	o := &orphans{main: main, spare: spare, stop: make(chan struct{})}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, unix.SIGCHLD)
	go func() {
		// Stopped here, not waited for by end: signal.Stop waits for
		// the signal loop to be idle, which took 7 ms after each run.
		defer signal.Stop(ch)
		for {
			select {
			case <-o.stop:
				return
			case <-ch:
				o.reapExited()
			}
		}
	}()
	return o
}

// reapExited reaps the children that have exited, but the program,
// which is child.wait's (it peeks with WNOWAIT, then reaps that pid).
func (o *orphans) reapExited() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for !o.ended {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		pid := siginfoPid(&info)
		if err != nil || pid <= 0 || pid == o.main {
			return // none, or the program first: its wait takes it
		}
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, unix.WNOHANG, nil)
	}
}

// end kills and reaps the processes left once the program has been
// reaped, round after round: those a killed one had started become
// omega-run's children in turn. It returns how many it reaped. It waits
// for no one pid: a killed leftover traced by another that is not yet
// omega-run's child (its parent lives) is released to omega-run only
// once the tracer dies, which a later round kills.
func (o *orphans) end() int {
	if o == nil {
		return 0
	}
	o.mu.Lock()
	o.ended = true
	o.mu.Unlock()
	close(o.stop)
	n := 0
	for range maxLeftoverRounds {
		if !hasChildren() {
			break // the usual end: one system call, no scan of /proc
		}
		listed := listChildren()
		kids := o.spared(listed)
		if len(listed) == 0 {
			// waitid saw a child the lists do not show (no
			// CONFIG_PROC_CHILDREN; a list read as it changed).
			kids = o.spared(childrenByScan())
		}
		if len(kids) == 0 {
			break
		}
		// Listed, a pid is not reused before the kill: only end reaps
		// now. A zombie ignores the kill.
		for _, pid := range kids {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		reaped := reapAll()
		if reaped == 0 {
			time.Sleep(time.Millisecond) // the kills are under way
		}
		n += reaped
	}
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	return n
}

// spared is kids without the one spared.
func (o *orphans) spared(kids []int) []int {
	return slices.DeleteFunc(kids, func(pid int) bool { return pid == o.spare && pid != 0 })
}

// reapAll reaps each child that has exited, waiting for none.
func reapAll() int {
	n := 0
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, unix.WNOHANG|unix.WALL, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || pid <= 0 {
			return n
		}
		n++
	}
}

// maxLeftoverRounds bounds end: each round kills every process that is
// omega-run's child then, so a tree ends in as many rounds as it is deep
// (a round that reaps none waits a millisecond: about a second at most).
const maxLeftoverRounds = 1000

// hasChildren tells whether omega-run has a child process at all, live
// or not: waitid answers ECHILD when it has none (__WALL: whatever signal
// a child was cloned with; a reparented one's is SIGCHLD anyway).
func hasChildren() bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT|unix.WALL, nil)
	return err != unix.ECHILD
}

// listChildren is children, replaced in tests by a kernel without the
// lists.
var listChildren = children

// children are omega-run's child processes, from each of its threads'
// children lists (an orphan goes to the subreaper's thread group).
func children() []int {
	tids, _ := os.ReadDir("/proc/self/task")
	var out []int
	for _, t := range tids {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// childrenByScan finds omega-run's children by each process's parent in
// /proc/PID/stat: slower than the children lists, which it stands in for.
func childrenByScan() []int {
	self := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited since
		}
		// "pid (comm) state ppid …": comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		if f := strings.Fields(string(b[i+1:])); i >= 0 && len(f) > 1 && f[1] == self {
			out = append(out, pid)
		}
	}
	return out
}

// siginfoPid is si_pid of a SIGCHLD siginfo: first in the union after
// si_signo, si_errno and si_code (padded to 16 bytes on 64-bit ABIs).
func siginfoPid(info *unix.Siginfo) int {
	union := 3*4 + (unsafe.Sizeof(uintptr(0)) - 4)
	return int(*(*int32)(unsafe.Add(unsafe.Pointer(info), union)))
}
