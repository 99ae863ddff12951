package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// usernsUnavailable names why user namespaces cannot work here, from the
// cheap signs; "" when nothing rules them out (clone may still fail).
func usernsUnavailable() string {
	if readTrim("/proc/sys/user/max_user_namespaces") == "0" {
		return "user.max_user_namespaces is 0"
	}
	if os.Getuid() != 0 && readTrim("/proc/sys/kernel/unprivileged_userns_clone") == "0" {
		return usernsCloneOff
	}
	// The id maps are written through /proc/<pid>: a /proc of another
	// pid namespace (unshare -pf without --mount-proc) names another
	// process there, or none.
	self, err := os.Readlink("/proc/self")
	if errors.Is(err, fs.ErrNotExist) {
		return noProc
	}
	if self != strconv.Itoa(os.Getpid()) {
		return foreignProc
	}
	return ""
}

// usernsCloneOff is usernsUnavailable's cause where Debian's sysctl keeps
// user namespaces from users other than root.
const usernsCloneOff = "kernel.unprivileged_userns_clone is 0"

// noProc is usernsUnavailable's cause where no /proc is mounted (a
// minimal container): it was said to be another pid namespace's.
const noProc = "no /proc is mounted, so the sandbox's id maps cannot be written"

// foreignProc is usernsUnavailable's cause for a /proc that is not this
// pid namespace's.
const foreignProc = "/proc is not this pid namespace's, so the sandbox's id maps cannot be written"

// noUserNSKernel is cloneFailure's cause for EINVAL, which a kernel
// built without user namespaces answers: no sysctl gives them there.
const noUserNSKernel = "creating them failed with EINVAL: this kernel is likely built without user namespaces (CONFIG_USER_NS)"

// ptyFallback says what --pty loses without namespaces: the host's
// /dev/pts, where the caller's terminal is, stays in the program's reach.
// Inside another omega-run's sandbox that is the outer sandbox's own,
// which holds the terminals made there (the outer one's --pty terminal),
// not the caller's.
func ptyFallback() string {
	if insideOuterMounts() {
		return "--pty: without namespaces the outer sandbox's /dev/pts stays in reach: the program can open the terminals " +
			"made in it by name (the outer omega-run's with --pty) and read what is typed next or write to them"
	}
	return "--pty: without namespaces the host's /dev/pts stays in reach: the program can open your terminal " +
		"by name and read what you type next or write to it"
}
