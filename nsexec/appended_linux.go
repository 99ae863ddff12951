package nsexec

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"

	"golang.org/x/sys/unix"
)

// appendedFD is where the first file an embedder appended to
// cmd.ExtraFiles lands in the init stage: right after the spec, the
// preserved fds and the go-ahead.
func appendedFD(s *Spec) int {
	fd := specFD + 1 + s.KeepFDs
	if s.GoAhead {
		fd++
	}
	return fd
}

// inherited tells whether fd is open here without close-on-exec, so that
// a child would get it whether or not ExtraFiles names it.
func inherited(fd int) bool {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	return err == nil && fl&unix.FD_CLOEXEC == 0
}

// refuseChangedCmd refuses what an embedder changed in Command's
// exec.Cmd that this stage can see. An fd inherited where Command's
// ExtraFiles ended (Spec.RefuseAppended) was appended to them, and the
// program would not get it. A spec for PID 1 of new namespaces in a
// process that is not PID 1 lost them with a replaced cmd.SysProcAttr
// (they are its Cloneflags): the mounts would then be made in the
// caller's own mount namespace (as root, its whole tree read-only after
// the run) or fail with the program run anyway, unhidden.
func refuseChangedCmd(s *Spec) error {
	if fd := appendedFD(s); s.RefuseAppended && inherited(fd) {
		return fmt.Errorf("fd %d: %s", fd, AppendedFilesHint)
	}
	if s.PID1 && os.Getpid() != 1 {
		return errors.New(NoNamespacesHint)
	}
	return nil
}

// NoNamespacesHint says that the init stage did not get its namespaces.
const NoNamespacesHint = "not started in new namespaces: cmd.SysProcAttr, which carries them, was replaced " +
	"(set its fields instead); nothing was set up"

// NoGoAheadHint says why an init stage that waits for its cgroup got
// no go-ahead: the launcher gave up before placing it, or an embedder
// started a command with cgroup limits without sandbox.Start.
const NoGoAheadHint = "no go-ahead from the parent, which places this process in its cgroup first: " +
	"start a command with cgroup limits (Memory, Pids, CPUs) with sandbox.Start, not cmd.Start, Run or Output; nothing was run"

// AppendedFilesHint says what to do instead of appending to ExtraFiles.
const AppendedFilesHint = "cmd.ExtraFiles has files after the spec and the preserved fds, which the program would not get: " +
	"pass them as Options.ExtraFiles instead"

// OwnFiles tells whether cmd's ExtraFiles are still Command's: the spec,
// then the preserved fds 3… in order, then Command's extra files, and
// nothing after them. It forgets the extra files (setExtra): sandbox.Start
// asks once, then closes the spec either way.
func OwnFiles(cmd *exec.Cmd) bool {
	files := cmd.ExtraFiles
	if len(files) == 0 || !IsSpec(files[0]) {
		return false
	}
	preserved.Lock()
	defer preserved.Unlock()
	extra := preserved.extra[files[0].Fd()]
	delete(preserved.extra, files[0].Fd())
	kept := len(files) - 1 - len(extra)
	if kept < 0 || !slices.Equal(files[1+kept:], extra) {
		return false
	}
	for i, f := range files[1 : 1+kept] {
		if own, ok := preserved.files[3+i]; !ok || own != f {
			return false
		}
	}
	return true
}

// setExtra records the extra files Command put after spec's preserved
// fds, for OwnFiles. Keyed by the spec's fd: OwnFiles forgets them, and
// where nothing asks (a command started with cmd.Start), Command's next
// spec at that number records anew, so that the map holds no more
// entries than there are fds.
func setExtra(spec *os.File, extra []*os.File) {
	preserved.Lock()
	defer preserved.Unlock()
	if len(extra) == 0 {
		delete(preserved.extra, spec.Fd())
		return
	}
	if preserved.extra == nil {
		preserved.extra = map[uintptr][]*os.File{}
	}
	preserved.extra[spec.Fd()] = slices.Clone(extra)
}

// markRefuseAppended sets s.RefuseAppended unless this process's own fd
// at that place would reach the child anyway (leaked to this process
// without close-on-exec, as make's jobserver fds are): the init stage
// could not tell the two apart.
func markRefuseAppended(s *Spec) {
	s.RefuseAppended = !inherited(appendedFD(s))
}
