package nsexec

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"github.com/omega-run/omega-run/rlimits"
	"golang.org/x/sys/unix"
)

// Namespaces selects the namespaces of the init stage.
type Namespaces struct {
	Enabled bool // user, mount, pid, ipc, uts
	Net     bool // also a network namespace (--net none)
}

// Command returns an unstarted command that re-executes this binary into
// the init stage, which then runs s.
func Command(ctx context.Context, s *Spec, ns Namespaces) (*exec.Cmd, error) {
	spec := *s
	spec.PID1 = ns.Enabled
	if !ns.Enabled {
		// No mount namespace, so no read-only root: Landlock keeps its
		// full ruleset (WritesOnly relies on the mounts).
		spec.Mounts = nil
		spec.Landlock.WritesOnly = false
	}
	spec.Loopback = ns.Enabled && ns.Net
	f, err := memfdFor(&spec)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "/proc/self/exe", InitArg)
	cmd.Args[0] = "omega-run-init"
	cmd.ExtraFiles = []*os.File{f}
	for i := 0; i < s.KeepFDs; i++ {
		cmd.ExtraFiles = append(cmd.ExtraFiles, os.NewFile(uintptr(3+i), fmt.Sprintf("fd%d", 3+i)))
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if ns.Enabled {
		setNamespaces(cmd.SysProcAttr, ns)
	}
	// The program keeps ctx's kill semantics through PID 1: killing PID 1
	// kills the whole pid namespace.
	return cmd, nil
}

func setNamespaces(a *syscall.SysProcAttr, ns Namespaces) {
	a.Cloneflags = unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS
	if ns.Net {
		a.Cloneflags |= unix.CLONE_NEWNET
	}
	// A non-root uid loses every capability at execve, so the init stage
	// could not mount; ambient capabilities survive the exec. confine()
	// drops them all again before the program runs.
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN}
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		// Root keeps every id as it is, so file owners look right inside.
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
		a.GidMappingsEnableSetgroups = true
		return
	}
	// Everyone else sees their own ids, as bubblewrap maps them.
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
}

// ExecInPlace confines this process and replaces it with the program: the
// rx mode, and the sandbox without namespaces. It returns only on failure.
func ExecInPlace(s *Spec) error {
	runtime.LockOSThread()
	s.Landlock.WritesOnly = false // in place: no mounts, no read-only root
	w := warner{json: s.LogJSON}
	if err := confine(s, w); err != nil {
		return err
	}
	env := programEnv(inheritedEnv(s), s.Env, s.Unsetenv)
	if err := rlimits.Apply(s.Limits); err != nil {
		return err
	}
	if s.Plain {
		// rwx is a plain exec: every inherited fd stays as it was.
		return execFailure(s.Path, unix.Exec(s.Path, s.Argv, env))
	}
	return execProgram(s.Path, s.Argv, env, s.KeepFDs)
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
