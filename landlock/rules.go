// Package landlock turns an omega-run policy into a Landlock ruleset and
// applies it to the calling thread. It wraps go-landlock and adds what
// omega-run needs on top: the device nodes every program writes, the
// choice of handled rights per mode, and warnings that name exactly what
// the running kernel cannot enforce.
package landlock

import (
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/omega-run/omega-run/profiles"
)

// Rules is the ruleset in omega-run's terms. It is plain data so that the
// parent can build it and the init stage can apply it.
type Rules struct {
	// ReadExec roots get read and execute rights.
	ReadExec []string
	// Writable roots get every right, REFER, TRUNCATE and IOCTL_DEV
	// included.
	Writable []string
	// Devices are device files (or directories of them, like /dev/pts)
	// that may be opened for reading, writing and ioctl.
	Devices []string
	// Streams are files the program's inherited fds write to, named
	// /proc/self/fd/N (WrittenStreams): they may be opened again for
	// reading and writing, as /dev/stdout does.
	Streams []string
	// StreamsChecked says that Streams were found (WrittenStreams) in the
	// process that applies the rules, so they need no second look. Not on
	// the wire: an init stage always checks its own fds (MissingStream).
	StreamsChecked bool
	// DenyTCP handles TCP bind and connect with no port allowed.
	DenyTCP bool
	// UnixSockets allows connecting to pathname unix sockets anywhere
	// (ABI 9 handles that right; rx keeps host sockets reachable).
	UnixSockets bool
	// WritesOnly handles only the rights that change the filesystem (and
	// device ioctls). Read and execute are allowed everywhere anyway, and
	// in sandbox mode the read-only mounts stop truncation outside the
	// writable set; without the read and TRUNCATE rights the kernel skips
	// its path walk on every open that does not write (bench/PROFILE.md).
	// Only for a mount namespace whose root is read-only, and only where
	// the program's fds and working directory are not on a host mount
	// that is writable (the init stage checks).
	WritesOnly bool
	// LogDenials has the kernel log denials after execve (the program's),
	// LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON, where the ABI has it (7).
	LogDenials bool
}

// ReadSide are the rights WritesOnly leaves unhandled. IOCTL_DEV stays
// handled: the read-only root does not stop ioctls on a device node
// outside /dev (a chroot's, a container image's), and the kernel looks it
// up only when a device file is opened.
const ReadSide = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir |
	llsys.AccessFSTruncate

// DeviceFiles are the nodes every program writes to. Missing ones are
// skipped.
var DeviceFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/random", "/dev/urandom"}

// DeviceDirs are device directories that programs create files in.
var DeviceDirs = []string{"/dev/shm"}

// FromPolicy builds the Landlock rules for p.
func FromPolicy(p profiles.Policy) Rules {
	return Rules{
		ReadExec:    []string{"/"},
		Writable:    append(append([]string(nil), p.Writable...), DeviceDirs...),
		Devices:     DeviceFiles,
		DenyTCP:     p.Net == profiles.NetNone,
		UnixSockets: p.Mode != profiles.ModeSandbox,
		WritesOnly:  p.Mode == profiles.ModeSandbox,
		LogDenials:  p.LogDenials,
	}
}
