//go:build linux

package landlock

import (
	"strconv"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// WrittenStreams names, as /proc/self/fd/N, the regular files and
// terminals that the fds (this process's, which the program inherits) are
// open for writing on. The program inherits those fds and
// writes the files, or drives the terminal, through them whatever
// Landlock says; a rule for each lets it open them again by name too
// (echo > /dev/stderr, tee /dev/stdout, stty -F /dev/stdout), which
// Landlock refuses outside the writable set (a terminal's ioctls: outside
// the allowed devices). Files Landlock can take no rule for (a memfd) are
// left out: the rule would fail the whole ruleset.
func WrittenStreams(fds ...int) []string {
	var out []string
	probe := -1
	defer func() {
		if probe >= 0 {
			unix.Close(probe)
		}
	}()
	for _, fd := range fds {
		if !written(fd) {
			continue
		}
		var err error
		if probe < 0 {
			attr := llsys.RulesetAttr{HandledAccessFS: llsys.AccessFSWriteFile}
			if probe, err = llsys.LandlockCreateRuleset(&attr, 0); err != nil {
				return nil // no Landlock: no rule needed
			}
		}
		path := "/proc/self/fd/" + strconv.Itoa(fd)
		if ruleable(probe, path) {
			out = append(out, path)
		}
	}
	return out
}

// written: fd is open for writing on a regular file or a terminal
// (isatty(3)). One open for reading only gets no rule: that file or
// terminal stays unwritable by name.
func written(fd int) bool {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if mode := fl & unix.O_ACCMODE; err != nil || (mode != unix.O_WRONLY && mode != unix.O_RDWR) {
		return false // closed, read-only, O_PATH or ioctl-only (3)
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		return true
	}
	_, err = unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil
}

// ruleable tells whether Landlock takes a file rule for path, by adding
// one to a scratch ruleset.
func ruleable(ruleset int, path string) bool {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	attr := llsys.PathBeneathAttr{AllowedAccess: llsys.AccessFSWriteFile, ParentFd: fd}
	return llsys.LandlockAddPathBeneathRule(ruleset, &attr, 0) == nil
}
