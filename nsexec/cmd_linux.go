package nsexec

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Namespaces selects the namespaces of the init stage.
type Namespaces struct {
	Enabled bool // user, mount, pid, ipc, uts
	Net     bool // also a network namespace (--net none)
}

// Command returns an unstarted command that re-executes this binary into
// the init stage, which then runs s (passed in a memfd). The last
// len(extra) of s.KeepFDs are extra, the first ones this process's fds
// 3 and up. With s.GoAhead the last of cmd.ExtraFiles is a placeholder
// for the go-ahead pipe's read end, with no writer, shared by all such
// commands: the caller replaces it, and must not close it.
func Command(ctx context.Context, s *Spec, ns Namespaces, extra ...*os.File) (*exec.Cmd, error) {
	if len(extra) > s.KeepFDs {
		return nil, fmt.Errorf("spec: %d kept fds, fewer than the %d extra files", s.KeepFDs, len(extra))
	}
	spec := forNamespaces(s, ns)
	markRefuseAppended(&spec)
	f, err := memfdFor(&spec)
	if err != nil {
		return nil, err
	}
	kept := s.KeepFDs - len(extra)
	if s.GoAhead {
		// Its place after the extra files holds a pipe without a writer
		// until sandbox.Start puts the real one there: an init stage
		// started another way reads no go-ahead and stops.
		r, err := noGoAhead()
		if err != nil {
			f.Close()
			return nil, err
		}
		extra = append(slices.Clip(extra), r)
	}
	cmd := initCommand(ctx, f, kept, ns)
	cmd.ExtraFiles = append(cmd.ExtraFiles, extra...)
	setExtra(f, extra)
	return cmd, nil
}

var goAheadPlaceholder struct {
	sync.Mutex
	r *os.File
}

// noGoAhead is the read end of a pipe without a writer, one for this
// process, kept for good: a pipe for each command was an fd that a
// command never started held until the garbage collector took it.
func noGoAhead() (*os.File, error) {
	goAheadPlaceholder.Lock()
	defer goAheadPlaceholder.Unlock()
	if goAheadPlaceholder.r == nil {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		w.Close()
		goAheadPlaceholder.r = r
	}
	return goAheadPlaceholder.r, nil
}

// Pending is Command for a spec that is not ready yet: the launcher
// starts the init stage first, so that the clone, the id maps and the
// init stage's exec overlap with computing the spec, and then hands the
// spec over through a socket (SpecPipe.Send), on which the init stage
// then reports the program's stops (SpecPipe.Stops). keepFDs must be the
// spec's.
func Pending(ctx context.Context, ns Namespaces, keepFDs int) (*exec.Cmd, *SpecPipe, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, os.NewSyscallError("socketpair", err)
	}
	r := os.NewFile(uintptr(fds[0]), specName)
	return initCommand(ctx, r, keepFDs, ns), newSpecPipe(fds[1], ns, keepFDs), nil
}

// SpecPipe is the launcher's end of a Pending init stage's spec socket.
type SpecPipe struct {
	w       *os.File
	ns      Namespaces
	keepFDs int
	sent    bool // the spec went out: w is kept for Stops
}

// Send writes s, as Command would pass it for the socket's namespaces,
// and shuts the socket down for writing; it stays open for Stops.
func (p *SpecPipe) Send(s *Spec) error {
	defer func() {
		if !p.sent {
			p.w.Close()
		}
	}()
	if s.KeepFDs != p.keepFDs {
		return fmt.Errorf("spec: %d preserved fds, the init stage was started with %d", s.KeepFDs, p.keepFDs)
	}
	spec := forNamespaces(s, p.ns)
	data, err := encodeFor(&spec)
	if err != nil {
		return err
	}
	if _, err := p.w.Write(data); err != nil {
		return fmt.Errorf("write spec: %w", err)
	}
	if err := shutdownWrite(p.w); err != nil {
		return p.w.Close() // a pipe: closing it ends the spec
	}
	p.sent = true
	return nil
}

// Close abandons the launch: the init stage reads an empty spec and
// exits with 125 without a word, leaving the explaining to the caller.
// After Send, it ends Stops.
func (p *SpecPipe) Close() error { return p.w.Close() }

// forNamespaces is s as the init stage runs it in ns.
func forNamespaces(s *Spec, ns Namespaces) Spec {
	spec := *s
	spec.PID1 = ns.Enabled
	if !ns.Enabled {
		// No mount namespace, so no read-only root: Landlock keeps its
		// full ruleset (WritesOnly relies on the mounts).
		spec.Mounts = nil
		spec.Landlock.WritesOnly = false
		// The caller's own user namespace: its limits (the host's, for
		// root) are not the init stage's to set.
		spec.UserCounts = false
	}
	spec.Loopback = ns.Enabled && ns.Net
	return spec
}

var preserved struct {
	sync.Mutex
	files map[int]*os.File
	// extra: Command's extra files by its spec's fd (setExtra).
	extra map[uintptr][]*os.File
}

// preservedFile is the *os.File of a preserved fd, kept for good: one
// dropped after a start would close the fd once collected, and an
// in-place exec after a failed start would then lose it.
func preservedFile(fd int) *os.File {
	preserved.Lock()
	defer preserved.Unlock()
	if preserved.files == nil {
		preserved.files = map[int]*os.File{}
	}
	if f, ok := preserved.files[fd]; ok {
		return f
	}
	f := os.NewFile(uintptr(fd), fmt.Sprintf("fd%d", fd))
	preserved.files[fd] = f
	return f
}

