// Package landlock turns an omega-run policy into a Landlock ruleset and
// applies it to the calling thread. It wraps go-landlock and adds what
// omega-run needs on top: the device nodes every program writes, the
// choice of handled rights per mode, and warnings that name exactly what
// the running kernel cannot enforce.
package landlock

import (
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
	// DenyTCP handles TCP bind and connect with no port allowed.
	DenyTCP bool
	// UnixSockets allows connecting to pathname unix sockets anywhere
	// (ABI 9 handles that right; rx keeps host sockets reachable).
	UnixSockets bool
}

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
	}
}
