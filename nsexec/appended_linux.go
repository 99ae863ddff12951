package nsexec

import (
	"fmt"
	"os/exec"

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

// refuseAppended is the init stage's side of Spec.RefuseAppended: an fd
// inherited where Command's ExtraFiles ended was appended to them, and
// the program would not get it.
func refuseAppended(s *Spec) error {
	if fd := appendedFD(s); s.RefuseAppended && inherited(fd) {
		return fmt.Errorf("fd %d: %s", fd, AppendedFilesHint)
	}
	return nil
}

// AppendedFilesHint says what to do instead of appending to ExtraFiles.
const AppendedFilesHint = "cmd.ExtraFiles has files after the spec and the preserved fds, which the program would not get: " +
	"pass fds with Options.PreserveFDs (this process's fds 3 and up) instead"

// OwnFiles tells whether cmd's ExtraFiles are still Command's: the spec,
// then the preserved fds 3… in order, and nothing after them.
func OwnFiles(cmd *exec.Cmd) bool {
	files := cmd.ExtraFiles
	if len(files) == 0 || !IsSpec(files[0]) {
		return false
	}
	preserved.Lock()
	defer preserved.Unlock()
	for i, f := range files[1:] {
		if own, ok := preserved.files[3+i]; !ok || own != f {
			return false
		}
	}
	return true
}

// markRefuseAppended sets s.RefuseAppended unless this process's own fd
// at that place would reach the child anyway (leaked to this process
// without close-on-exec, as make's jobserver fds are): the init stage
// could not tell the two apart.
func markRefuseAppended(s *Spec) {
	s.RefuseAppended = !inherited(appendedFD(s))
}