// selfExe is how initCommand names this binary: the file it runs from,
// whatever has since been moved or written at its path.
const selfExe = "/proc/self/exe"

// StartFailure is err, a failed start of cmd, with the cause said where
// cmd is initCommand's and no /proc is mounted (a minimal container):
// the start failed as "fork/exec /proc/self/exe: no such file or
// directory" (where --pty needs a child without namespaces), which a
// reader takes for a missing binary. Os/exec's checks, the child's
// chdir, leave other ENOENTs, hence the look at /proc itself.
func StartFailure(cmd *exec.Cmd, err error) error {
	if cmd.Path != selfExe || !errors.Is(err, unix.ENOENT) {
		return err
	}
	if _, serr := os.Lstat("/proc/self"); !errors.Is(serr, fs.ErrNotExist) {
		return err
	}
	// "This binary": an embedder's, whose init stage (sandbox.Init) it is.
	return fmt.Errorf("%w: no /proc is mounted, and the init stage starts as this binary run again through %s: mount a /proc "+
		"for this pid namespace (unshare --mount-proc, bwrap --proc /proc)", err, selfExe)
}

// initCommand re-executes this binary into the init stage, its spec at
// fd 3 and the preserved fds after it.
func initCommand(ctx context.Context, spec *os.File, keepFDs int, ns Namespaces) *exec.Cmd {
	cmd := exec.CommandContext(ctx, selfExe, InitArg)
	cmd.Args[0] = "omega-run-init"
	cmd.ExtraFiles = []*os.File{spec}
	for i := 0; i < keepFDs; i++ {
		cmd.ExtraFiles = append(cmd.ExtraFiles, preservedFile(3+i))
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if ns.Enabled {
		setNamespaces(cmd.SysProcAttr, ns)
	}
	// The program keeps ctx's kill semantics through PID 1: killing PID 1
	// kills the whole pid namespace.
	return cmd
}

func setNamespaces(a *syscall.SysProcAttr, ns Namespaces) {
	a.Cloneflags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS
	if ns.Net {
		a.Cloneflags |= unix.CLONE_NEWNET
	}
	// A non-root uid loses every capability at execve, so the init stage
	// could not mount; ambient capabilities survive the exec. confine()
	// drops them all again before the program runs. CAP_SYS_RESOURCE (in
	// the namespace) sets its limits (capUserCounts).
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN, unix.CAP_SYS_RESOURCE}
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		// Root keeps every id it has as it is, so file owners look
		// right inside: all of them on the host, only what this user
		// namespace maps in one (a rootless container's root), whose
		// parent would refuse the rest.
		a.UidMappings, a.GidMappings = ownIDs("/proc/self/uid_map"), ownIDs("/proc/self/gid_map")
		// A namespace that denies setgroups cannot allow it below.
		b, _ := os.ReadFile("/proc/self/setgroups")
		a.GidMappingsEnableSetgroups = strings.TrimSpace(string(b)) != "deny"
		return
	}
	// Everyone else sees their own ids, as bubblewrap maps them.
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
}

// ownIDs is an identity map of the ids in this namespace's map file; the
// host's full range where it cannot be read.
func ownIDs(file string) []syscall.SysProcIDMap {
	var m []syscall.SysProcIDMap
	b, _ := os.ReadFile(file)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var inner, outer, count int
		if _, err := fmt.Sscan(line, &inner, &outer, &count); err != nil {
			return []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		}
		m = append(m, syscall.SysProcIDMap{ContainerID: inner, HostID: inner, Size: count})
	}
	return m
}

// ExecInPlace confines this process and replaces it with the program: the
// rx mode, and the sandbox without namespaces. It returns only on failure.
func ExecInPlace(s *Spec) error {
	// The program must not inherit an init stage as its child.
	DropPrestarted()
	runtime.LockOSThread()
	s.Landlock.WritesOnly = false // in place: no mounts, no read-only root
	// The launcher found the streams among these very fds (buildSpec).
	s.Landlock.StreamsChecked = true
	w := warner{json: s.LogJSON}
	if s.NewSession { // no PID 1 to start it in a session of its own
		if err := leaveTerminal(); err != nil {
			return err
		}
	}
	if err := confine(s, w); err != nil {
		return err
	}
	env := programEnv(inheritedEnv(s), s.Env, s.Unsetenv) // its limits set (confine)
	ignoreSignals(s.IgnoredSignals)
	if s.Plain {
		// rwx is a plain exec: every inherited fd stays as it was, and
		// the caller's signal mask (which the Go runtime changed) is back.
		if err := setProgramMask(s.BlockedSignals); err != nil {
			return err
		}
		return execFailure(s.Path, unix.Exec(s.Path, s.Argv, env))
	}
	return execProgram(s, env)
}

func newMemfd(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, &os.SyscallError{Syscall: "memfd_create", Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// ExitStatus is exitStatus for callers that wait themselves.
func ExitStatus(ws syscall.WaitStatus) int { return exitStatus(unix.WaitStatus(ws)) }
